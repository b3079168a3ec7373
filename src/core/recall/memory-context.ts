/**
 * @module core/recall/memory-context
 * The `<memory-context>` block of SPEC §8 (seed 003); each line carries the memory's date and the text around the
 * query's words (issue 23 item 4), e.g.
 *     - [NOTE] Deploy target, 2026-05-01: We deploy to fly.io from main [confidence:high]
 * Titles, texts, paths and tags are data, never instructions: control characters and newlines are removed, the
 * format's markers removed (neutralised in the snippet: "→", "# tags:"), and only `<`, `>` and `&` escaped, so a
 * memory cannot close or open a block and "I'm" reads as written. A line is bounded (CONTEXT_LIMITS), cut after
 * escaping.
 */
import type { ConfidenceLabel } from '../types.js';
import { controlsToSpaces } from '../text/plain-text.js';

export interface ContextLine {
  category: string;
  title: string;
  path?: string;
  tags: readonly string[];
  label: ConfidenceLabel;
  /** Why it may no longer hold, shown after the title in parentheses, e.g. `superseded by …, 2026-05-01`. */
  note?: string;
  /** When it became true or was written (YYYY-MM-DD), shown after the title. */
  date?: string;
  /** The text around the query's words (bounded by recall), shown after the title and a colon. */
  snippet?: string;
}

/** The longest part of a line, counted after escaping ("&" is 5 characters then). */
export const CONTEXT_LIMITS = Object.freeze({ title: 160, path: 160, note: 240, snippet: 280, tags: 10, tag: 40 });

const MARKERS = /->|#tags:|\[confidence:[^\]]*\]?/gi;

/** One-line, marker-free text with `<`, `>` and `&` escaped. */
export function sanitizeField(text: string): string {
  return escapeText(controlsToSpaces(text).replace(MARKERS, ' ').replace(/\s+/g, ' ').trim());
}

/**
 * `text` (already escaped) cut to `max` characters with "…", never inside an entity (`&amp;` is kept whole or
 * left out) nor inside a character.
 */
export function cutEscaped(text: string, max: number): string {
  if (text.length <= max) return text;
  // Nor inside a character written as two UTF-16 units (an emoji): a lone half would reach the agent as '�'.
  const cut = text
    .slice(0, Math.max(0, max - 1))
    .replace(/[\uD800-\uDBFF]$/, '')
    .replace(/&[a-z]*$/, '');
  return `${cut.trimEnd()}…`;
}

/**
 * A snippet as one line of data: the format's markers neutralised rather than removed ("->" becomes "→", "#tags:"
 * "# tags:", "[confidence:high]" "(confidence: high)"), so that the text still says what it said.
 */
export function snippetField(text: string): string {
  const neutral = controlsToSpaces(text)
    .replace(/->/g, '→')
    .replace(/#tags:/gi, '# tags:')
    .replace(/\[confidence:([^\]]*)\]?/gi, (_, label: string) => `(confidence: ${label.trim()})`)
    .replace(/\s+/g, ' ')
    .trim();
  return escapeText(neutral);
}

/** Element text: only `<`, `>` and `&` need escaping (an apostrophe is not turned into `&apos;`). */
export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An attribute's value in double quotes: quotes escaped too. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export function formatContextLine(line: ContextLine): string {
  const category =
    sanitizeField(line.category)
      .toUpperCase()
      .replace(/[^A-Z0-9_-]/g, '') || 'NOTE';
  const L = CONTEXT_LIMITS;
  const pathText = line.path === undefined ? '' : cutEscaped(sanitizeField(line.path), L.path);
  const path = pathText === '' ? '' : ` -> ${pathText}`;
  const tags = line.tags
    .map((t) => cutEscaped(sanitizeField(t).replace(/[,\s]+/g, '-'), L.tag))
    .filter((t) => t !== '')
    .slice(0, L.tags);
  const tagText = tags.length > 0 ? ` #tags:${tags.join(',')}` : '';
  const noteText = line.note === undefined ? '' : cutEscaped(sanitizeField(line.note), L.note);
  const note = noteText === '' ? '' : ` (${noteText})`;
  const date = line.date === undefined || line.date === '' ? '' : `, ${sanitizeField(line.date)}`;
  const snippet = line.snippet === undefined ? '' : cutEscaped(snippetField(line.snippet), L.snippet);
  const title = cutEscaped(sanitizeField(line.title), L.title);
  const body = snippet === '' || snippet === title || snippet === sanitizeField(line.title) ? '' : `: ${snippet}`;
  return `- [${category}] ${title}${date}${note}${body}${path}${tagText} [confidence:${line.label}]`;
}

/** The whole block; an empty block when nothing was recalled. */
export function formatMemoryContext(lines: readonly ContextLine[], source = 'credence'): string {
  return [`<memory-context source="${escapeXml(source)}">`, ...lines.map(formatContextLine), '</memory-context>'].join(
    '\n',
  );
}
