/** @module schemas/memory — a memory as `credence remember` takes it. An unknown field is an error that names it. */
import { z } from 'zod';
import { MEMORY_CATEGORY_PATTERN, RESERVED_MEMORY_CATEGORIES } from '../core/types.js';
/** The categories a user starts with; any short lowercase word of their own is accepted too (`runbook`, `bug`). */
export const REMEMBER_CATEGORIES = ['note', 'decision'] as const;

const reserved: readonly string[] = RESERVED_MEMORY_CATEGORIES;

/** A user's category: a short lowercase word, not one of the categories Credence derives itself. */
export const MemoryCategorySchema = z
  .string()
  .regex(MEMORY_CATEGORY_PATTERN, {
    error: (issue) =>
      'must be a short lowercase word (a letter, then letters, digits or -; at most 32), ' +
      `got ${JSON.stringify(issue.input)}`,
  })
  .refine((category) => !reserved.includes(category), {
    error: (issue) =>
      `${JSON.stringify(issue.input)} is reserved for what Credence derives itself (${reserved.join(', ')}): ` +
      'use note, decision or a word of your own',
  });

export const MemoryInputSchema = z
  .strictObject({
    id: z
      .string()
      .trim()
      .min(1)
      .refine((id) => !/^(instinct|skill)-/.test(id), {
        message: 'ids starting with instinct- or skill- belong to evolve',
      })
      .optional(),
    category: MemoryCategorySchema.optional(),
    title: z.string().trim().min(1, 'must be a non-empty title'),
    /** Absent with a `path`: the text is read from that file, inside the project root. */
    text: z.string().optional(),
    tags: z.array(z.string().trim().min(1)).optional(),
    path: z.string().trim().min(1).optional(),
  })
  .refine((m) => m.text !== undefined || m.path !== undefined, {
    message: 'give a text, or a path whose file holds it',
    path: ['text'],
  });

export type MemoryInput = z.infer<typeof MemoryInputSchema>;
