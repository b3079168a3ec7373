import { describe, expect, it } from 'vitest';
import { parseIsoInstant, utcDay } from './time.js';

describe('parseIsoInstant', () => {
  it('reads ISO 8601 dates and date-times, UTC when no zone is given', () => {
    expect(parseIsoInstant('2026-02-02')).toBe(Date.UTC(2026, 1, 2));
    expect(parseIsoInstant('2026-02-02T06:00:00Z')).toBe(Date.UTC(2026, 1, 2, 6));
    expect(parseIsoInstant('2026-02-02T06:00')).toBe(Date.UTC(2026, 1, 2, 6));
    expect(parseIsoInstant('2026-02-02T06:00:00.250+01:00')).toBe(Date.UTC(2026, 1, 2, 5, 0, 0, 250));
    expect(parseIsoInstant('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
  });

  it('refuses what is not an ISO date instead of guessing', () => {
    for (const text of [
      '5',
      'March 7',
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '2026-02-02T25:00',
      'yesterday',
      '',
      '2026-2-2',
    ]) {
      expect(parseIsoInstant(text), text).toBeUndefined();
    }
  });
});

describe('utcDay', () => {
  it('numbers UTC calendar days: a day changes at 00:00Z, also before 1970', () => {
    expect(utcDay(Date.parse('2026-11-27T23:59:59.999Z'))).toBe(utcDay(Date.parse('2026-11-27T00:00:00Z')));
    expect(utcDay(Date.parse('2026-11-28T00:00:00Z')) - utcDay(Date.parse('2026-11-27T23:59:59.999Z'))).toBe(1);
    expect(utcDay(0)).toBe(0);
    expect(utcDay(-1)).toBe(-1);
  });
});
