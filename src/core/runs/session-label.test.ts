import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SESSION_ID_KEPT, sessionLabel } from './session-label.js';

describe('sessionLabel', () => {
  it('keeps an id that fits and hashes a longer one as the run ids always have (node:crypto SHA-256)', () => {
    expect(sessionLabel('a'.repeat(SESSION_ID_KEPT))).toBe('a'.repeat(SESSION_ID_KEPT));
    const long = `${'é'.repeat(70)}${'x'.repeat(200)}`;
    const hex = createHash('sha256').update(long).digest('hex').slice(0, 16);
    expect(sessionLabel(long)).toBe(`${'é'.repeat(64)}~${hex}`);
  });
});
