/**
 * @module core/text/generic-words
 * The words of a sentence that say how something was observed or asked rather than what it is about (kept apart from
 * pattern grouping, which weighs them little, so that the prompt hook's bundle can read them too). Pure.
 */

/**
 * Words that say how something was observed rather than what: who asked, how often, generic verbs
 * and prepositions of observation sentences, how a user corrects ("actually", "please", "wrong", "sorry")
 * and where a team states its habits ("here", "in this repo / project / codebase"). As terms (stemmed)
 * they weigh `genericWeight` (0.25) of a topical word, so that "User wants X before Y" and "User wants
 * Z before W" are not alike for their shared frame, and "this project uses pnpm" is about pnpm.
 */
export const GENERIC_WORDS: readonly string[] = Object.freeze(
  (
    'user users ask asks asked asking want wants wanted request requested requests prefer prefers preferred ' +
    'preference like likes liked correction corrected noted note observed again always every each all also just only ' +
    'still should must need needs needed make makes making use uses using used get gets got set do does did done ' +
    'keep keeps kept new old one two three more less most least much many any some other same before after during ' +
    'under over into onto about above below between through without within instead rather than via per time times ' +
    'way thing things something everything code file files change changes changed work working worked now today ' +
    'yesterday session too very really quite fine ok okay yes not no never don doesn didn isn aren wasn won t s ' +
    'actually please wrong sorry here project repo repository codebase monorepo'
  ).split(' '),
);
