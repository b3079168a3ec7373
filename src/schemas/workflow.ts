/**
 * @module schemas/workflow
 * The one shape of a workflow written by hand: what `credence dag --validate` checks and MCP's `execute_dag` runs
 * (walk 16: the first took any `arguments`, the second only an object, so a file called valid was refused there).
 * Text fields are bounded by the engine's limits (core/limits), as every MCP input is.
 */
import { z } from 'zod';
import { INPUT_LIMITS, type InputLimitName } from '../core/limits.js';

const text = (limit: InputLimitName) =>
  z.string().max(INPUT_LIMITS[limit], `at most ${INPUT_LIMITS[limit]} characters (the ${limit} limit)`);

/** One task: its id, its tool, the arguments it is called with (an object), the tasks it waits for. */
export const WorkflowTaskSchema = z.strictObject({
  id: text('id').min(1).describe('unique within the workflow; other tasks reference it as "$<id>"'),
  tool: text('toolName').min(1).describe('a catalogue tool id, e.g. filesystem:read_text_file'),
  arguments: z.record(z.string(), z.unknown()).optional(),
  dependsOn: z.array(text('id')).optional(),
});

/** A workflow: at least one task. */
export const WorkflowSchema = z.strictObject({
  tasks: z.array(WorkflowTaskSchema).min(1, 'a workflow needs at least one task'),
});

export type WorkflowTaskInput = z.infer<typeof WorkflowTaskSchema>;
