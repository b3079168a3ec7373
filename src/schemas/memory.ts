/** @module schemas/memory — a memory as `credence remember` takes it. An unknown field is an error that names it. */
import { z } from 'zod';
import { MEMORY_CATEGORIES } from '../core/types.js';

export const MemoryInputSchema = z
  .strictObject({
    id: z.string().trim().min(1).optional(),
    category: z.enum(MEMORY_CATEGORIES, { error: `must be one of ${MEMORY_CATEGORIES.join(', ')}` }).optional(),
    title: z.string().trim().min(1, 'must be a non-empty title'),
    /** Absent with a `path`: the text is read from that file, inside the project root. */
    text: z.string().optional(),
    tags: z.array(z.string().trim().min(1)).optional(),
    path: z.string().trim().min(1).optional(),
  })
  .refine((m) => m.text !== undefined || m.path !== undefined, { message: 'give a text, or a path whose file holds it', path: ['text'] });

export type MemoryInput = z.infer<typeof MemoryInputSchema>;
