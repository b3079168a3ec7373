import { describe, expect, it } from 'vitest';
import { parseExecution } from '../engine/tool-graph/tool-graph.js';
import { codeOf, thrown } from '../../test/helpers.js';
import { shownValue } from './format.js';

describe('formatIssues', () => {
  it('names a run of 300 calls with 298 bad statuses in one short entry, not 298 repeats (issue 17)', () => {
    const calls = [
      { tool: 'read', status: 'success' },
      { tool: 'edit', status: 'success' },
      ...Array.from({ length: 298 }, (_, i) => ({ tool: `t${i}`, status: 'done' })),
    ];
    const error = thrown(() => parseExecution({ intent: 'a long session', calls }));
    expect(codeOf(() => parseExecution({ intent: 'a long session', calls }))).toBe('INVALID_INPUT');
    const message = (error as Error).message;
    expect(message).toContain('calls[2–299].status');
    expect(message).toContain('(298 calls)');
    expect(message.length).toBeLessThan(200);
  });

  it('keeps the message of a single bad field as it was', () => {
    const error = thrown(() => parseExecution({ intent: 'x', calls: [{ tool: 'a', status: 'done' }] }));
    expect((error as Error).message).toBe(
      'invalid execution: calls[0].status: must be one of success, failure, partial',
    );
  });
});

describe('plain issue messages stay Credence’s own', () => {
  it('importing Credence leaves the messages of an application’s own zod schemas as zod gives them', async () => {
    await import('../index.js');
    const { z } = await import('zod');
    const own = z.object({ name: z.string().min(1) }).safeParse({ name: '' });
    expect(own.success).toBe(false);
    expect(own.error?.issues[0]?.message).toMatch(/^Too small/);
    // Credence's own parse of the same problem says it in plain words.
    const credence = thrown(() => parseExecution({ intent: 5 as unknown as string, calls: [] })) as Error;
    expect(credence.message).toBe('invalid execution: intent: must be a string, got a number');
  });
});

describe('shownValue, the one helper that quotes a value in a message', () => {
  it('quotes a text scrubbed of any secret in it (walk 10, item 8)', () => {
    const key = 'gh' + 'p_' + 'ShownValueEXAMPLEEXAMPLEEXAMPLE00042';
    expect(shownValue(`token ${key}`)).toBe('"token [REDACTED:github-token]"');
    expect(shownValue('DB_PASSWORD=' + 'Hunter2' + 'Secret')).toBe('"DB_PASSWORD=[REDACTED:credential]"');
    expect(shownValue('plain')).toBe('"plain"');
  });
});
