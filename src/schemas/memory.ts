/** @module schemas/memory — a memory as `credence remember` takes it. An unknown field is an error that names it. */
import { z } from 'zod';
import { isBlankText } from '../core/text/plain-text.js';
import { parseIsoInstant } from '../core/time.js';
import { MEMORY_CATEGORY_PATTERN, RESERVED_MEMORY_CATEGORIES } from '../core/types.js';
import { shownValue } from './format.js';
/** The categories a user starts with; any short lowercase word of their own is accepted too (`runbook`, `bug`). */
export const REMEMBER_CATEGORIES = ['note', 'decision'] as const;

const reserved: readonly string[] = RESERVED_MEMORY_CATEGORIES;

/** A user's category: a short lowercase word, not one of the categories Credence derives itself. */
export const MemoryCategorySchema = z
  .string()
  .regex(MEMORY_CATEGORY_PATTERN, {
    error: (issue) =>
      'must be a short lowercase word (a letter, then letters, digits or -; at most 32), ' +
      `got ${shownValue(issue.input)}`,
  })
  .refine((category) => !reserved.includes(category), {
    error: (issue) =>
      `${shownValue(issue.input)} is reserved for what Credence derives itself (${reserved.join(', ')}): ` +
      'use note, decision or a word of your own',
  });

/** A time: an ISO 8601 date (2026-05-01, 2026-05-01T10:00:00Z) or epoch milliseconds. */
const When = z.union([
  z.number().int().min(0),
  z.string().refine((s) => parseIsoInstant(s) !== undefined, {
    error: (issue) => `must be an ISO date (2026-05-01 or 2026-05-01T10:00:00Z), got ${shownValue(issue.input)}`,
  }),
]);

/** Epoch ms of a checked time. */
export const whenMs = (when: number | string): number =>
  typeof when === 'number' ? when : (parseIsoInstant(when) ?? Number.NaN);

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
    /** Absent on a conversation's turn: the speaker is its title. */
    title: z
      .string()
      .trim()
      // One check for '' and '   ' alike (walk 16: a blank title was refused twice over in one message).
      .refine((t) => !isBlankText(t), { message: 'must be a non-empty title (it shows nothing)' })
      .optional(),
    /**
     * Absent with a `path`: the text is read from that file, inside the project root. Never blank: spaces or only
     * characters that show nothing (a zero-width space) would be recalled as an empty line.
     */
    text: z
      .string()
      .refine((t) => !isBlankText(t), { message: 'must not be blank (only spaces or characters that show nothing)' })
      .optional(),
    tags: z.array(z.string().trim().min(1)).optional(),
    path: z.string().trim().min(1).optional(),
    /** Where it came from (a file, a URL, a conversation): kept in the memory's sources, each once. */
    source: z.string().trim().min(1).optional(),
    /** When it became true (an ISO date or epoch ms); default now. */
    validFrom: When.optional(),
    /** When it stopped being true. */
    validTo: When.optional(),
    /** The id of the memory this one replaces (marked superseded, kept and linked). */
    supersedes: z.string().trim().min(1).optional(),
    /** A conversation's turn (issue 23): who spoke, when, in which session, its place there (default: next). */
    speaker: z
      .string()
      .trim()
      .min(1)
      .refine((t) => !isBlankText(t), { message: 'must not be blank' })
      .optional(),
    at: When.optional(),
    session: z.string().trim().min(1).optional(),
    index: z.number().int().min(0).optional(),
  })
  .refine((m) => m.text !== undefined || m.path !== undefined, {
    message: 'give a text, or a path whose file holds it',
    path: ['text'],
  })
  .refine((m) => m.title !== undefined || m.speaker !== undefined, {
    message: 'must be a non-empty title (or, for a turn, a speaker)',
    path: ['title'],
  })
  .refine((m) => m.speaker !== undefined || (m.session === undefined && m.at === undefined && m.index === undefined), {
    message: 'a turn (session, at, index) needs its speaker',
    path: ['speaker'],
  })
  .refine((m) => m.speaker === undefined || m.session !== undefined, {
    message: 'a turn needs its session',
    path: ['session'],
  })
  .refine((m) => !endsBeforeStart(m), {
    error: (issue) => {
      const m = issue.input as Window;
      const [name, from] = m.validFrom === undefined ? ['at', m.at] : ['validFrom', m.validFrom];
      return (
        `${shownValue(m.validTo)} is before ${name} ${shownValue(from)}: ` +
        'a memory stops being true after it became true (give validTo after it, or leave it out)'
      );
    },
    path: ['validTo'],
  });

/** A memory's times as given: when it became true (`validFrom`, else a turn's `at`) and when it stopped. */
type Window = { validFrom?: number | string; validTo?: number | string; at?: number | string };

/** Whether a memory's window is inverted: its `validTo` before it became true (`validFrom`, else a turn's `at`). */
function endsBeforeStart(m: Window): boolean {
  const from = m.validFrom ?? m.at;
  if (m.validTo === undefined || from === undefined) return false;
  return whenMs(m.validTo) < whenMs(from);
}

export type MemoryInput = z.infer<typeof MemoryInputSchema>;

/** A stored memory's life (migration 15) as a dump may carry it: a trust boundary, checked field by field. */
export const MemoryLifeSchema = z.strictObject({
  validFrom: z.number().finite().optional(),
  validTo: z.number().finite().optional(),
  status: z.enum(['superseded', 'conflict']).optional(),
  supersededBy: z.string().optional(),
  supersedes: z.array(z.string()).optional(),
  conflictsWith: z.array(z.string()).optional(),
  why: z.string().optional(),
  seen: z.number().int().min(1).optional(),
  lastSeen: z.number().finite().optional(),
  sources: z.array(z.string()).optional(),
  turn: z.strictObject({ speaker: z.string(), session: z.string(), index: z.number().int().min(0) }).optional(),
});
