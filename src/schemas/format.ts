/**
 * @module schemas/format — zod issues as one readable line: `calls[2].consumes[0]: <message>`, the
 * same problem at many positions folded into one entry (`calls[2–299].status: … (298 calls)`, core/text/issue-list).
 * An issue whose schema gave no message of its own is said in plain words ({@link plainIssueMessage}: `must not be
 * empty`, `must be a string, got a number`, `unknown field colour`), never zod's own (`Too small: expected string to
 * have >=1 characters`): {@link PLAIN_ISSUES}, passed on each of Credence's parses (a schema's own message outranks
 * it; zod's global config is left alone for the application's own schemas).
 */
import type { z } from 'zod';
import { describeIssues } from '../core/text/issue-list.js';
import { shownText } from '../core/security/scrub.js';

/** What a value is, in words: `a string`, `a number`, `an array`, `null`. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'number' && Number.isNaN(value)) return 'NaN';
  return type === 'object' || type === 'undefined' ? `an ${type}` : `a ${type}`;
}

/**
 * A value as a message shows it (`got …`): text quoted, a number (NaN too) or boolean as it is, nothing as `none`,
 * anything else by its kind ({@link kindOf}). The one helper for it: engine, embed and mcp messages use it.
 */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return shownText(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return value === undefined ? 'none' : kindOf(value);
}

const EXPECTED: Readonly<Record<string, string>> = Object.freeze({
  int: 'a whole number',
  array: 'an array',
  object: 'an object',
  record: 'an object',
  undefined: 'absent',
  null: 'null',
  date: 'a date',
  nan: 'NaN',
});

/** `5 characters`, `1 item`. */
function counted(n: number | bigint, origin: string): string {
  const unit = origin === 'string' ? 'character' : origin === 'array' || origin === 'set' ? 'item' : '';
  return unit === '' ? String(n) : `${n} ${unit}${n === 1 || n === 1n ? '' : 's'}`;
}

const shown = (value: unknown): string => (typeof value === 'string' ? shownText(value) : String(value));

/** The plain words for a zod issue raised without a message of its schema's; undefined leaves zod's. */
export function plainIssueMessage(issue: z.core.$ZodRawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${EXPECTED[issue.expected] ?? `a ${issue.expected}`}, got ${kindOf(issue.input)}`;
    case 'too_small': {
      const { minimum, origin } = issue;
      if (origin === 'string' && Number(minimum) === 1) return 'must not be empty';
      if (origin === 'array' && Number(minimum) === 1) return 'must have at least one item';
      if (issue.exact === true) return `must be exactly ${counted(minimum, origin)}`;
      const bound = issue.inclusive === false ? 'more than' : 'at least';
      return origin === 'string' || origin === 'array' || origin === 'set'
        ? `must have ${bound} ${counted(minimum, origin)}`
        : `must be ${bound} ${minimum}`;
    }
    case 'too_big': {
      const { maximum, origin } = issue;
      if (issue.exact === true) return `must be exactly ${counted(maximum, origin)}`;
      const bound = issue.inclusive === false ? 'less than' : 'at most';
      return origin === 'string' || origin === 'array' || origin === 'set'
        ? `must have ${bound} ${counted(maximum, origin)}`
        : `must be ${bound} ${maximum}`;
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${shown(issue.values[0])}, got ${shown(issue.input)}`
        : `must be one of ${issue.values.map(shown).join(', ')}, got ${shown(issue.input)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    case 'invalid_format':
      if (issue.format === 'regex') return issue.pattern === undefined ? undefined : `must match ${issue.pattern}`;
      return /^(starts_with|ends_with|includes|lowercase|uppercase)$/.test(issue.format)
        ? undefined
        : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    default:
      return undefined;
  }
}

/**
 * The parse options of every schema Credence checks input with: {@link plainIssueMessage} for the issues whose schema
 * has no message of its own. Passed on each parse, never set on zod's global config, so that importing Credence
 * leaves the messages of an application's own zod schemas (its locale, its own error map) as they were.
 */
export const PLAIN_ISSUES: z.core.ParseContext<z.core.$ZodIssue> = Object.freeze({ error: plainIssueMessage });

export function formatIssues(error: z.ZodError): string {
  return describeIssues(error.issues.map((issue) => ({ path: issue.path, message: issue.message })));
}
