import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../core/errors.js';
import { INPUT_LIMITS } from '../core/limits.js';
import { openCredence, type Credence } from './engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const engine = (): Promise<Credence> =>
  openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'limits', now: NOW });
const long = (n: number): string => 'x'.repeat(n + 1);

/** The error a call rejects with, or undefined. */
async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
    return undefined;
  } catch (error) {
    return error;
  }
}

/** Each public method and the input over its limit, with the field the error must name. */
const OVER_LIMIT: readonly [string, string, number, (c: Credence) => Promise<unknown>][] = [
  ['searchTools', 'query', INPUT_LIMITS.query, (c) => c.searchTools(long(INPUT_LIMITS.query))],
  ['recall', 'query', INPUT_LIMITS.query, (c) => c.recall(long(INPUT_LIMITS.query))],
  ['suggestDag', 'intent', INPUT_LIMITS.intent, (c) => c.suggestDag(long(INPUT_LIMITS.intent))],
  ['similarExecutions', 'intent', INPUT_LIMITS.intent, (c) => c.similarExecutions(long(INPUT_LIMITS.intent))],
  ['suggestNext', 'tool', INPUT_LIMITS.toolName, (c) => c.suggestNext(long(INPUT_LIMITS.toolName))],
  [
    'remember (text)',
    'memories[0].text',
    INPUT_LIMITS.memoryText,
    (c) => c.remember([{ title: 'notes', text: long(INPUT_LIMITS.memoryText) }]),
  ],
  [
    'remember (title)',
    'memories[1].title',
    INPUT_LIMITS.memoryTitle,
    (c) =>
      c.remember([
        { title: 'a', text: 'b' },
        { title: long(INPUT_LIMITS.memoryTitle), text: 'b' },
      ]),
  ],
  [
    'observe',
    'observations[0].observation',
    INPUT_LIMITS.observation,
    (c) =>
      c.observe([
        {
          timestamp: '2026-06-01T00:00:00Z',
          type: 'pattern',
          observation: long(INPUT_LIMITS.observation),
          confidence: 0.5,
        },
      ]),
  ],
  [
    'observe (evidence)',
    'observations[0].evidence[1]',
    INPUT_LIMITS.evidence,
    (c) =>
      c.observe([
        {
          timestamp: '2026-06-01T00:00:00Z',
          type: 'pattern',
          observation: 'o',
          evidence: ['e', long(INPUT_LIMITS.evidence)],
          confidence: 0.5,
        },
      ]),
  ],
  [
    'addTools (name)',
    'tools[0].id',
    INPUT_LIMITS.toolName,
    (c) => c.addTools([{ id: long(INPUT_LIMITS.toolName), description: 'd' }]),
  ],
  [
    'addTools (description)',
    'tools[0].description',
    INPUT_LIMITS.toolDescription,
    (c) => c.addTools([{ id: 't', description: long(INPUT_LIMITS.toolDescription) }]),
  ],
  [
    'recordExecution (intent)',
    'execution.intent',
    INPUT_LIMITS.intent,
    (c) => c.recordExecution({ intent: long(INPUT_LIMITS.intent), calls: [] }),
  ],
  [
    'recordExecutions (call output)',
    'executions[0].calls[1].output',
    INPUT_LIMITS.callText,
    (c) =>
      c.recordExecutions([
        {
          intent: 'i',
          calls: [
            { tool: 'a', status: 'success' },
            { tool: 'b', status: 'success', output: long(INPUT_LIMITS.callText) },
          ],
        },
      ]),
  ],
  [
    'appendCalls',
    'calls[0].tool',
    INPUT_LIMITS.toolName,
    (c) => c.appendCalls({ id: 's', intent: 'i' }, [{ tool: long(INPUT_LIMITS.toolName), status: 'success' }]),
  ],
  [
    'declareEdge',
    'from',
    INPUT_LIMITS.toolName,
    (c) => c.declareEdge({ from: long(INPUT_LIMITS.toolName), to: 'b', type: 'sequence' }),
  ],
  ['feedback', 'note', INPUT_LIMITS.note, (c) => c.feedback('sh-1', 'accepted', { note: long(INPUT_LIMITS.note) })],
];

describe('input limits (issue 17, red-team 1)', () => {
  it.each(OVER_LIMIT)(
    '%s refuses a text over its limit with INPUT_TOO_LARGE naming the field, its length and the limit',
    async (_, field, limit, call) => {
      const credence = await engine();
      const error = await failure(() => call(credence));
      expect(isCredenceError(error, 'INPUT_TOO_LARGE')).toBe(true);
      expect(isCredenceError(error) && error.details).toEqual({ field, length: limit + 1, limit });
      await credence.close();
    },
  );

  it('stores nothing of a batch with one text over its limit', async () => {
    const credence = await engine();
    await failure(() =>
      credence.remember([
        { title: 'kept?', text: 'short' },
        { title: 'long', text: long(INPUT_LIMITS.memoryText) },
      ]),
    );
    expect((await credence.status()).counts.memories).toBe(0);
    await credence.close();
  });

  it('accepts a text of exactly the limit', async () => {
    const credence = await engine();
    await expect(credence.searchTools('x'.repeat(INPUT_LIMITS.query))).resolves.toEqual([]);
    await expect(
      credence.remember([{ title: 't'.repeat(INPUT_LIMITS.memoryTitle), text: 'x'.repeat(INPUT_LIMITS.memoryText) }]),
    ).resolves.toMatchObject({ inserted: 1 });
    await credence.close();
  });
});
