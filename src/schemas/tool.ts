/** @module schemas/tool — a catalogue entry as `credence tools add` takes it. Unknown fields are ignored. */
import { z } from 'zod';

export const ToolInputSchema = z.object({
  id: z.string().trim().min(1, 'must be a non-empty tool id'),
  description: z.string().default(''),
  inputSchema: z.unknown().optional(),
  origin: z.string().optional(),
});

export type ToolInput = z.infer<typeof ToolInputSchema>;
