/**
 * @module cli/observe — `credence observe` (one observation), `credence import FILE` and
 * `credence export [--since]` (observation JSON lines, the seed 004 schema).
 */
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { requireObservationWithinLimits } from '../core/limits.js';
import { shownText } from '../core/security/scrub.js';
import { parseIsoInstant, parseSince } from '../core/time.js';
import type { ObservationDraft } from '../engine/engine.js';
import { aheadOfClockReason, printJson, withCredence, type CommandContext } from './context.js';
import { checkedLines, readInput, reportProblems } from './input.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function parseConfidence(text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new CredenceError('INVALID_INPUT', `--confidence must be a number in [0, 1], got ${shownText(text)}`);
  return value;
}

/** `7d`, `12h`, `2w` back from now, or an ISO date. */
export { parseSince };

export function registerObserve(program: Command, context: () => CommandContext): void {
  program
    .command('observe')
    .description('record one learning observation (seed 004 schema)')
    .requiredOption('--type <type>', 'pattern, correction, preference, error or success')
    .requiredOption('--observation <text>', 'what was observed')
    .option('--task <task>', 'the task it was observed in')
    .option('--file <file>', 'the file it concerns')
    .option('--phase <phase>', 'planning, implementation or review')
    .option(
      '--confidence <c>',
      'confidence in [0, 1] (default from its type and evidence: 0.3, 0.4 with evidence, +0.2 for a correction)',
      parseConfidence,
    )
    .option('--evidence <text>', 'evidence (repeatable)', collect)
    .option('--tag <tag>', 'tag (repeatable)', collect)
    .option('--at <iso>', 'when (default: now)')
    .action(
      async (o: {
        type: string;
        observation: string;
        task?: string;
        file?: string;
        phase?: string;
        confidence?: number;
        evidence?: string[];
        tag?: string[];
        at?: string;
      }) => {
        const ctx = context();
        // Checked here to name the flag and the value (the engine names the field, timestamp).
        if (o.at !== undefined && parseIsoInstant(o.at) === undefined)
          throw new CredenceError(
            'INVALID_INPUT',
            `--at must be an ISO 8601 date such as 2026-02-02T06:00:00Z, got ${shownText(o.at)}`,
          );
        const clock = await ctx.clock();
        const ahead = o.at === undefined ? undefined : aheadOfClockReason(o.at, clock.now, undefined, clock.name);
        if (ahead !== undefined) throw new CredenceError('INVALID_INPUT', `--at ${ahead}`);
        const result = await withCredence(ctx, async (c) => {
          const line = {
            type: o.type,
            ...(o.task === undefined && o.file === undefined && o.phase === undefined
              ? {}
              : {
                  context: {
                    ...(o.task === undefined ? {} : { task: o.task }),
                    ...(o.file === undefined ? {} : { file: o.file }),
                    ...(o.phase === undefined ? {} : { phase: o.phase }),
                  },
                }),
            observation: o.observation,
            evidence: o.evidence ?? [],
            tags: o.tag ?? [],
          };
          // Time and confidence default in the engine (now, f(type, evidence)); the line is checked there:
          // INVALID_INPUT naming the field.
          return c.observeNow({
            ...line,
            ...(o.at === undefined ? {} : { timestamp: o.at }),
            ...(o.confidence === undefined ? {} : { confidence: o.confidence }),
          } as ObservationDraft);
        });
        if (ctx.wantsJson) return printJson(ctx, result);
        ctx.io.stdout(result.inserted === 1 ? `observed ${result.ids[0]}\n` : `already observed: ${result.ids[0]}\n`);
      },
    );

  program
    .command('import [file]')
    .description(
      'import observations from JSON lines (or - for standard input); ' +
        'bad lines are reported, good ones go in, nothing twice; a line without a timestamp is taken as observed ' +
        'now, one without a confidence gets the base confidence of its type and evidence; // lines are comments. ' +
        'With --claude-code: learn from past Claude Code sessions (docs/claude-code.md)',
    )
    .option(
      '--claude-code [dir]',
      'read the Claude Code transcripts in DIR (a folder of .jsonl files or one file; default: this project’s ' +
        'folder under ~/.claude/projects/) as the hooks would have seen them; importing again adds nothing',
    )
    .action(async (file: string | undefined, flags: { claudeCode?: string | boolean }) => {
      const ctx = context();
      if (flags.claudeCode !== undefined) {
        const { importClaudeCode } = await import('./import.js');
        return importClaudeCode(ctx, typeof flags.claudeCode === 'string' ? flags.claudeCode : file);
      }
      if (file === undefined)
        throw new CredenceError('INVALID_INPUT', 'say what to import: credence import FILE|- or --claude-code [DIR]');
      const { parseObservation, withObservationDefaults } = await import('../engine/observations.js');
      // The seed's example blocks annotate their lines with // comments: blank them, keeping the line numbers.
      const text = readInput(file).replace(/^[ \t]*\/\/.*$/gm, '');
      let problems: ReturnType<typeof checkedLines>['problems'] = [];
      const clock = await ctx.clock();
      const result = await withCredence(ctx, (c) => {
        const now = c.now();
        const checked = checkedLines(text, (value) => {
          // Over a limit: a bad line with its number (not the whole file refused, naming `observations[i]` from 0).
          requireObservationWithinLimits('observation', value);
          const observation = parseObservation(withObservationDefaults(value, now, { lineId: true }));
          const ahead = aheadOfClockReason(observation.timestamp, clock.now, undefined, clock.name);
          if (ahead !== undefined) throw new CredenceError('INVALID_INPUT', `invalid observation: timestamp: ${ahead}`);
          return observation;
        });
        problems = checked.problems;
        return c.observe(checked.items.map((i) => i.value));
      });
      reportProblems(ctx.io.stderr, problems);
      if (ctx.wantsJson)
        printJson(ctx, { inserted: result.inserted, duplicates: result.duplicates, rejected: problems });
      else
        ctx.io.stdout(
          `imported ${result.inserted} observation(s), ${result.duplicates} already present` +
            `${problems.length > 0 ? `, ${problems.length} line(s) rejected` : ''}\n`,
        );
      if (problems.length > 0) ctx.setExitCode(1);
    });

  program
    .command('export')
    .description('write the observations of the scope as JSON lines (seed 004 schema, context always present)')
    .option('--since <when>', 'only from this time: a duration back from now (7d, 12h, 2w) or an ISO date')
    .action(async (o: { since?: string }) => {
      const ctx = context();
      const lines = await withCredence(ctx, (c) =>
        c.exportObservations(o.since === undefined ? {} : { since: parseSince(o.since, c.now()) }),
      );
      ctx.io.stdout(lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    });
}
