/**
 * @module core/learning/skill-name
 * The name a new skill is given (issue 21): what Claude Code shows as `/name`, so what the rule prefers, in a few
 * words, rather than the whole correction ("No, don't use snake_case … we always use camelCase" → `camelcase-repo`,
 * not `no-don-t-use-snake-case-…-0d7876d6`). The contradiction reader (`assertionOf`) splits the rule into what it
 * prefers and what it rejects; the name keeps, in the rule's order, the words of the preferred part that are not
 * generic (who asked, how often, "use", "always"), at most `maxWords`. A rule that prefers nothing nameable falls
 * back to its topical words, then to `slugify` of the whole text. A rename is named after the case it keeps
 * ("Changed api_client to apiClient" → `camel-case`). Pure; the same text always gives the same name.
 */
import { assertionOf, OPPOSITE_CONVENTIONS } from './contradiction.js';
import { GENERIC_TERMS, observationTerms, renamedCaseOf, stemWord, withoutMarkers } from './pattern-grouping.js';
import { isValidSkillName, slugify } from './slug.js';

export const SKILL_NAME_DEFAULTS = Object.freeze({
  /** Most words a name keeps. */
  maxWords: 4,
  /** Longest name made from words (longer ones lose their last words). */
  maxLength: 40,
});

/** Stem of a convention word → [family, alternative] (as the contradiction reader reads them). */
const FAMILY_WORDS = new Map<string, [string, string]>(
  OPPOSITE_CONVENTIONS.flatMap((family) =>
    Object.entries(family.alternatives).flatMap(([alternative, words]) =>
      words.map((word) => [stemWord(word.toLowerCase()), [family.name, alternative]] as [string, [string, string]]),
    ),
  ),
);

/** The whitespace-separated tokens of `text`, without the punctuation around them. */
function tokens(text: string): string[] {
  return withoutMarkers(text)
    .split(/\s+/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((t) => t !== '');
}

/** The name of a skill whose rule is `text`: short words of what it prefers (see the module header). */
export function skillName(text: string, fallback = 'skill'): string {
  // A rename ("Changed max_retries to maxRetries") is about the case it keeps, the identifier only its example.
  const renamed = renamedCaseOf(text);
  if (renamed !== undefined) return slugify(`${renamed} case`);
  const assertion = assertionOf(text);
  const preferred = new Set(assertion.preferredTerms);
  const pick = (keep: (terms: readonly string[]) => boolean): string[] => {
    const seen = new Set<string>();
    const words: string[] = [];
    for (const token of tokens(text)) {
      const terms = observationTerms(token).filter((t) => !GENERIC_TERMS.has(t));
      if (terms.length === 0 || !keep(terms)) continue;
      const key = terms.map((t) => FAMILY_WORDS.get(t)?.join('/') ?? t).join(' ');
      if (seen.has(key)) continue;
      seen.add(key);
      const slug = slugify(token);
      if (!isValidSkillName(slug) || slug.length > SKILL_NAME_DEFAULTS.maxLength) continue;
      words.push(slug);
    }
    return words;
  };
  // A convention word counts for the alternative the rule favours; other words for the part they stand in.
  const favoured = (t: string) => {
    const family = FAMILY_WORDS.get(t);
    return family !== undefined && assertion.favoured.get(family[0])?.has(family[1]) === true;
  };
  const rejectedFamily = (t: string) => {
    const family = FAMILY_WORDS.get(t);
    return family !== undefined && assertion.rejected.get(family[0])?.has(family[1]) === true;
  };
  // A word said on both sides ("named exports, no default exports") is the rule's topic: it stays.
  let words = pick(
    (terms) =>
      !terms.some(rejectedFamily) &&
      terms.some((t) => favoured(t) || (preferred.has(t) && FAMILY_WORDS.get(t) === undefined)),
  );
  if (words.length === 0) words = pick((terms) => !terms.some(rejectedFamily));
  const kept: string[] = [];
  for (const word of words.slice(0, SKILL_NAME_DEFAULTS.maxWords)) {
    if ([...kept, word].join('-').length > SKILL_NAME_DEFAULTS.maxLength) break;
    kept.push(word);
  }
  const name = kept.join('-');
  return isValidSkillName(name) ? name : slugify(text, { fallback });
}
