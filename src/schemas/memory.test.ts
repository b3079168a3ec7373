import { describe, expect, it } from 'vitest';
import { MemoryInputSchema } from './memory.js';

const parse = (category: string) => MemoryInputSchema.safeParse({ title: 't', text: 'x', category });

describe('MemoryInputSchema category', () => {
  it.each(['note', 'decision', 'runbook', 'bug', 'pattern', 'how-to', 'adr2', 'a'.repeat(32)])(
    'accepts a short lowercase word: %s',
    (category) => {
      expect(parse(category).success).toBe(true);
    },
  );

  it.each(['Runbook', 'run book', '2fa', '-x', 'a'.repeat(33), '', 'bug\u001b[2J'])(
    'refuses %j, naming the value',
    (category) => {
      const r = parse(category);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toContain(JSON.stringify(category));
    },
  );

  it.each(['observation', 'execution', 'instinct', 'skill'])(
    'keeps %s for what Credence derives itself',
    (category) => {
      const r = parse(category);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/is reserved for what Credence derives itself/);
    },
  );
});

// Walk 15, item 10: a blank text was stored and recalled as an empty line in the agent's context.
describe('MemoryInputSchema text, title and speaker', () => {
  it.each(['', '   ', '\u200b', '\t\n', '\u00a0\u2060'])('refuses the blank text %j, naming the field', (text) => {
    const r = MemoryInputSchema.safeParse({ title: 't', text });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['text']);
    expect(r.error?.issues[0]?.message).toContain('must not be blank');
  });

  it('refuses an empty turn and a title or speaker that shows nothing', () => {
    const turn = { speaker: 'Cara', session: 's9', at: '2026-03-03T10:00:00Z' };
    expect(MemoryInputSchema.safeParse({ ...turn, text: '' }).success).toBe(false);
    expect(MemoryInputSchema.safeParse({ ...turn, speaker: '\u200b', text: 'hi' }).success).toBe(false);
    expect(MemoryInputSchema.safeParse({ title: '\u200b', text: 'x' }).success).toBe(false);
    expect(MemoryInputSchema.safeParse({ ...turn, text: 'I use Vim.' }).success).toBe(true);
    expect(MemoryInputSchema.safeParse({ title: 'Zero', text: 'a\u200bb' }).success).toBe(true);
  });
});

// Walk 15, item 11: a validTo before its validFrom was stored as is, and recalled as current.
describe('MemoryInputSchema validity window', () => {
  it('refuses a validTo before when the memory became true, naming both', () => {
    const r = MemoryInputSchema.safeParse({ title: 'Q', text: 'x', validFrom: '2026-05-01', validTo: '2026-01-01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['validTo']);
    expect(r.error?.issues[0]?.message).toBe(
      '"2026-01-01" is before validFrom "2026-05-01": a memory stops being true after it became true ' +
        '(give validTo after it, or leave it out)',
    );
    const turn = { speaker: 'Cara', session: 's9', at: '2026-03-05T10:00:00Z', text: 'x', validTo: '2026-03-01' };
    expect(MemoryInputSchema.safeParse(turn).error?.issues[0]?.message).toContain(
      'is before at "2026-03-05T10:00:00Z"',
    );
  });

  it('accepts a window in order, an end alone, and an end equal to the start', () => {
    for (const window of [
      { validFrom: '2025-02-01', validTo: '2025-09-01' },
      { validTo: '2025-09-01' },
      { validFrom: Date.parse('2025-02-01'), validTo: '2025-02-01' },
    ]) {
      expect(MemoryInputSchema.safeParse({ title: 'Q', text: 'x', ...window }).success).toBe(true);
    }
  });
});
