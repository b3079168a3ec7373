/**
 * @module core/recall/older-turns
 * Which of a question's top turns are likely an older version of a later turn (issue 23), read at recall time with no
 * word list of changes or slots: two turns of one speaker, each stating a fact of their own, where the later names a
 * name the earlier names and a name of its own ("I left Kestrel Insurance and joined Pinecrest Health" after "I work
 * at Kestrel Insurance"); naming only the earlier's names restates it. A question naming the later one's own name
 * already knows it ("before Pinecrest Health?"): that pair is left. The store is not touched. Pure.
 */
import { namesIn, norm, statesOwnFact, words } from './memory-life.js';

export const OLDER_TURN_DEFAULTS = Object.freeze({
  /** The top results whose turns may be marked older (a later version may come from anywhere in the pool). */
  window: 10,
});

export interface TurnCandidate {
  key: string;
  id: string;
  speaker: string;
  /** When it was said (ms). */
  at: number;
  text: string;
}

export interface OlderTurn {
  /** The later turn (its key and id) that likely holds now. */
  newerKey: string;
  newerId: string;
  /** The names both turns name, and those only the later one names (lower case). */
  shared: string[];
  own: string[];
  why: string;
}

/**
 * For each candidate of `top` (keys) likely an older version of a later candidate of the same speaker, that later
 * one (the latest such) and why. `candidates`: the question's turns, best first; `question`: as asked.
 */
export function olderTurns(
  candidates: readonly TurnCandidate[],
  top: ReadonlySet<string>,
  question: string,
): Map<string, OlderTurn> {
  const own = candidates.filter((c) => statesOwnFact(c.text)).map((c) => ({ c, names: namesIn(c.text) }));
  const asked = new Set(words(question));
  const out = new Map<string, OlderTurn>();
  for (const older of own) {
    if (!top.has(older.c.key) || older.names.size === 0) continue;
    let best: { c: TurnCandidate; shared: string[]; own: string[] } | undefined;
    for (const newer of own) {
      if (newer.c.speaker !== older.c.speaker || newer.c.at <= older.c.at) continue;
      if (norm(newer.c.text) === norm(older.c.text)) continue;
      const shared = [...newer.names].filter((n) => older.names.has(n));
      const ownNames = [...newer.names].filter((n) => !older.names.has(n));
      if (shared.length === 0 || ownNames.length === 0 || ownNames.some((n) => asked.has(n))) continue;
      if (best === undefined || newer.c.at > best.c.at) best = { c: newer.c, shared, own: ownNames };
    }
    if (best !== undefined)
      out.set(older.c.key, {
        newerKey: best.c.key,
        newerId: best.c.id,
        shared: best.shared.sort(),
        own: best.own.sort(),
        why:
          `likely an older version: ${best.c.id}, said later by ${older.c.speaker}, names ` +
          `${best.shared.join(', ')} too and ${best.own.join(', ')} besides`,
      });
  }
  return out;
}

/** Words of a question asking for several answers (asksForSeveral). */
const SEVERAL = new RegExp(
  '\\b(all|every|each|list|ever|ones|kinds?|sorts?|types?|' +
    '(?:say|said|says|mention(?:ed|s)?|talk(?:ed|s)?) about)\\b',
  'i',
);

/**
 * A question whose answer is several turns at once, none replacing another: a list ("all", "every", "list",
 * "which ones"), what someone said or mentioned about something, what ever held. Its turns are not ordered in time.
 */
export function asksForSeveral(question: string): boolean {
  return SEVERAL.test(question);
}
