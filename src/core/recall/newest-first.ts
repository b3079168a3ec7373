/**
 * @module core/recall/newest-first
 * An ordering in time among a question's top turns, with no marking (issue 23): when one speaker's turns among them
 * state different values of one kind (valueKinds: words filling one frame), the newest of those turns (on or before
 * an as-of date, when asked as of one) takes the best place any of them held; the others keep their order below it.
 * A turn placed first is no claim that the others are stale: none is marked, only ordered. Pure.
 */
import { statesOwnFact, words } from './memory-life.js';
import type { TurnCandidate } from './older-turns.js';
import { statedValues, valuesOfKinds } from './older-turns.js';

/** A turn placed first among the turns of one speaker stating values of one kind. */
export interface NewerValue {
  /** The turn placed first (its key) and the best placed turn of its group, whose place it takes. */
  key: string;
  placeOf: string;
  /** The older turns of the group ranked above it before (ids, best first), and when it was said (ms). */
  before: string[];
  at: number;
  /** The values of the kind it states, and those the turns it goes above state (lower case). */
  values: string[];
  others: string[];
}

/**
 * For `ranked` turns (best first), the turns to place first: of each speaker's turns stating a fact of their own
 * (statesOwnFact; `known`: the names that may be addressed) that state values of one kind of `kinds` (word → kind;
 * `lefts`: the words before each value in the frames that formed its kind, valueKinds),
 * when they state at least two different values, the newest (said at or before `asOf` when given; later ones are
 * left where they are) when another of the group ranks above it. A turn stating two values of a kind ("I swapped
 * pottery for climbing") is one statement of both. Each turn placed first once, for its best placed group.
 */
export function newestOfKind(
  ranked: readonly TurnCandidate[],
  kinds: ReadonlyMap<string, string>,
  options: { asOf?: number; known?: ReadonlySet<string>; lefts?: ReadonlyMap<string, ReadonlySet<string>> } = {},
): NewerValue[] {
  const groups = new Map<string, { c: TurnCandidate; values: string[]; rank: number }[]>();
  ranked.forEach((c, rank) => {
    if (options.asOf !== undefined && c.at > options.asOf) return;
    if (!statesOwnFact(c.text, options.known)) return;
    for (const [kind, values] of valuesOfKinds(c.text, kinds)) {
      const key = `${c.speaker}\n${kind}`;
      const group = groups.get(key);
      if (group === undefined) groups.set(key, [{ c, values, rank }]);
      else group.push({ c, values, rank });
    }
  });
  const out: NewerValue[] = [];
  const placed = new Set<string>();
  const ordered = [...groups.values()].sort((a, b) => (a[0]?.rank ?? 0) - (b[0]?.rank ?? 0));
  for (const group of ordered) {
    const distinct = new Set(group.map((t) => t.values.join(' ')));
    if (distinct.size < 2) continue;
    // The newest turn stating a value as its speaker's own now: a mention, a comparison or a plan is no value held.
    const speakers = options.known ?? new Set<string>();
    const held = group
      .map((t) => ({ t, held: statedValues(t.c.text, t.values, words(t.c.speaker), speakers, options.lefts) }))
      .filter((h) => h.held.length > 0);
    let newest: (typeof held)[number] | undefined;
    for (const h of held) if (newest === undefined || h.t.c.at > newest.t.c.at) newest = h;
    const first = group[0] as (typeof group)[number];
    if (newest === undefined || newest.t === first || placed.has(newest.t.c.key)) continue;
    // It must be the group's last word: a later turn naming a value of the kind, held or not ("Globex has been great
    // so far", "I left Acme for Globex"), may be the later word, and placing an earlier one above it would be a guess.
    const at = newest.t.c.at;
    if (group.some((t) => t.c.at > at)) continue;
    const placedTurn = newest.t;
    const above = group.filter((t) => t.rank < placedTurn.rank);
    // The same values said again are no change ("So done with Acme" after "I work at Acme"): nothing to place.
    const others = [...new Set(above.flatMap((t) => t.values))].filter((v) => !placedTurn.values.includes(v));
    if (others.length === 0) continue;
    placed.add(placedTurn.c.key);
    out.push({
      key: placedTurn.c.key,
      placeOf: first.c.key,
      before: above.map((t) => t.c.id),
      at: placedTurn.c.at,
      values: placedTurn.values,
      others,
    });
  }
  return out;
}

/**
 * The values of the kinds a question asks about, with no word list: the kinds (valueKinds) of the values said in
 * `turns` holding a word of the question's (`asked`: its content words, lower case, not a speaker's name), at most
 * `limit` of them (at most `perKind` of a kind), the kinds held by most turns holding a question word first, then the
 * values most said first. "Which hobby does Elliot have?" and Nadia's "My weekend hobby is pottery" give
 * pottery's kind: rowing, climbing, … Empty when no turn holds a question word beside a value.
 */
export function askedValues(
  asked: readonly string[],
  turns: readonly Pick<TurnCandidate, 'text'>[],
  kinds: ReadonlyMap<string, string>,
  limit: number = NEWEST_FIRST_DEFAULTS.askedValues,
  perKind: number = NEWEST_FIRST_DEFAULTS.perKind,
): string[] {
  const askedSet = new Set(asked);
  // Each kind with the number of turns holding a question word beside one of its values.
  const askedKinds = new Map<string, number>();
  for (const t of turns) {
    const ws = words(t.text);
    if (!ws.some((w) => askedSet.has(w) && !kinds.has(w))) continue;
    const inTurn = new Set(ws.filter((w) => kinds.has(w) && !askedSet.has(w)).map((w) => kinds.get(w) as string));
    for (const kind of inTurn) askedKinds.set(kind, (askedKinds.get(kind) ?? 0) + 1);
  }
  if (askedKinds.size === 0) return [];
  const said = new Map<string, number>();
  for (const t of turns)
    for (const w of words(t.text)) if (askedKinds.has(kinds.get(w) as string)) said.set(w, (said.get(w) ?? 0) + 1);
  const byKind = new Map<string, [string, number][]>();
  for (const entry of said) {
    const kind = kinds.get(entry[0]) as string;
    const list = byKind.get(kind);
    if (list === undefined) byKind.set(kind, [entry]);
    else list.push(entry);
  }
  const order = (a: [string, number], b: [string, number]) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1);
  return [...askedKinds]
    .sort(order)
    .flatMap(([kind]) => (byKind.get(kind) ?? []).sort(order).slice(0, perKind))
    .slice(0, limit)
    .map(([w]) => w);
}

export const NEWEST_FIRST_DEFAULTS = Object.freeze({
  /** The values of the asked kinds searched for (askedValues). */
  askedValues: 24,
  /** … at most this many of one kind, the kinds most often said beside a question word first. */
  perKind: 8,
  /** The named speaker's turns holding them added to a question's candidates. */
  added: 8,
});
