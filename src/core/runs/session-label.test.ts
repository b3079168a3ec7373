import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PROMPT_BEFORE_FIRST_CALL_MS, SESSION_ID_KEPT, sessionLabel, sessionPromptSpans } from './session-label.js';

describe('sessionLabel', () => {
  it('keeps an id that fits and hashes a longer one as the run ids always have (node:crypto SHA-256)', () => {
    expect(sessionLabel('a'.repeat(SESSION_ID_KEPT))).toBe('a'.repeat(SESSION_ID_KEPT));
    const long = `${'é'.repeat(70)}${'x'.repeat(200)}`;
    const hex = createHash('sha256').update(long).digest('hex').slice(0, 16);
    expect(sessionLabel(long)).toBe(`${'é'.repeat(64)}~${hex}`);
  });
});

describe('sessionPromptSpans (review F, 5)', () => {
  it('gives a turn that used no tool the time between the runs of the turns around it', () => {
    const runs = [
      { intent: 'run the tests', startedAt: 5_000_000, turn: 2 },
      { intent: 'fix the build', startedAt: 9_000_000, turn: 4 },
    ];
    const intents = new Map([
      [1, 'draft my raise request'],
      [2, 'run the tests'],
      [3, 'what does this error mean?'],
      [5, 'thanks, summarise'],
      [6, ' '],
    ]);
    expect(sessionPromptSpans(runs, intents, 12_000_000)).toEqual([
      { intent: 'run the tests', from: 5_000_000 - PROMPT_BEFORE_FIRST_CALL_MS, to: 5_000_000 },
      { intent: 'fix the build', from: 9_000_000 - PROMPT_BEFORE_FIRST_CALL_MS, to: 9_000_000 },
      { intent: 'draft my raise request', from: 0, to: 5_000_000 },
      { intent: 'what does this error mean?', from: 5_000_001, to: 9_000_000 },
      { intent: 'thanks, summarise', from: 9_000_001, to: 12_000_000 },
    ]);
  });
});
