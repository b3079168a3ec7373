/** @module cli/learning — `credence feedback ID`, `credence metrics`, `credence forget ID`. */
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import type { Verdict } from '../feedback-service.js';
import { printJson, withCredence, type CommandContext } from './context.js';

const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

export function registerLearning(program: Command, context: () => CommandContext): void {
  program
    .command('feedback <id>')
    .description('a verdict on a shown result (sh-…), an instinct or a skill')
    .option('--accepted', 'it was right (on an instinct or skill: explicit feedback, +0.3)')
    .option('--rejected', 'it was wrong (on an instinct or skill: −0.3)')
    .option('--contradicts', 'it contradicts what the user wants (−0.3)')
    .option('--validated', 'the user confirmed it (+0.2)')
    .option('--event <id>', 'an id for this feedback event: the same event id is applied once')
    .option('--note <text>', 'a note kept with the event')
    .action(async (id: string, o: { accepted?: boolean; rejected?: boolean; contradicts?: boolean; validated?: boolean; event?: string; note?: string }) => {
      const ctx = context();
      const verdicts = (['accepted', 'rejected', 'contradicts', 'validated'] as const).filter((v) => o[v] === true);
      if (verdicts.length !== 1) throw new CredenceError('INVALID_INPUT', 'give exactly one of --accepted, --rejected, --contradicts or --validated');
      const result = await withCredence(ctx, (c) =>
        c.feedback(id, verdicts[0] as Verdict, { ...(o.event === undefined ? {} : { eventId: o.event }), ...(o.note === undefined ? {} : { note: o.note }) }),
      );
      if (ctx.wantsJson) return printJson(ctx, result);
      const event = result.event === undefined ? '' : result.event.recorded ? `; event ${result.event.id} (${result.event.kind}) on ${result.event.targetId}` : `; event ${result.event.id} was already recorded, not applied twice`;
      ctx.io.stdout(`${result.verdict} recorded on ${result.on} ${result.id}${event}\n`);
    });

  program
    .command('metrics')
    .description('observations per type, instinct → skill conversion rate, suggestion precision')
    .action(async () => {
      const ctx = context();
      const m = await withCredence(ctx, (c) => c.metrics());
      if (ctx.wantsJson) return printJson(ctx, m);
      const lines = [
        `observations   ${m.observations.total} (${Object.entries(m.observations.byType).map(([t, n]) => `${t} ${n}`).join(', ')})`,
        `instincts      ${m.instincts.total} (active ${m.instincts.active}, promoted ${m.instincts.promoted})`,
        `skills         ${m.skills}`,
        `conversion     ${pct(m.conversionRate)} of instincts became skills`,
        `precision      ${pct(m.suggestions.precision)} (accepted ${m.suggestions.accepted} / shown ${m.suggestions.shown}, rejected ${m.suggestions.rejected})`,
        ...m.suggestions.bySurface.map((s) => `  ${s.surface.padEnd(12)} ${pct(s.precision)} (accepted ${s.accepted} / shown ${s.shown})`),
      ];
      ctx.io.stdout(`${lines.join('\n')}\n`);
    });
}
