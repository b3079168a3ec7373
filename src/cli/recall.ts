/**
 * @module cli/recall — `credence remember` (one memory, or JSON lines) and `credence recall`
 * (the `<memory-context>` block, or JSON; one query or a batch).
 */
import type { Command } from 'commander';
import { CredenceError } from '../core/errors.js';
import { requireMemoryWithinLimits } from '../core/limits.js';
import { shownText } from '../core/security/scrub.js';
import { parseIsoInstant } from '../core/time.js';
import { chooseContext, type ContextAsked } from '../core/recall/agent-context.js';
import { formatMemoryContext } from '../core/recall/memory-context.js';
import type { ProbabilityInfo } from '../engine/calibration.js';
import type { RecallResult } from '../engine/recall/recall.js';
import type { MemoryInput } from '../schemas/index.js';
import { printJson, runJsonLines, withCredence, type CommandContext } from './context.js';
import { checkedLines, readInput, reportProblems } from './input.js';
import { parseLimit, parseList } from './parse.js';
import { noProbabilityLine, withScoreProbability } from './probability-text.js';

function parseLabels(text: string): 'seed' | 'evidence' {
  if (text !== 'seed' && text !== 'evidence')
    throw new CredenceError('INVALID_INPUT', `--labels must be seed or evidence, got ${JSON.stringify(text)}`);
  return text;
}

/**
 * The agent's context, chosen and marked as every surface does (core/recall/agent-context, issue 23); here each line
 * with, after its label, its score and the learned probability of that score, and after the block, once, why there is
 * none (calibration.md).
 */
function contextBlock(
  results: readonly (RecallResult & ProbabilityInfo)[],
  query: string,
  now: number,
  asked: ContextAsked,
): string {
  const chosen = chooseContext(results, query, now, asked);
  // The block's lines: its opening tag, one line per chosen result in order, its closing tag.
  const lines = formatMemoryContext(chosen.map((c) => c.line)).split('\n');
  chosen.forEach((c, i) => {
    lines[i + 1] += withScoreProbability(c.result);
  });
  const why = noProbabilityLine(chosen.map((c) => c.result));
  return [...lines, ...(why === undefined ? [] : [why])].join('\n');
}

/**
 * An ISO date (2026-05-01 or 2026-05-01T10:00:00Z) as epoch ms, read as `--now` is (core/time: a day the calendar
 * does not have, 2026-02-30, is no date); a clear error naming the flag otherwise.
 */
function parseDate(flag: string, text: string): number {
  const ms = parseIsoInstant(text);
  if (ms === undefined)
    throw new CredenceError('INVALID_INPUT', `${flag} must be an ISO date like 2026-05-01, got ${shownText(text)}`);
  return ms;
}

export function registerRecall(program: Command, context: () => CommandContext): void {
  program
    .command('remember [text...]')
    .description('add a note or decision to what recall can return (or many, from JSON lines)')
    .option('--title <title>', 'a short title (required for a single memory)')
    .option(
      '--category <category>',
      'note, decision or a short lowercase word of your own, e.g. runbook (default note)',
    )
    .option('--tags <tags>', 'comma-separated tags', parseList)
    .option('--path <path>', 'the file it is about, inside the project; without TEXT the text is read from it')
    .option('--id <id>', 'an id of your own (default: a hash of title and text); the same id updates')
    .option(
      '--supersedes <id>',
      'the memory this one replaces (kept, marked superseded, left out of context; one already replaced: ' +
        'the one current now along what replaced it)',
    )
    .option('--valid-from <date>', 'when it became true (ISO date; default now)')
    .option('--source <source>', 'where it came from (a file, a URL, a conversation)')
    .option(
      '--jsonl <file>',
      'JSON lines {id?, category?, title, text?, tags?, path?} or turns {speaker, session, at, text}, or - for stdin',
    )
    .action(
      async (
        words: string[],
        options: {
          title?: string;
          category?: string;
          tags?: string[];
          path?: string;
          id?: string;
          jsonl?: string;
          supersedes?: string;
          validFrom?: string;
          source?: string;
        },
      ) => {
        const ctx = context();
        if (options.jsonl !== undefined) {
          // Over a limit: a bad line with its number (the engine would name `memories[i]`, counted from 0).
          // A time ahead of the clock: refused by the engine (engine/recall/remember), the line named as others.
          const { items, problems } = checkedLines(readInput(options.jsonl), (v) => {
            requireMemoryWithinLimits('memory', v);
            return v;
          });
          // One call: the file's turns are one batch, placed together (engine/recall/remember); a wrong line is told.
          const result = await withCredence(ctx, async (c) => {
            const values = items.map((item) => item.value as MemoryInput); // checked by the engine
            const rejected = (position: number, reason: string): void => {
              problems.push({ line: items[position]?.line ?? 0, reason });
            };
            return c.remember(values, { rejected });
          });
          problems.sort((a, b) => a.line - b.line);
          reportProblems(ctx.io.stderr, problems);
          const { ids, merged } = result;
          // Lines that merged (into a memory stored before, or into an earlier line of the file) are counted apart.
          const distinct = new Set(ids).size;
          if (ctx.wantsJson)
            printJson(ctx, { remembered: ids.length, memories: distinct, merged, ids, rejected: problems });
          else
            ctx.io.stdout(
              `remembered ${distinct} memor${distinct === 1 ? 'y' : 'ies'}` +
                `${merged > 0 ? ` (${merged} line${merged === 1 ? '' : 's'} merged as repeats)` : ''}` +
                `${problems.length > 0 ? `, ${problems.length} line(s) rejected` : ''}\n`,
            );
          if (problems.length > 0) ctx.setExitCode(1);
          return;
        }
        if (options.title === undefined)
          throw new CredenceError('INVALID_INPUT', 'give --title (and TEXT or --path), or --jsonl FILE');
        const text = words.length > 0 ? words.join(' ') : undefined;
        const memory = {
          title: options.title,
          ...(text === undefined ? {} : { text }),
          ...(options.category === undefined ? {} : { category: options.category }),
          ...(options.tags === undefined ? {} : { tags: options.tags }),
          ...(options.path === undefined ? {} : { path: options.path }),
          ...(options.id === undefined ? {} : { id: options.id }),
          ...(options.supersedes === undefined ? {} : { supersedes: options.supersedes }),
          ...(options.validFrom === undefined ? {} : { validFrom: options.validFrom }),
          ...(options.source === undefined ? {} : { source: options.source }),
        };
        const result = await withCredence(ctx, (c) => c.remember([memory as MemoryInput])); // checked by the engine
        if (ctx.wantsJson) return printJson(ctx, result);
        const verb = result.inserted === 1 ? 'remembered' : result.merged === 1 ? 'merged into' : 'updated';
        ctx.io.stdout(
          [
            `${verb} ${result.ids[0]}`,
            ...result.superseded.map((s) => `superseded ${s.id} (by ${s.by}: ${s.why})`),
            ...result.conflicts.map((s) => `conflict ${s.id} with ${s.with}: ${s.why}`),
          ]
            .map((line) => `${line}\n`)
            .join(''),
        );
      },
    );

  program
    .command('recall [query...]')
    .description('the memories that matter for a query, labelled high / medium / low')
    .option('--limit <n>', 'how many results (default 5)', parseLimit)
    .option('--labels <mode>', 'evidence (default: "high" needs evidence) or seed (seed 003 exactly)', parseLabels)
    .option('--batch <file>', 'JSON lines {"query"} in (or -), one JSON result a line out')
    .option('--as-of <date>', 'what was true at this date (ISO, e.g. 2026-05-01): a later replacement left out')
    .option('--all', 'keep superseded memories in the context block too, marked (JSON always carries them, marked)')
    .action(
      async (
        words: string[],
        options: { limit?: number; labels?: 'seed' | 'evidence'; batch?: string; asOf?: string; all?: boolean },
      ) => {
        const ctx = context();
        const request = {
          ...(options.limit === undefined ? {} : { limit: options.limit }),
          ...(options.labels === undefined ? {} : { labels: { mode: options.labels } }),
          ...(options.asOf === undefined ? {} : { asOf: parseDate('--as-of', options.asOf) }),
        };
        if (options.batch !== undefined) {
          const { recallLine } = await import('./batch-lines.js');
          const { scrubText } = await import('../core/security/scrub.js');
          // The query is echoed scrubbed, like everything Credence writes.
          return runJsonLines(ctx, options.batch, recallLine, async (c, line) => ({
            query: scrubText(line.query).text,
            results: await c.recall(line.query, request),
          }));
        }
        const query = words.join(' ');
        if (query.trim() === '') throw new CredenceError('INVALID_INPUT', 'give a query, or --batch FILE');
        const { results, now } = await withCredence(ctx, async (c) => ({
          results: await c.recall(query, request),
          now: c.now(),
        }));
        if (ctx.wantsJson) return printJson(ctx, results);
        // A question about the past keeps what was replaced: it is the answer (core/recall/agent-context).
        const asked = { all: options.all === true, ...(request.asOf === undefined ? {} : { asOf: request.asOf }) };
        ctx.io.stdout(`${contextBlock(results, query, now, asked)}\n`);
      },
    );
}
