import { describe, expect, it } from 'vitest';
import { LifeIndex } from './life-index.js';
import { decideLife, type LifeSubject } from './memory-life.js';

/** A seeded generator (mulberry32): the same subjects every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['store', 'cache', 'deploys', 'host', 'build', 'queue', 'the', 'is', 'on', 'a', 'runs', 'main', 'team'];
// Turns' own words too: slots (live, job), a value in lower case (tennis), a turn's cues and what it left (quit …).
WORDS.push('live', 'job', 'tennis', 'work');
const NAMES = ['Lisbon', 'Denver', 'Postgres', 'MySQL', 'Redis'];
const CUES = ['moved to', 'now', 'no longer', 'instead of', 'left', 'quit tennis', 'joined', 'moved to Lisbon'];

/** Small texts from a small vocabulary: many pairs share words, names, titles, tags, paths or a change cue. */
function subjects(count: number, seed: number): LifeSubject[] {
  const random = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
  const out: LifeSubject[] = [];
  for (let i = 0; i < count; i += 1) {
    const repeat = out.length > 0 && random() < 0.15 ? pick(out) : undefined;
    const own = (): string => `w${Math.floor(random() * 5000)}`;
    const text =
      repeat !== undefined
        ? // The same text written alike, or with one word more (a long one stays a repeat by Jaccard).
          random() < 0.5
          ? `${repeat.text}.`
          : `${repeat.text} ${own()}`
        : random() < 0.2
          ? // Words of its own, many of them, sometimes a cue: only a repeat, a path or a title links it.
            [...Array.from({ length: 8 + Math.floor(random() * 6) }, own), random() < 0.3 ? pick(CUES) : ''].join(' ')
          : Array.from({ length: 2 + Math.floor(random() * 6) }, () =>
              random() < 0.15 ? `in ${pick(NAMES)}` : random() < 0.08 ? pick(CUES) : pick(WORDS),
            ).join(' ');
    const turn = random() < 0.25;
    out.push({
      id: `m${i}`,
      title: turn ? pick(['Ana', 'Bo']) : random() < 0.3 ? `${pick(WORDS)} notes` : `note ${i}`,
      text,
      tags: random() < 0.3 ? [pick(['ops', 'db'])] : [],
      ...(random() < 0.1 ? { path: pick(['a.md', 'b.md']) } : {}),
      ...(turn ? { speaker: pick(['Ana', 'Bo']) } : {}),
      at: Math.floor(random() * 1000),
    });
  }
  return out;
}

describe('LifeIndex (issue 23)', () => {
  it('names a decision exactly when some held memory and the new one get one from decideLife', () => {
    for (const seed of [1, 2, 3]) {
      const all = subjects(400, seed);
      const index = new LifeIndex();
      let decided = 0;
      for (const [i, s] of all.entries()) {
        const expected = all
          .slice(0, i)
          .some((o) => o.id !== s.id && (decideLife(s, o) !== undefined || decideLife(o, s) !== undefined));
        expect(index.anyDecision(s), `${s.id}: ${s.text}`).toBe(expected);
        if (expected) decided += 1;
        index.add(s);
      }
      // Both answers occur: the comparison is not all one way.
      expect(decided).toBeGreaterThan(20);
      expect(decided).toBeLessThan(all.length - 20);
    }
  });

  it('a memory replaced under its id is decided as it is now', () => {
    const index = new LifeIndex();
    const base = { tags: [], at: 0 };
    index.add({ ...base, id: 'a', title: 'Main store', text: 'We use Postgres for the main store' });
    index.add({ ...base, id: 'a', title: 'Queue', text: 'Jobs wait in the build queue' });
    const repeat = { ...base, id: 'b', title: 'x', text: 'We use Postgres for the main store', at: 1 };
    expect(index.anyDecision(repeat)).toBe(false);
    expect(index.anyDecision({ ...repeat, text: 'Jobs wait in the build queue' })).toBe(true);
  });
});
