/**
 * @module schemas/execution
 * The shape `credence record` and `recordExecution()` accept (issue 3): checked at the boundary,
 * with messages that name the bad field. An unknown field (a typo such as `consume`) is an error
 * that names it, so nothing the user meant is dropped in silence.
 */
import { z } from 'zod';
import { parseIsoInstant } from '../core/time.js';
import { isBlankText } from '../core/text/plain-text.js';
import { CALL_STATUSES, INTENTS, type ExecutionInput } from '../core/types.js';

const Instant = z.union([
  z.number().finite(),
  z.string().refine((s) => parseIsoInstant(s) !== undefined, {
    message: 'must be an ISO 8601 date such as 2026-03-01T09:30:00Z',
  }),
]);

export const CallInputSchema = z.strictObject({
  tool: z.string().trim().min(1, 'must be a non-empty tool id'),
  status: z.enum(CALL_STATUSES, { error: `must be one of ${CALL_STATUSES.join(', ')}` }),
  retries: z.number().int('must be a whole number').min(0, 'must not be negative').optional(),
  durationMs: z.number().finite().min(0, 'must not be negative').optional(),
  consumes: z.array(z.number().int('must be a call index').min(0, 'must be a call index')).optional(),
  parent: z.number().int('must be a call index').min(0, 'must be a call index').optional(),
  dependsOn: z.array(z.number().int('must be a call index').min(0, 'must be a call index')).optional(),
  at: Instant.optional(),
  intent: z.enum(INTENTS, { error: `must be one of ${INTENTS.join(', ')}` }).optional(),
  input: z.string().optional(),
  output: z.string().optional(),
});

/**
 * What a run was for, as its caller states it: never blank, nor only invisible characters (isBlankText: recall finds
 * past runs by it, and a blank one names nothing). A source with nothing to say gives its own words (the hooks:
 * "Claude Code session …").
 */
export const IntentText = z
  .string()
  .refine((s) => !isBlankText(s), { message: 'must not be blank: say in words what the run was for' });

/** A number id past 2^53 − 1 is read with other digits (two ids become one): it must be given as text. */
const WHOLE_ID = 'must be text or a whole number from 0 to 2^53 − 1 (a larger one loses digits: give it as text)';

export const ExecutionInputSchema = z
  .strictObject({
    /** A source's own id for the run (the data-set converters write one): recorded once per scope. */
    id: z
      .union(
        [
          z.string().trim().min(1, 'must be a non-empty id'),
          z.number().int(WHOLE_ID).min(0, WHOLE_ID).max(Number.MAX_SAFE_INTEGER, WHOLE_ID),
        ],
        { error: WHOLE_ID },
      )
      .optional(),
    intent: IntentText,
    scope: z.string().trim().min(1).optional(),
    startedAt: Instant.optional(),
    calls: z.array(CallInputSchema),
    summary: z.string().optional(),
    confidence: z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1').optional(),
    intentKind: z.enum(INTENTS, { error: `must be one of ${INTENTS.join(', ')}` }).optional(),
  })
  .superRefine((execution, ctx) => {
    execution.calls.forEach((call, i) => {
      (call.consumes ?? []).forEach((j, k) => {
        if (j >= i) {
          ctx.addIssue({
            code: 'custom',
            path: ['calls', i, 'consumes', k],
            message:
              i === 0
                ? `call 0 cannot consume call ${j}: the first call has no earlier call to consume`
                : `call ${i} cannot consume call ${j}: only earlier calls (0..${i - 1}) can be consumed`,
          });
        }
      });
      (call.dependsOn ?? []).forEach((j, k) => {
        if (j >= i)
          ctx.addIssue({
            code: 'custom',
            path: ['calls', i, 'dependsOn', k],
            message: `call ${i} cannot depend on call ${j}: only earlier calls can`,
          });
      });
      if (call.parent !== undefined && call.parent >= i) {
        ctx.addIssue({
          code: 'custom',
          path: ['calls', i, 'parent'],
          message: `call ${i} cannot be inside call ${call.parent}: a parent comes earlier`,
        });
      }
    });
  });

export type ExecutionInputParsed = z.infer<typeof ExecutionInputSchema>;

// The schema and the plain type describe the same thing.
const _check: ExecutionInput = {} as ExecutionInputParsed;
void _check;
