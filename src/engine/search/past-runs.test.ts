import { describe, expect, it } from 'vitest';
import type { CallRecord, ExecutionRecord } from '../../store/types.js';
import { PAIR_TOOLS, PastRuns } from './past-runs.js';

const WORDS = ['invoice', 'image', 'email', 'report', 'fetch', 'parse', 'send', 'resize', 'store', 'translate'];

function generator(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random execution: a few calls (sometimes more than PAIR_TOOLS tools), now and then none or no intent. */
function execution(rng: () => number, id: string): ExecutionRecord {
  const size = rng() < 0.1 ? PAIR_TOOLS + 3 : 1 + Math.floor(rng() * 5);
  const calls: CallRecord[] = Array.from({ length: rng() < 0.05 ? 0 : size }, (_, i) => ({
    tool: `tool_${Math.floor(rng() * (size > PAIR_TOOLS ? 20 : 8))}`,
    status: rng() < 0.9 ? 'success' : 'failure',
    retries: 0,
    consumes: i > 0 && rng() < 0.7 ? [Math.floor(rng() * i)] : [],
  }));
  const words = Array.from({ length: 2 + Math.floor(rng() * 4) }, () => WORDS[Math.floor(rng() * WORDS.length)]);
  return {
    id,
    intent: rng() < 0.05 ? ' ' : words.join(' '),
    // Few distinct instants: ties by id decide the order often.
    startedAt: 1000 + Math.floor(rng() * 6),
    calls,
  };
}

/** The store's order: newest first, then by id. */
const storeOrder = (xs: Iterable<ExecutionRecord>): ExecutionRecord[] =>
  [...xs].sort((a, b) => b.startedAt - a.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** Everything the memory of runs reads, comparable as plain data. */
function readings(runs: PastRuns, queries: readonly string[]) {
  return {
    runs: runs.runs.map((r) => r.id),
    positions: runs.runs.map((r) => runs.positionOf(r.id)),
    pairs: [...runs.pairEntries()]
      .map(([from, to, count]) => [`${from}>${to}`, { ...count }] as const)
      .sort((a, b) => (a[0] < b[0] ? -1 : 1)),
    hits: queries.map((q) => runs.searchIntents(q, 5)),
    skipped: queries.map((q) => runs.searchIntents(q, 5, 0)),
  };
}

describe('past runs kept across writes (issue 20)', () => {
  it('after any sequence of recorded, changed and deleted runs, read as runs built from the executions held', () => {
    for (const seed of [1, 2, 3]) {
      const rng = generator(seed);
      const held = new Map<string, ExecutionRecord>();
      for (let i = 0; i < 30; i += 1) held.set(`r${i}`, execution(rng, `r${i}`));
      let kept = new PastRuns(storeOrder(held.values()));
      let next = 30;
      for (let step = 0; step < 60; step += 1) {
        const changed: ExecutionRecord[] = [];
        const removed: string[] = [];
        for (let k = 0; k < 1 + Math.floor(rng() * 3); k += 1) {
          const ids = [...held.keys()];
          const roll = rng();
          if (roll < 0.4 || ids.length === 0) {
            const id = `r${(next += 1)}`;
            changed.push(execution(rng, id));
          } else if (roll < 0.75) {
            // Calls appended to a run (its intent and start kept), or the run rewritten.
            const id = ids[Math.floor(rng() * ids.length)] as string;
            const before = held.get(id) as ExecutionRecord;
            const more = execution(rng, id);
            changed.push(rng() < 0.5 ? { ...before, calls: [...before.calls, ...more.calls] } : more);
          } else removed.push(ids[Math.floor(rng() * ids.length)] as string);
        }
        for (const x of changed) held.set(x.id, x);
        for (const id of removed) held.delete(id);
        kept.apply(
          changed.filter((x) => held.get(x.id) === x),
          removed,
        );
        const queries = [0, 1, 2].map(() => `${WORDS[Math.floor(rng() * 10)]} ${WORDS[Math.floor(rng() * 10)]}`);
        const rebuilt = readings(new PastRuns(storeOrder(held.values())), queries);
        expect(readings(kept, queries)).toEqual(rebuilt);
        // Now and then a new process: the next writes are applied to runs read back, not made yet.
        if (rng() < 0.3) kept = PastRuns.decode(kept.encode()) as PastRuns;
        // Read back from its bytes (as a new process reads them), before and after it is brought up to date.
        if (step % 10 === 0) {
          const back = PastRuns.decode(kept.encode()) as PastRuns;
          expect(lazyReadings(back, queries)).toEqual(lazyReadings(kept, queries));
          expect(readings(back, queries)).toEqual(rebuilt);
          const more = execution(rng, `r${(next += 1)}`);
          held.set(more.id, more);
          kept.apply([more], []);
          back.apply([more], []);
          expect(readings(back, queries)).toEqual(readings(new PastRuns(storeOrder(held.values())), queries));
        }
      }
    }
  });

  it('read back from bytes, a run decodes only when read and answers as the runs it was written from', () => {
    const rng = generator(7);
    const runs = new PastRuns(storeOrder(Array.from({ length: 40 }, (_, i) => execution(rng, `r${i}`))));
    const back = PastRuns.decode(runs.encode()) as PastRuns;
    expect(back.size).toBe(runs.size);
    for (let i = 0; i < runs.size; i += 1) expect(back.run(i)).toEqual(runs.run(i));
    // Bytes that do not start at a multiple of 8 (a driver's buffer) read back the same.
    const bytes = runs.encode();
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    const moved = PastRuns.decode(shifted.subarray(3)) as PastRuns;
    expect(moved.runs).toEqual(runs.runs);
    expect(moved.searchIntents('invoice email', 5)).toEqual(runs.searchIntents('invoice email', 5));
    // Ids and intents with quotes, newlines, accents and astral characters; an id that begins another.
    const odd = ['r1', 'r10', 'a"b\nc', 'é🙂', '\\'].map(
      (id, i): ExecutionRecord => ({
        ...execution(rng, id),
        intent: `${id} email\n"report" ${i}`,
        calls: [{ tool: `t${id}`, status: 'success', retries: 0, consumes: [] }],
      }),
    );
    const oddRuns = new PastRuns(storeOrder(odd));
    const oddBack = PastRuns.decode(oddRuns.encode()) as PastRuns;
    expect(odd.map((x) => oddBack.positionOf(x.id))).toEqual(odd.map((x) => oddRuns.positionOf(x.id)));
    expect([oddBack.positionOf('r'), oddBack.positionOf('a"b')]).toEqual([undefined, undefined]);
    expect(oddBack.runs).toEqual(oddRuns.runs);
    expect(PastRuns.decode(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toBeUndefined();
    expect(PastRuns.decode(new PastRuns().encode())?.size).toBe(0);
  });
});

/** What a query reads without decoding every run: searches, positions of some runs, pairs. */
function lazyReadings(runs: PastRuns, queries: readonly string[]) {
  const ids = [0, 1, 5, runs.size - 1].map((i) => runs.run(i)?.id ?? '');
  return {
    size: runs.size,
    hits: queries.map((q) => runs.searchIntents(q, 5)),
    skipped: queries.map((q) => runs.searchIntents(q, 5, 1)),
    positions: [...ids, 'nope'].map((id) => runs.positionOf(id)),
    // Some pairs one by one (a row at a time), then every pair.
    some: ['tool_1', 'tool_3', 'tool_19', 'none'].flatMap((a) =>
      ['tool_0', 'tool_2', 'tool_3', 'none'].map((b) => ({ ...runs.pair(a, b) })),
    ),
    pairs: [...runs.pairEntries()].map(([from, to, count]) => `${from}>${to}:${count.both}/${count.linked}`).sort(),
    runs: [0, 2, runs.size - 1].map((i) => runs.run(i)),
  };
}
