/**
 * @module store/daily-activity
 * The part of `activityByDay` both backends share: the window a query reads and the day arrays
 * filled from its grouped rows. A day is a UTC calendar day, the date the dashboard labels it with: an instant
 * `at` is `floor(now / day) - floor(at / day)` days back (day 0 is today, from 00:00Z up to now).
 */
import { DAY_MS } from '../core/graph/edge-decay.js';
import { utcDay } from '../core/time.js';
import type { DailyActivity, EpochMs } from './types.js';

/**
 * The instants a query reads: `at <= now` and `at > after`, a range one day wider than the
 * window, so that a rounding at its edge is settled by the day number each row is grouped by;
 * `today` is now's UTC day number (days since 1970-01-01), the one a row's day is counted back from.
 */
export function activityWindow(window: { now: EpochMs; days: number }): {
  now: EpochMs;
  after: EpochMs;
  today: number;
} {
  return { now: window.now, after: window.now - (window.days + 1) * DAY_MS, today: utcDay(window.now) };
}

/** One grouped row: a day number (days back) and its counts. */
export interface DayRow {
  back: number;
  executions?: number;
  calls?: number;
  observations?: number;
}

/** The day arrays of a `days`-day window from grouped rows; rows outside the window are dropped. */
export function dailyActivityOf(days: number, rows: Iterable<DayRow>): DailyActivity {
  const out: DailyActivity = {
    executions: new Array<number>(days).fill(0),
    calls: new Array<number>(days).fill(0),
    observations: new Array<number>(days).fill(0),
  };
  for (const row of rows) {
    const back = Number(row.back);
    if (!Number.isInteger(back) || back < 0 || back >= days) continue;
    out.executions[back] = (out.executions[back] as number) + Number(row.executions ?? 0);
    out.calls[back] = (out.calls[back] as number) + Number(row.calls ?? 0);
    out.observations[back] = (out.observations[back] as number) + Number(row.observations ?? 0);
  }
  return out;
}
