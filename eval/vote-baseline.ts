/**
 * @module eval/vote-baseline
 * The baseline learning must beat (issue 19): for a query, the k = 5 past intents nearest by BM25 over
 * their text (its own small Okapi BM25, k1 1.2, b 0.75, lower-case words of two letters or more); a tool
 * or edge of their workflows is proposed when at least ⌈k'/2⌉ of the k' neighbours found used it (at least
 * the most used tool when none has a majority). Tool search ranks tools by how many neighbours used them.
 * Nothing of Credence's own ranking is used.
 */
import type { Sample } from './data.js';
import { truthEdges, truthTools } from './metrics.js';

const words = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]{2,}/g) ?? [];

export interface VoteBaseline {
  /** The proposed tools and `from -> to` edges for a query. */
  dag(query: string): { tools: Set<string>; edges: Set<string> };
  /** Tools ranked by the neighbours' votes (ties: the nearest neighbour first, then by name). */
  rank(query: string): string[];
}

export function voteBaseline(train: readonly Sample[], k = 5): VoteBaseline {
  const docs = train.map((s) => words(s.intent));
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, docs.length);
  const idf = (w: string) => Math.log(1 + (docs.length - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
  const nearest = (query: string): Sample[] => {
    const q = new Set(words(query));
    return docs
      .map((d, i) => {
        let score = 0;
        for (const w of q) {
          const tf = d.filter((x) => x === w).length;
          if (tf > 0) score += (idf(w) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avg));
        }
        return { i, score };
      })
      .filter((x) => x.score > 0)
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, k)
      .map((x) => train[x.i] as Sample);
  };
  const count = (sets: Set<string>[]) => {
    const c = new Map<string, { n: number; first: number }>();
    sets.forEach((set, rank) => {
      for (const x of set) c.set(x, { n: (c.get(x)?.n ?? 0) + 1, first: c.get(x)?.first ?? rank });
    });
    return [...c].sort((a, b) => b[1].n - a[1].n || a[1].first - b[1].first || (a[0] < b[0] ? -1 : 1));
  };
  return {
    dag(query) {
      const near = nearest(query);
      const need = Math.ceil(near.length / 2);
      const tools = count(near.map((s) => truthTools(s)));
      const chosen = new Set(tools.filter(([, v]) => v.n >= need).map(([t]) => t));
      if (chosen.size === 0 && tools[0] !== undefined) chosen.add(tools[0][0]);
      const edges = new Set(
        count(near.map((s) => truthEdges(s)))
          .filter(([e, v]) => v.n >= need && e.split(' -> ').every((t) => chosen.has(t)))
          .map(([e]) => e),
      );
      return { tools: chosen, edges };
    },
    rank: (query) => count(nearest(query).map((s) => truthTools(s))).map(([t]) => t),
  };
}
