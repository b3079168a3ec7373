/**
 * @module core/dag/intent-parts
 * Splits a multi-part intent into its parts (SPEC §5: "find flights to London and a hotel there"
 * asks for two things). Each part is searched on its own (at most four: the rest joins the last).
 */
import { contentWords } from '../text/words.js';

/**
 * No `\s*` around the separators: the parts are trimmed anyway, and `\s*` before an alternation
 * read a whole run of blanks again from each of its positions (quadratic, issue 17).
 */
const SEPARATORS =
  /[;,!?]|\.(?=\s|$)|\band then\b|\bthen\b|\band also\b|\balso\b|\bafter that\b|\bafterwards\b|\band\b|\bplus\b/i;

/** The parts of `intent` that carry at least one content word, in order; one part when it does not split. */
export function intentParts(intent: string): string[] {
  const parts = intent
    .split(SEPARATORS)
    .map((p) => p.trim())
    .filter((p) => contentWords(p).length > 0);
  return parts.length === 0 ? [intent.trim()] : parts;
}
