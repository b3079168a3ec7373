/**
 * @module schemas/observation
 * An observation line, field for field the seed 004 schema (SPEC §6): `timestamp` (ISO 8601) and
 * `type`, `observation`, `confidence` required; `context {task, file, phase}` (a missing context is
 * `{}`), `evidence` and `tags` optional. An optional `id` is accepted. Any other field is an error
 * that names it.
 */
import { z } from 'zod';
import { parseIsoInstant } from '../core/time.js';
import { OBSERVATION_PHASES, OBSERVATION_TYPES } from '../core/types.js';

export const ObservationInputSchema = z.strictObject({
  id: z.string().trim().min(1).optional(),
  timestamp: z.string().refine((s) => parseIsoInstant(s) !== undefined, {
    message: 'must be an ISO 8601 date such as 2026-02-02T06:00:00Z',
  }),
  type: z.enum(OBSERVATION_TYPES, { error: `must be one of ${OBSERVATION_TYPES.join(', ')}` }),
  context: z
    .strictObject({
      task: z.string().optional(),
      file: z.string().optional(),
      phase: z.enum(OBSERVATION_PHASES, { error: `must be one of ${OBSERVATION_PHASES.join(', ')}` }).optional(),
    })
    .optional(),
  observation: z.string().trim().min(1, 'must be a non-empty description'),
  evidence: z.array(z.string()).optional(),
  confidence: z
    .number({ error: 'must be a number between 0 and 1' })
    .min(0, 'must be between 0 and 1')
    .max(1, 'must be between 0 and 1'),
  tags: z.array(z.string()).optional(),
});

export type ObservationInput = z.infer<typeof ObservationInputSchema>;
