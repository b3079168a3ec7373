/**
 * @module core/recall/memory-context
 * The `<memory-context>` block of SPEC §8 (seed 003), e.g.
 *     <memory-context source="credence">
 *     - [DECISION] JWT token refresh flow -> path #tags:auth,jwt [confidence:high]
 *     </memory-context>
 * Titles, paths and tags are data, never instructions: control characters, the format's markers and
 * newlines are removed, and everything is XML-escaped so a memory cannot close or open a block.
 */
import type { ConfidenceLabel } from '../types.js';

export interface ContextLine {
  category: string;
  title: string;
  path?: string;
  tags: readonly string[];
  label: ConfidenceLabel;
  /** Why it may no longer hold, shown after the title in parentheses, e.g. `superseded by …, 2026-05-01`. */
  note?: string;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
const MARKERS = /->|#tags:|\[confidence:[^\]]*\]?/gi;

/** One-line, marker-free, XML-escaped text. */
export function sanitizeField(text: string): string {
  return escapeXml(text.replace(CONTROL, ' ').replace(MARKERS, ' ').replace(/\s+/g, ' ').trim());
}

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
  const path = line.path === undefined || line.path === '' ? '' : ` -> ${sanitizeField(line.path)}`;
  const tags = line.tags.map((t) => sanitizeField(t).replace(/[,\s]+/g, '-')).filter((t) => t !== '');
  const tagText = tags.length > 0 ? ` #tags:${tags.join(',')}` : '';
  const note = line.note === undefined || line.note === '' ? '' : ` (${sanitizeField(line.note)})`;
  return `- [${category}] ${sanitizeField(line.title)}${note}${path}${tagText} [confidence:${line.label}]`;
}

/** The whole block; an empty block when nothing was recalled. */
export function formatMemoryContext(lines: readonly ContextLine[], source = 'credence'): string {
  return [`<memory-context source="${escapeXml(source)}">`, ...lines.map(formatContextLine), '</memory-context>'].join(
    '\n',
  );
}
