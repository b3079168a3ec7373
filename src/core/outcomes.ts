/**
 * @module core/outcomes
 * What an outcome says of the claim it was recorded on (issue 24): 1 when the claim held (accepted, used and
 * succeeded, validated), 0 when it did not (rejected, used and failed, contradicted). Pure.
 */
import { CredenceError } from './errors.js';
import { OUTCOME_KINDS, OUTCOMES, type Outcome, type OutcomeKind } from './types.js';

const POSITIVE: ReadonlySet<Outcome> = new Set<Outcome>(['accepted', 'succeeded', 'validated']);
const OUTCOME_SET: ReadonlySet<string> = new Set<string>(OUTCOMES);
const KIND_SET: ReadonlySet<string> = new Set<string>(OUTCOME_KINDS);

/** 1 for a claim that held (accepted, succeeded, validated), 0 for one that did not. */
export function outcomeValue(outcome: Outcome): 0 | 1 {
  return POSITIVE.has(outcome) ? 1 : 0;
}

export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'string' && OUTCOME_SET.has(value);
}

export function isOutcomeKind(value: unknown): value is OutcomeKind {
  return typeof value === 'string' && KIND_SET.has(value);
}

/** The outcome named, or a clear error naming the bad value and the valid ones. */
export function parseOutcome(value: unknown, what = 'outcome'): Outcome {
  if (isOutcome(value)) return value;
  throw new CredenceError(
    'INVALID_INPUT',
    `${what} ${JSON.stringify(value)} is not an outcome: valid outcomes are ${OUTCOMES.join(', ')}`,
    { details: { [what]: value } },
  );
}

/** The kind of claim named, or a clear error naming the bad value and the valid ones. */
export function parseOutcomeKind(value: unknown, what = 'kind'): OutcomeKind {
  if (isOutcomeKind(value)) return value;
  throw new CredenceError(
    'INVALID_INPUT',
    `${what} ${JSON.stringify(value)} is not a kind of claim: valid kinds are ${OUTCOME_KINDS.join(', ')}`,
    { details: { [what]: value } },
  );
}
