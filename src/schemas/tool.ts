/**
 * @module schemas/tool — a catalogue entry as `credence tools add` takes it. An unknown field is an error that names
 * it.
 */
import { z } from 'zod';

export const ToolInputSchema = z.strictObject({
  id: z.string().trim().min(1, 'must be a non-empty tool id'),
  /** Absent on a re-add: the stored description is kept. */
  description: z.string().optional(),
  inputSchema: z.unknown().optional(),
  origin: z.string().optional(),
  /** MCP tool annotations (readOnlyHint, destructiveHint, …) as the tool's server declared them. */
  annotations: z.record(z.string(), z.unknown()).optional(),
});

export type ToolInput = z.infer<typeof ToolInputSchema>;
