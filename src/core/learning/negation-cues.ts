/**
 * @module core/learning/negation-cues
 * The words that negate what follows them (`NEGATIONS`), as word sequences: the contradiction reader's cues
 * (core/learning/contradiction), and words a batch's grouping never reads as context (core/learning/pattern-grouping:
 * "never" said before some statements says the opposite of them, not where they were said). Pure data.
 */

/** Negation cues as word sequences (words as `splitWords` gives them). */
export const NEGATIONS: readonly (readonly string[])[] = [
  ['no', 'longer'],
  // A reproach rejects what it asks about: "why did you commit without the tests?"
  ['why', 'did', 'you'],
  ['why', 'do', 'you'],
  ['why', 'are', 'you'],
  ['turn', 'off'],
  ['turned', 'off'],
  ['turns', 'off'],
  ['switch', 'off'],
  ['switched', 'off'],
  ['don', 't'],
  ['doesn', 't'],
  ['didn', 't'],
  ['won', 't'],
  ['isn', 't'],
  ['aren', 't'],
  ['shouldn', 't'],
  ['not'],
  ['never'],
  ['no'],
  ['without'],
  ['avoid'],
  ['avoids'],
  ['avoided'],
  ['avoiding'],
  ['stop'],
  ['stops'],
  ['stopped'],
  ['stopping'],
  ['quit'],
  ['quits'],
  ['quitting'],
  ['skip'],
  ['skips'],
  ['skipped'],
  ['skipping'],
  ['disable'],
  ['disabled'],
  ['disabling'],
  ['dislike'],
  ['dislikes'],
  ['disliked'],
  ['hate'],
  ['hates'],
  ['reject'],
  ['rejects'],
  ['rejected'],
  ['rejecting'],
];

/** The words that negate alone: the one-word cues and the first word of a contraction ("don" of "don't"). */
export const NEGATION_WORDS: ReadonlySet<string> = new Set(
  NEGATIONS.filter((cue) => cue.length === 1 || (cue.length === 2 && cue[1] === 't')).map((cue) => cue[0] as string),
);
