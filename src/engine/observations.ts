/**
 * @module engine/observations
 * Observations in and out (SPEC §6, seed 004): checked against the seed's schema, scrubbed and
 * de-duplicated by the store, exported back field for field (context always written).
 */
import { createHash } from 'node:crypto';
import { baseConfidence } from '../core/learning/base-confidence.js';
import { CredenceError } from '../core/errors.js';
import type { ObservationType } from '../core/types.js';
import { scrubValue } from '../core/security/scrub.js';
import { parseIsoInstant } from '../core/time.js';
import { formatIssues, ObservationInputSchema, type ObservationInput } from '../schemas/index.js';
import type { InsertReport, ObservationRecord, ObservationStore } from '../store/types.js';
import { PLAIN_ISSUES } from '../schemas/format.js';

/** Checks one observation line; throws INVALID_INPUT naming every bad field. */
export function parseObservation(value: unknown): ObservationInput {
  const parsed = ObservationInputSchema.safeParse(value, PLAIN_ISSUES);
  if (!parsed.success) throw new CredenceError('INVALID_INPUT', `invalid observation: ${formatIssues(parsed.error)}`);
  return parsed.data;
}

/**
 * An observation line with what its sender left out filled in, before it is checked: a missing
 * `timestamp` is `now` (the seed's own example lines have none: they are taken as observed when
 * imported), a missing `confidence` is the base confidence of its type and evidence
 * (core/learning/base-confidence, seed 004 `f(type, evidence)`). Anything else is passed on as it is,
 * for the check to name. With `lineId` (an import), a line without time or id gets its id from its own
 * content (scrubbed first, as every id), so the same file imported again adds nothing twice.
 */
export function withObservationDefaults(value: unknown, now: number, options: { lineId?: boolean } = {}): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const line = value as Record<string, unknown>;
  const lineId =
    options.lineId === true && line.timestamp === undefined && line.id === undefined
      ? {
          id: `obs-${createHash('sha256')
            .update(JSON.stringify(scrubValue(line)))
            .digest('hex')
            .slice(0, 16)}`,
        }
      : {};
  const type = line.type;
  const evidence = Array.isArray(line.evidence) ? line.evidence.filter((e): e is string => typeof e === 'string') : [];
  return {
    ...lineId,
    ...line,
    ...(line.timestamp === undefined ? { timestamp: new Date(now).toISOString() } : {}),
    // An unknown type gets the base of any type too: its error then names the type alone, not a missing confidence.
    ...(line.confidence === undefined
      ? { confidence: baseConfidence({ type: type as ObservationType, evidence }).value }
      : {}),
  };
}

/** The stored form: a missing context is `{}`, missing lists are empty, and a missing id is the content's hash. */
export function toObservationRecord(input: ObservationInput): ObservationRecord {
  const timestamp = parseIsoInstant(input.timestamp) as number;
  const context = {
    ...(input.context?.task === undefined ? {} : { task: input.context.task }),
    ...(input.context?.file === undefined ? {} : { file: input.context.file }),
    ...(input.context?.phase === undefined ? {} : { phase: input.context.phase }),
  };
  // Scrubbed before its id is derived, so not even a hash of a secret is kept.
  const record = scrubValue({
    timestamp,
    type: input.type,
    context,
    observation: input.observation,
    evidence: input.evidence ?? [],
    confidence: input.confidence,
    tags: input.tags ?? [],
  });
  const id = input.id ?? `obs-${createHash('sha256').update(JSON.stringify(record)).digest('hex').slice(0, 16)}`;
  return { id, ...record };
}

/** The seed's line for an observation, context always present. */
export function toObservationLine(o: ObservationRecord): Record<string, unknown> {
  return {
    id: o.id,
    timestamp: new Date(o.timestamp).toISOString(),
    type: o.type,
    context: o.context,
    observation: o.observation,
    evidence: o.evidence,
    confidence: o.confidence,
    tags: o.tags,
  };
}

export async function addObservations(
  store: ObservationStore,
  scope: string,
  inputs: readonly ObservationInput[],
): Promise<InsertReport & { ids: string[] }> {
  const records = inputs.map(toObservationRecord);
  const report = await store.insertObservations(scope, records);
  return { ...report, ids: records.map((r) => r.id) };
}
