/**
 * @module core/learning/surface-words
 * The words a person wrote behind the stemmed terms that matched their wordings (core/learning/pattern-grouping
 * `observationTerms`): the evolve report names what several wordings share as they were written ("variables"),
 * while matching keeps the stems ("variabl"). Pure.
 */
import { splitWords } from '../text/words.js';
import { observationTerms } from './pattern-grouping.js';

/**
 * For each term of `terms`, the word of `texts` it was made from, the one written most often (the first seen on a
 * tie), lower-cased; an identifier is read in its parts ("camelCase" gives "camel" and "case"); a term no word
 * stems to is given the word it begins ("retri": "retries"). A term no word gives (an alias, a negation read as
 * "never") stays as it is.
 */
export function surfaceWords(terms: readonly string[], texts: readonly string[]): string[] {
  const wanted = new Set(terms);
  const seen = new Map<string, Map<string, number>>();
  const count = (term: string, word: string): void => {
    const words = seen.get(term) ?? new Map<string, number>();
    words.set(word, (words.get(word) ?? 0) + 1);
    seen.set(term, words);
  };
  // The term of each distinct word, read once: the wordings of one habit repeat most of their words.
  const termOf = new Map<string, string | undefined>();
  const termOfWord = (word: string): string | undefined => {
    if (!termOf.has(word)) {
      const made = observationTerms(word);
      termOf.set(word, made.length === 1 ? made[0] : undefined);
    }
    return termOf.get(word);
  };
  const written: string[] = [];
  for (const text of texts)
    for (const word of splitWords(text)) {
      written.push(word);
      const term = termOfWord(word);
      if (term !== undefined && wanted.has(term)) count(term, word);
    }
  // A term stemmed without the aliases ("retri" of an identifier's "retries"): the written word it begins.
  for (const term of terms)
    if (!seen.has(term))
      for (const word of written) if (word.startsWith(term) && word.length <= term.length + 4) count(term, word);
  return terms.map((term) => {
    let best: [string, number] | undefined;
    for (const entry of seen.get(term) ?? []) if (best === undefined || entry[1] > best[1]) best = entry;
    return best?.[0] ?? term;
  });
}
