/**
 * @module core/learning/learned-text
 * What an instinct's or skill's file says, as recall shows it: the file without its YAML front matter (its
 * `description` kept when the body does not already say it) and without Credence's section markers.
 */

const MARKER = /^\s*<!--\s*credence:(?:begin|end)\b.*-->\s*$/;
const FRONT_END = /^(?:---|\.\.\.)\s*$/;

/** The readable text of a learned file (`text` as read); a file without front matter or markers is returned as is. */
export function learnedFileText(text: string): string {
  let lines = text.split(/\r?\n/);
  let description: string | undefined;
  if (lines[0]?.trimEnd() === '---') {
    const close = lines.findIndex((line, index) => index > 0 && FRONT_END.test(line));
    if (close > 0) {
      const entry = lines.slice(1, close).find((line) => /^description\s*:/.test(line));
      description = entry
        ?.replace(/^description\s*:\s*/, '')
        .replace(/^(["'])(.*)\1$/, '$2')
        .trim();
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
