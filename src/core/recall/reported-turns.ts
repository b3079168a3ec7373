/**
 * @module core/recall/reported-turns
 * Turns that tell a named speaker's fact in another's words (issue 23): "Quick gossip: Greta signed with
 * Veritas Freight. Parallax must be gutted.", said by Lucia, is about Greta when Greta named Parallax in a turn of
 * hers. No word list: the tie is the conversation itself, a name the speaker said in their own words. Not a report:
 * a question, a turn addressed to or replying to the speaker, one in the first or second person, one naming two
 * speakers, or one naming only what the speaker said already (no news). A speaker's own turn telling another's fact
 * is the other's. Pure.
 */
import { addressee, knownNames, namesIn, words } from './memory-life.js';

export interface ReportCandidate {
  key: string;
  speaker: string;
  text: string;
}

export interface ReportedTurn {
  /** The named speaker it tells about. */
  about: string;
  /** The names it shares with that speaker's own turns (lower case). */
  shared: string[];
  /** Its text read as the speaker's own words: their name taken out ("Greta signed with X" → "signed with X"). */
  asOwn: string;
}

/**
 * For each candidate that names exactly one speaker of the candidates besides its own, in the third person (not
 * addressing them, not a question, not right after a turn of theirs: `before` gives the speaker of the turn just
 * before a candidate in its session, where read), and shares a name with a statement of that speaker's among the
 * candidates (not a question, not addressed, naming no other speaker) that the teller says in none of theirs, and a
 * name besides that the speaker did not say there (news of them): whom it is about and how.
 */
export function reportedTurns(
  candidates: readonly ReportCandidate[],
  before: ReadonlyMap<string, string>,
): Map<string, ReportedTurn> {
  const out = new Map<string, ReportedTurn>();
  const known = knownNames(candidates.map((c) => c.text));
  const all = [...new Set(candidates.map((c) => c.speaker))];
  const speakers = new Set(all.flatMap(words));
  const addressable = new Set([...known, ...speakers]);
  const namesOf = (text: string) => new Set([...namesIn(text, known)].filter((n) => !speakers.has(n)));
  const othersNamed = (c: ReportCandidate) => {
    const ws = new Set(words(c.text));
    return all.filter((n) => n !== c.speaker && words(n).every((w) => ws.has(w)));
  };
  // The names each speaker said in their own statements (not a question, not addressed, naming no other speaker).
  const said = new Map<string, Set<string>>();
  for (const c of candidates) {
    if (c.text.trim().endsWith('?') || addressee(c.text, addressable) !== undefined) continue;
    if (othersNamed(c).length > 0) continue;
    const set = said.get(c.speaker) ?? new Set<string>();
    for (const n of namesOf(c.text)) set.add(n);
    said.set(c.speaker, set);
  }
  for (const c of candidates) {
    if (c.text.trim().endsWith('?')) continue;
    // A speaker saying "I" or "me" speaks of themselves ("I joined the X club with Maya", "Maya told me X is good"),
    // one saying "you" speaks to someone ("Maya you're in Zed too?").
    if (words(c.text).some((w) => FIRST_PERSON.has(w) || SECOND_PERSON.has(w))) continue;
    const about = othersNamed(c);
    if (about.length !== 1) continue;
    const who = about[0] as string;
    if (before.get(c.key) === who || addressee(c.text, addressable) !== undefined) continue;
    // Names of the other's, not names the teller says of their own ("Ines would not stop talking about Ghent; still on
    // Montreal here", Montreal the teller's).
    const names = [...namesOf(c.text)];
    const shared = names.filter((n) => said.get(who)?.has(n) === true && !said.get(c.speaker)?.has(n));
    // News: besides a name of theirs, one they have not said ("Greta signed with Veritas Freight. Parallax must be
    // gutted."); only their own names again tell nothing new of them ("Ines would not stop talking about Xcode").
    if (shared.length === 0 || names.every((n) => said.get(who)?.has(n) === true)) continue;
    out.set(c.key, { about: who, shared: shared.sort(), asOwn: withoutName(c.text, who) });
  }
  return out;
}

/** The words of the first person (words() splits "I'm" into "i", "m"). */
const FIRST_PERSON = new Set(['i', 'me', 'my', 'mine', 'we', 'us', 'our', 'ours']);
/** The words of the second person. */
const SECOND_PERSON = new Set(['you', 'your', 'yours']);

/** `text` with `name` (and its possessive) taken out, the spaces around it made one. */
function withoutName(text: string, name: string): string {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return text
    .replace(new RegExp(`\\b${escaped}(?:['’]s)?\\b[,!]?`, 'gu'), ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
