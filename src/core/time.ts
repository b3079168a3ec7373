/**
 * @module core/time
 * Strict ISO 8601 instants for every time a user gives (`--now`, `startedAt`, `at`, observation
 * timestamps): `2026-02-02`, `2026-02-02T06:00`, `2026-02-02T06:00:00.5Z`, `…+01:00`. Anything else —
 * `5`, `March 7`, `2026-02-30` — is not a date, rather than some date `Date.parse` guesses.
 * A date without a zone is read as UTC. A day is a UTC calendar day (`utcDay`): store and dashboard count by it.
 */
import { CredenceError } from './errors.js';
import { shownText } from './security/scrub.js';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Epoch milliseconds of an ISO 8601 date or date-time, or undefined when the text is not one. */
export function parseIsoInstant(text: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone = 'Z'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) return undefined;
  const ms = Number(`0.${frac || '0'}`) * 1000;
  let offset = 0;
  if (zone !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
    if (z === null) return undefined;
    const zh = Number(z[2]);
    const zm = Number(z[3]);
    if (zh > 23 || zm > 59) return undefined;
    offset = (z[1] === '-' ? -1 : 1) * (zh * 60 + zm) * 60_000;
  }
  return Date.UTC(year, month - 1, day, hour, minute, second) + Math.round(ms) - offset;
}

/**
 * The start of a window given as a duration back from `now` (`7d`, `12h`, `2w`) or an ISO date; `name` is the option
 * named in the error.
 */
export function parseSince(text: string, now: number, name = '--since'): number {
  const rel = /^(\d+(?:\.\d+)?)\s*([hdw])$/.exec(text.trim());
  if (rel !== null)
    return now - Number(rel[1]) * { h: 3_600_000, d: 86_400_000, w: 604_800_000 }[rel[2] as 'h' | 'd' | 'w'];
  const at = parseIsoInstant(text);
  if (at === undefined)
    throw new CredenceError(
      'INVALID_INPUT',
      `${name} must be a duration such as 7d, 12h, 2w or an ISO date, got ${shownText(text)}`,
    );
  return at;
}

/** How far past the clock a given time may be (a day: time zones, a clock a little behind). */
export const NOW_AHEAD_MS = 86_400_000;

/**
 * Whether `at` (epoch ms) is later than `clock` by more than NOW_AHEAD_MS: a `--now` / CREDENCE_NOW so far ahead is
 * a typo (a mistyped year made evolve prune every observation as if that time had passed).
 */
export const aheadOfClock = (at: number, clock: number): boolean => at > clock + NOW_AHEAD_MS;

/** The clock Credence runs by when nothing fixes it, as messages call it. */
export const MACHINE_CLOCK = "this machine's clock";

/** The clock fixed by the option or variable `name` (`--now`, `now`, CREDENCE_NOW), as messages call it. */
export const fixedClockName = (name: string): string => `the clock ${name} sets`;

/**
 * Why a time given in the input (a run's `startedAt`, a call's `at`, `observe --at`, an imported `timestamp`, a
 * memory's `validFrom`, `validTo` or a turn's `at`) is refused, or undefined: more than a day after the `clock`
 * Credence runs by (aheadOfClock: the machine's, or the one --now fixes, called `clockName`). Stored, it would keep
 * what it taught at full confidence (no decay) until that time came (`harm` says what it would do instead, for a
 * memory).
 */
export function aheadOfClockReason(
  value: string | number,
  clock: number,
  harm = 'a time ahead of the clock would keep what it taught from decaying until then',
  clockName = MACHINE_CLOCK,
): string | undefined {
  const at = typeof value === 'number' ? value : parseIsoInstant(value);
  if (at === undefined || !aheadOfClock(at, clock)) return undefined;
  // A number beyond the dates JavaScript can write (1e20) is shown as given.
  const date = new Date(at);
  const shown =
    typeof value !== 'number'
      ? value
      : Number.isNaN(date.getTime())
        ? String(value)
        : `${value} (${date.toISOString()})`;
  return `${shown} is after ${clockName} (${new Date(clock).toISOString()}): ${harm}; give a time up to now`;
}

/** The UTC calendar day number of an instant (days since 1970-01-01): the day the dashboard labels it with. */
export const utcDay = (at: number): number => Math.floor(at / 86_400_000);
