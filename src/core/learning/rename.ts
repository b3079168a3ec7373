/**
 * @module core/learning/rename
 * Renames (issue 21): a text that writes one identifier in two naming cases ("Changed max_retries to maxRetries")
 * states a habit about the case kept, the identifier only its example. Which spelling is kept is read from cues
 * (`keptSpelling`); two spellings with no cue name two layers, not a rename. Pure.
 */

/** The naming case a code identifier is written in, by its name's own word (`snake`, `camel`), or undefined. */
export function caseStyle(word: string): string | undefined {
  if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/.test(word)) return 'snake';
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(word)) return 'screaming snake';
  if (/^[a-z][a-z0-9]*(?:-[a-z0-9]+)+$/.test(word)) return 'kebab';
  if (/^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/.test(word)) return 'camel';
  if (/^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$/.test(word)) return 'pascal';
  return undefined;
}

/** Between two spellings, words that make the first the one kept ("use maxRetries, not max_retries"). */
const KEPT_FIRST = /\b(?:not|instead\s+of|rather\s+than)\b/i;
/** "over" alone between two spellings keeps the first ("prefer maxRetries over max_retries"; not "over to"). */
const OVER_ALONE = /^\W*over\W*$/i;
/** A verb that renames, said in the first spelling's sentence or between the two ("rename / change … to"). */
const RENAME_VERB = /\b(?:renam|chang|convert|switch|turn)\w*\b/i;
/** Between two spellings, the word that makes the second the new one ("rename max_retries to maxRetries"). */
const RENAMED_TO = /\b(?:to|into)\b/i;
/** The end of a sentence part: the rename verb and the first spelling must share one. */
const SENTENCE_END = /[.;:!?](?:\s|$)/g;
/** Right before a rename verb (words, no punctuation), a negation of it ("Don't ever rename user_id to userId"). */
const NEGATED_VERB = /\b(?:don't|dont|don’t|do\s+not|never|not|stop|avoid)(?:\s+[a-z]+){0,2}\s+$/i;
/** Verbs a negation governs a spelling through ("don't use / write / call max_retries"). */
const SPELLING_VERB = '(?:use|using|write|writing|call|calling|name|naming|spell|spelling|type|typing)';
/** Right before a spelling, a negation rejecting it ("don't use max_retries", "stop using", "avoid", "never write"). */
const REJECTED_SPELLING = new RegExp(
  "\\b(?:don't|dont|don’t|do\\s+not|never|avoid|stop)\\s+(?:(?:ever|just|please)\\s+)?" +
    `(?:${SPELLING_VERB}\\s+)?(?:it\\s+)?$`,
  'i',
);
/** Right after the second spelling, words that reject it ("Use max_retries; maxRetries is wrong"). */
const REJECTED_AFTER =
  /^\W*(?:is|was|are)\s+(?:(?:just|simply|clearly)\s+)?(?:wrong|incorrect|not\b|bad\b)|^\W*isn't\b/i;

/** The text from the start of the sentence part holding offset `at` up to `at`. */
function sentenceBefore(text: string, at: number): string {
  let start = 0;
  SENTENCE_END.lastIndex = 0;
  for (let m = SENTENCE_END.exec(text); m !== null && m.index < at; m = SENTENCE_END.exec(text))
    start = m.index + m[0].length;
  return text.slice(start, at);
}

/**
 * Which of two spellings of one identifier a text keeps, or undefined when it states no rename. Cues: a rename verb
 * in the first spelling's sentence part (or between the two) with "to" / "into" between them keeps the second, and
 * keeps the first when that verb is negated ("Don't rename user_id to userId"); "not", "instead of", "rather than"
 * or "over" alone between them keeps the first; a negation right before a spelling ("don't use", "stop using",
 * "avoid", "never write") rejects it; "is wrong" / "is not" right after the second rejects the second. The first
 * cue in that order decides (a negation elsewhere in the text, "No, rename …", is no cue). With no cue
 * two spellings are two names, not a rename ("Keep user_id in the SQL schema and userId in the TypeScript types").
 */
function keptSpelling(
  plain: string,
  first: [number, number],
  second: [number, number],
): 'first' | 'second' | undefined {
  const between = plain.slice(first[1], second[0]);
  const votes: ('first' | 'second')[] = [];
  const around = `${sentenceBefore(plain, first[0])}\n${between}`;
  const verb = RENAMED_TO.test(between) ? around.search(RENAME_VERB) : -1;
  if (verb >= 0) votes.push(NEGATED_VERB.test(around.slice(0, verb)) ? 'first' : 'second');
  if (KEPT_FIRST.test(between) || OVER_ALONE.test(between) || REJECTED_SPELLING.test(between)) votes.push('first');
  if (REJECTED_SPELLING.test(plain.slice(0, first[0]))) votes.push('second');
  if (REJECTED_AFTER.test(plain.slice(second[1]))) votes.push('first');
  return votes[0];
}

/**
 * A rename a text states: one identifier written in two naming cases ("Changed max_retries to maxRetries"). The
 * habit is the case it was changed to, the identifier a detail: returns its terms (`termsOf` the word, read as
 * generic ones) and the words of the case kept, read as the text's own; undefined when the text renames nothing
 * (`keptSpelling`). `plain` is the text as grouping reads it (its file paths removed).
 */
export function renamedIn(
  plain: string,
  termsOf: (word: string) => string[],
): { terms: string[]; cases: string } | undefined {
  const seen = new Map<string, [string, number, number]>();
  const token = /\S+/g;
  for (let match = token.exec(plain); match !== null; match = token.exec(plain)) {
    const word = match[0].replace(/^[^A-Za-z0-9_-]+|[^A-Za-z0-9_-]+$/g, '');
    const style = caseStyle(word);
    if (style === undefined) continue;
    const terms = termsOf(word);
    const key = terms.join(' ');
    const before = seen.get(key);
    const start = match.index + match[0].indexOf(word);
    if (before !== undefined && before[0] !== style) {
      const kept = keptSpelling(plain, [before[1], before[2]], [start, start + word.length]);
      return kept === undefined ? undefined : { terms, cases: kept === 'first' ? before[0] : style };
    }
    seen.set(key, [style, start, start + word.length]);
  }
  return undefined;
}
