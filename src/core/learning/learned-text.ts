/**
 * @module core/learning/learned-text
 * What an instinct's or skill's file says, as recall shows it: the file without its YAML front matter (its
 * `description` kept when the body does not already say it) and without Credence's section markers.
 */
import { withoutBom } from '../text/plain-text.js';

const MARKER = /^\s*<!--\s*credence:(?:begin|end)\b.*-->\s*$/;
const FRONT_END = /^(?:---|\.\.\.)\s*$/;

/** The readable text of a learned file (`text` as read); a file without front matter or markers is returned as is. */
export function learnedFileText(text: string): string {
  let lines = withoutBom(text).split(/\r?\n/);
  let description: string | undefined;
  if (lines[0]?.trimEnd() === '---') {
    const close = lines.findIndex((line, index) => index > 0 && FRONT_END.test(line));
    if (close > 0) {
      description = descriptionOf(lines.slice(1, close));
      lines = lines.slice(close + 1);
    }
  }
  const body = lines
    .filter((line) => !MARKER.test(line))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return description === undefined || description === '' || body.includes(description)
    ? body
    : `${description}\n\n${body}`;
}

/** The front matter's `description`: a one-line value (quotes taken off) or a block (`>` folded, `|` kept). */
function descriptionOf(front: readonly string[]): string | undefined {
  const at = front.findIndex((line) => /^description\s*:/.test(line));
  if (at < 0) return undefined;
  const value = (front[at] as string).replace(/^description\s*:\s*/, '').trim();
  const block = /^([>|])[-+]?$/.exec(value);
  if (block === null) return value.replace(/^(["'])(.*)\1$/, '$2').replace(/\\"/g, '"');
  const rest = front.slice(at + 1);
  const end = rest.findIndex((line) => line.trim() !== '' && !/^\s/.test(line));
  const body = (end < 0 ? rest : rest.slice(0, end)).map((line) => line.trim());
  return body.join(block[1] === '>' ? ' ' : '\n').trim();
}
