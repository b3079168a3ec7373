/**
 * @module core/experience/task-text
 * What kind of task an intent asks for, as text (issue 19): the names and titles in it — quoted spans and
 * capitalised words that do not start a sentence ("Tom Hanks", "Titanic") — each become the one word
 * `entity`, so "find Tom Hanks's movies" and "list the films of Greta Gerwig" are compared on what is asked
 * about whom, not on who. Acronyms (`TV`, `API`) and lower-case text are kept as they are. Pure.
 */

/** The word a name or title becomes. */
export const ENTITY = 'entity';

const QUOTED = /"[^"\n]{1,200}"|“[^”\n]{1,200}”|«[^»\n]{1,200}»/g;
const CAPITALISED = /^[\p{Lu}][\p{Ll}]/u;
const SENTENCE_END = /[.!?:]$/;

/** `text` with its names and titles replaced by {@link ENTITY}. */
export function taskText(text: string): string {
  const words = text
    .replace(QUOTED, ` ${ENTITY} `)
    .split(/\s+/)
    .filter((w) => w !== '');
  return words
    .map((w, i) => (i > 0 && !SENTENCE_END.test(words[i - 1] as string) && CAPITALISED.test(w) ? ENTITY : w))
    .join(' ');
}
