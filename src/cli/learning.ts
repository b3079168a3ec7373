/** @module cli/learning — `credence feedback ID`, `credence metrics`, `credence forget ID`. */
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { shownText } from '../core/security/scrub.js';
import { VERDICTS, type Verdict } from '../core/types.js';
import { parseSince } from './observe.js';
import { printJson, withCredence, type CommandContext } from './context.js';
import { parseCount, parseLimit } from './parse.js';
import { formatRuns } from './runs-text.js';
import type { ForgetResult } from '../engine/forget.js';
import { storeHookFiles } from '../platform/hook-spool.js';

const pct = (v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

export function registerLearning(program: Command, context: () => CommandContext): void {
  program
    .command('feedback <id>')
    .description('a verdict on a shown result (sh-…), an instinct or a skill')
    .option('--accepted', 'it was right (on an instinct or skill: explicit feedback, +0.3)')
    .option('--rejected', 'it was wrong (on an instinct or skill: −0.3)')
    .option('--contradicts', 'it contradicts what the user wants (−0.3)')
    .option('--validated', 'the user confirmed it (+0.2)')
    .option('--succeeded', 'a shown result was used and it worked (its outcome; on an instinct or skill +0.2)')
    .option('--failed', 'a shown result was used and it failed (its outcome; on an instinct or skill −0.3)')
    .option('--contradicted', 'the same as --contradicts, in the outcome word')
    .option('--event <id>', 'an id for this feedback event: the same event id is applied once')
    .option('--note <text>', 'a note kept with the event')
    .action(
      async (
        id: string,
        o: {
          accepted?: boolean;
          rejected?: boolean;
          contradicts?: boolean;
          validated?: boolean;
          succeeded?: boolean;
          failed?: boolean;
          contradicted?: boolean;
          event?: string;
          note?: string;
        },
      ) => {
        const ctx = context();
        const verdicts = VERDICTS.filter((v) => o[v] === true);
        if (verdicts.length !== 1)
          throw new CredenceError('INVALID_INPUT', `give exactly one of ${VERDICTS.map((v) => `--${v}`).join(', ')}`);
        const result = await withCredence(ctx, (c) =>
          // The CLI speaks for the user: accepting or validating an instinct or skill confirms the rules held for
          // confirmation.
          c.feedback(id, verdicts[0] as Verdict, {
            ...(o.event === undefined ? {} : { eventId: o.event }),
            ...(o.note === undefined ? {} : { note: o.note }),
            confirm: true,
          }),
        );
        if (ctx.wantsJson) return printJson(ctx, result);
        const event =
          result.event === undefined
            ? ''
            : result.event.recorded
              ? `; event ${result.event.id} (${result.event.kind}) on ${result.event.targetId}`
              : `; event ${result.event.id} was already recorded, not applied twice`;
        const confirmed =
          result.confirmed === undefined
            ? ''
            : `; confirmed: ${result.confirmed.map((t) => JSON.stringify(t)).join('; ')}`;
        ctx.io.stdout(`${result.verdict} recorded on ${result.on} ${result.id}${event}${confirmed}\n`);
      },
    );

  program
    .command('evolve')
    .description('turn recent observations into instincts and skills, and print the report')
    .option('--dry-run', 'show what would change; write nothing')
    .option('--since <when>', 'how far back to look: 7d (default), 12h, 2w or an ISO date')
    .option('--min-confidence <c>', 'patterns below this are ignored (default 0.5)')
    .option(
      '--dir <folder>',
      'where instincts, skills and the evolution log go, inside the project (default .credence)',
    )
    .option(
      '--skills-dir <folder>',
      'where skills go (default: .claude/skills in a project with a .claude/ folder, where Claude Code loads ' +
        'them; else <dir>/skills)',
    )
    .option('--max-observations <n>', 'observations kept per scope (default 100)')
    .option('--purge-days <n>', 'observations older than this are purged (default 90)')
    .option('--max-instincts <n>', 'active instincts at most (default 20)')
    .action(
      async (o: {
        dryRun?: boolean;
        since?: string;
        minConfidence?: string;
        dir?: string;
        skillsDir?: string;
        maxObservations?: string;
        purgeDays?: string;
        maxInstincts?: string;
      }) => {
        const ctx = context();
        const min = o.minConfidence === undefined ? undefined : Number(o.minConfidence);
        if (min !== undefined && (!Number.isFinite(min) || min < 0 || min > 1)) {
          throw new CredenceError(
            'INVALID_INPUT',
            `--min-confidence must be a number in [0, 1], got ${shownText(String(o.minConfidence))}`,
          );
        }
        const report = await withCredence(ctx, (c) =>
          c.evolve({
            ...(o.dryRun === true ? { dryRun: true } : {}),
            ...(o.since === undefined ? {} : { sinceMs: c.now() - parseSince(o.since, c.now()) }),
            ...(min === undefined ? {} : { minConfidence: min }),
            ...(o.dir === undefined ? {} : { dir: o.dir }),
            ...(o.skillsDir === undefined ? {} : { skillsDir: o.skillsDir }),
            limits: {
              ...(o.maxObservations === undefined
                ? {}
                : { maxObservations: parseCount('--max-observations', o.maxObservations) }),
              ...(o.purgeDays === undefined ? {} : { purgeAfterDays: parseCount('--purge-days', o.purgeDays) }),
              ...(o.maxInstincts === undefined
                ? {}
                : { maxActiveInstincts: parseCount('--max-instincts', o.maxInstincts) }),
            },
          }),
        );
        if (ctx.wantsJson) return printJson(ctx, report);
        const pruned = report.pruned;
        const tail =
          pruned === undefined || (pruned.observations.length === 0 && pruned.retiredInstincts.length === 0)
            ? ''
            : '\n\n### Pruned\n' +
              pruned.observations.map((p) => `- observation ${p.id}: ${p.why}`).join('\n') +
              pruned.retiredInstincts
                .map((i) => `\n- instinct ${i.id} retired (over the limit of active instincts)`)
                .join('') +
              (pruned.protected > 0
                ? `\n- ${pruned.protected} observation(s) over a limit kept: ` +
                  'the last evidence of a live instinct or skill'
                : '');
        const { formatEvolveReport } = await import('../engine/learning/evolve.js');
        ctx.io.stdout(`${formatEvolveReport(report)}${tail}\n`);
      },
    );

  program
    .command('forget <id>')
    .description(
      'delete an observation (or instinct, skill, memory) and what was derived only from it; an instinct or skill ' +
        'with the observations it was learned from; a run (its prompt, calls, full text, what it taught); a learned ' +
        'workflow id (wf-…): its runs; a Claude Code session id: its runs and its hook state',
    )
    .option('--dir <folder>', 'the folder evolve writes to (default .credence)')
    .option('--skills-dir <folder>', 'where skills are (default: as evolve writes them)')
    .action(async (id: string, o: { dir?: string; skillsDir?: string }) => {
      const ctx = context();
      const result = await withCredence(ctx, async (c): Promise<ForgetResult> => {
        // A session's events still in the hooks' spool go too: the next drain would queue them (learn them) again.
        const hookFiles = storeHookFiles(
          c.storeInfo,
          ctx.options.databaseUrl ?? ctx.io.env.CREDENCE_DATABASE_URL,
          ctx.io.env,
        );
        return await c.forget(id, {
          ...(o.dir === undefined ? {} : { dir: o.dir }),
          ...(o.skillsDir === undefined ? {} : { skillsDir: o.skillsDir }),
          ...(hookFiles === undefined ? {} : { hookFiles }),
        });
      });
      const spooled = result.spooledEventsForgotten ?? 0;
      if (ctx.wantsJson) return printJson(ctx, result);
      const learnedFrom = result.evidenceForgotten.length;
      const runs = result.kind === 'session' || result.kind === 'workflow' ? (result.runsForgotten ?? []).length : 0;
      const left = result.observationsLeft ?? [];
      const fromCalls = (result.observationsForgotten ?? []).length;
      const also = [
        ...(result.kind === 'session'
          ? [`forgot its ${runs} run${runs === 1 ? '' : 's'} (prompts, calls, full text) and its hook state`]
          : result.kind === 'workflow'
            ? [`forgot its ${runs} run${runs === 1 ? '' : 's'} (intents, calls, full text) and what they taught`]
            : []),
        ...(fromCalls === 0
          ? []
          : [`forgot the ${fromCalls} observation${fromCalls === 1 ? '' : 's'} learned from its calls`]),
        ...(result.kind === 'session'
          ? [
              ...(left.length === 0
                ? []
                : [`kept the observations learned from its prompts: ${left.join(', ')} (forget each by its id)`]),
              ...(spooled === 0 ? [] : [`deleted its ${spooled} event${spooled === 1 ? '' : 's'} still in the spool`]),
              // A tombstone (walk 13): a teammate's machine drops its turns when it learns its own spool.
              "its events in other machines' spools are dropped when they are learned",
            ]
          : []),
        ...(learnedFrom === 0
          ? []
          : [`forgot the ${learnedFrom} observation${learnedFrom === 1 ? '' : 's'} it was learned from`]),
        ...result.derivedForgotten.map((d) => `forgot ${d} too (learned from the same observations)`),
        ...result.derivedRemoved.map((d) => `removed ${d} (its last evidence)`),
        ...result.derivedUpdated.map((d) => `updated ${d}`),
      ];
      ctx.io.stdout(`forgot ${result.kind} ${result.id}${also.length > 0 ? `; ${also.join('; ')}` : ''}\n`);
    });

  program
    .command('runs')
    .description('recent runs (executions) with their id, intent, quality (success or failure) and node outcomes')
    .option('--limit <n>', 'how many (default 20)')
    .action(async (o: { limit?: string }) => {
      const ctx = context();
      const limit = o.limit === undefined ? undefined : parseLimit(o.limit);
      const runs = await withCredence(ctx, (c) => c.runs(limit === undefined ? {} : { limit }));
      if (ctx.wantsJson) return printJson(ctx, runs);
      if (runs.length === 0) return ctx.io.stdout('no runs recorded\n');
      ctx.io.stdout(`${formatRuns(runs)}\n`);
    });

  program
    .command('metrics')
    .description('observations per type, instinct → skill conversion rate, suggestion precision')
    .action(async () => {
      const ctx = context();
      const m = await withCredence(ctx, (c) => c.metrics());
      if (ctx.wantsJson) return printJson(ctx, m);
      const lines = [
        `observations   ${m.observations.total} (${Object.entries(m.observations.byType)
          .map(([t, n]) => `${t} ${n}`)
          .join(', ')})`,
        `instincts      ${m.instincts.total} (active ${m.instincts.active}, promoted ${m.instincts.promoted})`,
        `skills         ${m.skills}`,
        `conversion     ${pct(m.conversionRate)} of instincts became skills`,
        `precision      ${pct(m.suggestions.precision)} ` +
          `(accepted ${m.suggestions.accepted} / shown ${m.suggestions.shown}, rejected ${m.suggestions.rejected})`,
        ...m.suggestions.bySurface.map(
          (s) => `  ${s.surface.padEnd(12)} ${pct(s.precision)} (accepted ${s.accepted} / shown ${s.shown})`,
        ),
      ];
      ctx.io.stdout(`${lines.join('\n')}\n`);
    });
}
