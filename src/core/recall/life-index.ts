/**
 * @module core/recall/life-index
 * Which memories a new one could repeat, replace or disagree with, found in memory (issue 23): a term index of a
 * scope's memories (title, path, text written alike, names, content words, words) that names every memory
 * `decideLife` could give a decision with, and a few more. When it names none, the full-text search for the new
 * memory's candidates could return none that matter, and remembering skips it: the same decisions, without a search
 * a memory (most of a batch's cost). Pure.
 */
import {
  changeCue,
  contentWords,
  decideLife,
  leftValues,
  type LifeSubject,
  MEMORY_LIFE_LIMITS,
  namesIn,
  norm,
  slotsOf,
  words,
} from './memory-life.js';

const LIMITS = MEMORY_LIFE_LIMITS;

/** Adds `id` under `key` (arrays, not sets: ~100k memories' keys in a third of the memory; a repeat is harmless). */
const add = (index: Map<string, string[]>, key: string, id: string): void => {
  const ids = index.get(key);
  if (ids === undefined) index.set(key, [id]);
  else if (ids[ids.length - 1] !== id) ids.push(id);
};

/** The content words sameSubject compares: a turn's text only, else its title and text. */
const subjectWords = (s: LifeSubject): Set<string> =>
  contentWords(`${s.speaker === undefined ? s.title : ''} ${s.text}`);

/** What the index keeps of a memory: itself, its content words' count, its tags, whether it says a change cue. */
interface Held {
  subject: LifeSubject;
  content: number;
  /** How many words its text has (a repeat by Jaccard has nearly as many). */
  words: number;
  cue: boolean;
}

/** A change cue where decideLife looks for one in the newer memory: its text, else a note's title. */
const hasCue = (s: LifeSubject): boolean =>
  changeCue(s.text, s.speaker !== undefined) !== undefined ||
  (s.speaker === undefined && changeCue(s.title) !== undefined);
/** A turn's slots (core/recall/memory-life LIFE_SLOTS) as index keys: its speaker's. */
const slotKeys = (s: LifeSubject): string[] =>
  s.speaker === undefined ? [] : [...slotsOf(s.text, true)].map((slot) => `${s.speaker}\n${slot}`);

export class LifeIndex {
  readonly #held = new Map<string, Held>();
  readonly #byTitle = new Map<string, string[]>();
  readonly #byPath = new Map<string, string[]>();
  readonly #byText = new Map<string, string[]>();
  readonly #byName = new Map<string, string[]>();
  readonly #byContent = new Map<string, string[]>();
  /** Names and content words of the memories that say a change cue only (a new one without a cue needs no other). */
  readonly #byNameCue = new Map<string, string[]>();
  readonly #byContentCue = new Map<string, string[]>();
  readonly #byWord = new Map<string, string[]>();
  /** Turns by their speaker's slots, and the turns with a cue by the values they say they left. */
  readonly #bySlot = new Map<string, string[]>();
  readonly #byLeft = new Map<string, string[]>();

  /** Adds a memory, or replaces what it is (the keys it had stay: they only name it once more). */
  add(subject: LifeSubject): void {
    const { id } = subject;
    const content = subjectWords(subject);
    const cue = hasCue(subject);
    const all = new Set(words(subject.text));
    this.#held.set(id, { subject, content: content.size, words: all.size, cue });
    const title = norm(subject.title);
    if (subject.speaker === undefined && title !== '') add(this.#byTitle, title, id);
    if (subject.path !== undefined) add(this.#byPath, subject.path, id);
    const text = norm(subject.text);
    if (text !== '') add(this.#byText, text, id);
    for (const name of namesIn(subject.text)) add(cue ? this.#byNameCue : this.#byName, name, id);
    for (const w of content) add(cue ? this.#byContentCue : this.#byContent, w, id);
    for (const w of all) add(this.#byWord, w, id);
    for (const key of slotKeys(subject)) add(this.#bySlot, key, id);
    if (cue && subject.speaker !== undefined) for (const w of leftValues(subject.text)) add(this.#byLeft, w, id);
  }

  /**
   * Whether some memory held (not `subject` itself) and `subject` get a decision, either as the newer. Every memory
   * such a decision needs is among those looked at: the same title, path or text; a repeat by words (Jaccard ≥ 0.9
   * keeps all but a tenth of the words: one of the new memory's rarest tenth and one more); and, when either says a
   * change cue (without one, only a repeat or the same title decides), a name both hold or two content words in
   * common with half of the smaller's or a shared tag (the same subject by words or by a tag).
   */
  anyDecision(subject: LifeSubject): boolean {
    const seen = new Set<string>([subject.id]);
    const decides = (id: string): boolean => {
      if (seen.has(id)) return false;
      seen.add(id);
      const other = (this.#held.get(id) as Held).subject;
      return decideLife(subject, other) !== undefined || decideLife(other, subject) !== undefined;
    };
    const anyOf = (ids: Iterable<string> | undefined): boolean => {
      for (const id of ids ?? []) if (decides(id)) return true;
      return false;
    };
    if (subject.speaker === undefined && anyOf(this.#byTitle.get(norm(subject.title)))) return true;
    if (subject.path !== undefined && anyOf(this.#byPath.get(subject.path))) return true;
    if (anyOf(this.#byText.get(norm(subject.text)))) return true;
    const all = [...new Set(words(subject.text))];
    if (subject.speaker === undefined && all.length >= 3) {
      const rarest = all
        .map((w) => ({ w, n: this.#byWord.get(w)?.length ?? 0 }))
        .sort((a, b) => a.n - b.n)
        .slice(0, Math.floor(all.length / 10) + 1);
      // Jaccard ≥ 0.9: the smaller has at least 0.9 of the larger's words (any other decision is found below).
      const alike = (id: string): boolean => {
        const n = (this.#held.get(id) as Held).words;
        return Math.min(n, all.length) >= LIMITS.duplicate * Math.max(n, all.length) - 1e-9 && decides(id);
      };
      for (const { w } of rarest) for (const id of this.#byWord.get(w) ?? []) if (alike(id)) return true;
    }
    const cue = hasCue(subject);
    const changes = (id: string): boolean => {
      const held = this.#held.get(id) as Held;
      return (cue || held.cue) && held.subject.speaker === subject.speaker;
    };
    const indexes = cue ? [this.#byNameCue, this.#byName] : [this.#byNameCue];
    for (const name of namesIn(subject.text))
      for (const byName of indexes)
        for (const id of byName.get(name) ?? []) if (changes(id) && decides(id)) return true;
    const content = subjectWords(subject);
    if (subject.speaker !== undefined) {
      // A turn: the same speaker's turns of a slot it names, the value it left, or that left one of its words.
      for (const key of slotKeys(subject))
        for (const id of this.#bySlot.get(key) ?? []) if (changes(id) && decides(id)) return true;
      if (cue)
        for (const w of leftValues(subject.text))
          for (const byContent of [this.#byContentCue, this.#byContent])
            for (const id of byContent.get(w) ?? []) if (changes(id) && decides(id)) return true;
      for (const w of content) for (const id of this.#byLeft.get(w) ?? []) if (changes(id) && decides(id)) return true;
    }
    const shared = new Map<string, number>();
    for (const byContent of cue ? [this.#byContentCue, this.#byContent] : [this.#byContentCue])
      for (const w of content) for (const id of byContent.get(w) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
    for (const [id, n] of shared) {
      if (n < LIMITS.minShared || !changes(id)) continue;
      const held = this.#held.get(id) as Held;
      const byWords = n >= LIMITS.wordShare * Math.min(content.size, held.content);
      const byTag = subject.speaker === undefined && subject.tags.some((t) => held.subject.tags.includes(t));
      if ((byWords || byTag) && decides(id)) return true;
    }
    return false;
  }
}
