/** @module schemas/memory — a memory as `credence remember` takes it. An unknown field is an error that names it. */
import { z } from 'zod';
/** What a user adds by hand; instincts, skills, observations and runs come from their own commands. */
export const REMEMBER_CATEGORIES = ['note', 'decision'] as const;

export const MemoryInputSchema = z
  .strictObject({
    id: z
      .string()
      .trim()
      .min(1)
      .refine((id) => !/^(instinct|skill)-/.test(id), { message: 'ids starting with instinct- or skill- belong to evolve' })
      .optional(),
    category: z.enum(REMEMBER_CATEGORIES, { error: `must be one of ${REMEMBER_CATEGORIES.join(', ')} (instincts and skills come from credence evolve)` }).optional(),
    title: z.string().trim().min(1, 'must be a non-empty title'),
    /** Absent with a `path`: the text is read from that file, inside the project root. */
    text: z.string().optional(),
    tags: z.array(z.string().trim().min(1)).optional(),
    path: z.string().trim().min(1).optional(),
  })
  .refine((m) => m.text !== undefined || m.path !== undefined, { message: 'give a text, or a path whose file holds it', path: ['text'] });

export type MemoryInput = z.infer<typeof MemoryInputSchema>;
