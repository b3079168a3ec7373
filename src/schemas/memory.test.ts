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
