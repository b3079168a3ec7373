import { describe, expect, it } from 'vitest';
import type { CallRecord, ExecutionRecord } from '../../store/types.js';
import { type ByteSource, PAIR_TOOLS, PastRuns } from './past-runs.js';

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
          // Read in pieces as the store keeps them (migration 14): the same.
          const opened = PastRuns.open(inPieces(kept.encode()).source) as PastRuns;
          expect(lazyReadings(opened, queries)).toEqual(lazyReadings(kept, queries));
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
    // More tools than a query looks up one by one (absent ones first): the rest through every tool's number.
    many: [
      ...Array.from({ length: 32 }, (_, i) => `none_${i}`),
      ...Array.from({ length: 20 }, (_, i) => `tool_${i}`),
    ].map((a) => ({ ...runs.pair(a, 'tool_2') })),
    pairs: [...runs.pairEntries()].map(([from, to, count]) => `${from}>${to}:${count.both}/${count.linked}`).sort(),
    runs: [0, 2, runs.size - 1].map((i) => runs.run(i)),
  };
}

/**
 * Bytes kept in pieces of 24 bytes, each in a buffer of its own at an odd offset (as a driver's may be), read a
 * range at a time; `read` counts the bytes read.
 */
function inPieces(bytes: Uint8Array): { source: ByteSource; read: () => number } {
  const PIECE = 24;
  const pieces = Array.from({ length: Math.ceil(bytes.byteLength / PIECE) }, (_, p) => {
    const piece = bytes.subarray(p * PIECE, (p + 1) * PIECE);
    const own = new Uint8Array(piece.byteLength + 1);
    own.set(piece, 1);
    return own.subarray(1);
  });
  let count = 0;
  const source: ByteSource = {
    size: bytes.byteLength,
    read(offset, length) {
      count += length;
      const out = new Uint8Array(length);
      for (let at = offset; at < offset + length; ) {
        const p = Math.floor(at / PIECE);
        const piece = pieces[p] as Uint8Array;
        const part = piece.subarray(at - p * PIECE, Math.min(piece.byteLength, offset + length - p * PIECE));
        out.set(part, at - offset);
        at += part.byteLength;
      }
      return out;
    },
  };
  return { source, read: () => count };
}

/**
 * {@link inPieces} with a reader's cache of pieces and its read-ahead: `misses` counts the reads that needed pieces
 * not held (a statement each in the store's reader, which then holds them); `ahead` counts the calls to `prefetch`.
 */
function cachedPieces(bytes: Uint8Array): { source: ByteSource; misses: () => number; ahead: () => number } {
  const PIECE = 24;
  const { source: plain } = inPieces(bytes);
  const held = new Set<number>();
  let misses = 0;
  let ahead = 0;
  const pieces = (offset: number, length: number) => {
    const first = Math.floor(offset / PIECE);
    return Array.from(
      { length: Math.floor((offset + Math.max(1, length) - 1) / PIECE) - first + 1 },
      (_, i) => first + i,
    );
  };
  const source: ByteSource = {
    size: plain.size,
    read(offset, length) {
      const missing = (length === 0 ? [] : pieces(offset, length)).filter((p) => !held.has(p));
      if (missing.length > 0) misses += 1;
      for (const p of missing) held.add(p);
      return plain.read(offset, length);
    },
    prefetch(ranges) {
      ahead += 1;
      for (const [offset, length] of ranges) for (const p of length > 0 ? pieces(offset, length) : []) held.add(p);
    },
  };
  return { source, misses: () => misses, ahead: () => ahead };
}

describe('past runs read in pieces (issue 20, migration 14)', () => {
  it('read ahead, the runs and the positions of ids read nothing more and answer as decoded', () => {
    const rng = generator(23);
    const runs = new PastRuns(storeOrder(Array.from({ length: 1500 }, (_, i) => execution(rng, `r${i}`))));
    const bytes = runs.encode();
    const positions = Array.from({ length: 60 }, () => Math.floor(rng() * runs.size));
    const ids = [...positions.map((p) => (runs.run(p) as { id: string }).id), 'nobody', 'r9999'];
    // Without reading ahead: what the same reads miss.
    const plain = cachedPieces(bytes);
    const before = PastRuns.open(plain.source) as PastRuns;
    const opened = plain.misses();
    const want = { runs: positions.map((p) => before.run(p)), at: ids.map((id) => before.positionOf(id)) };
    const missed = plain.misses() - opened;
    // Read ahead: a few calls, and the runs then miss no piece; the ids' positions miss few (a hash shared by
    // two ids is looked for further).
    const { source, misses, ahead } = cachedPieces(bytes);
    const read = PastRuns.open(source) as PastRuns;
    const start = misses();
    read.prefetchRuns(positions);
    const afterRuns = misses();
    expect(positions.map((p) => read.run(p))).toEqual(want.runs);
    // One read: the tools' names, read whole with the first shape made.
    expect(misses() - afterRuns).toBe(1);
    read.prefetchIds(ids);
    const afterIds = misses();
    expect(ids.map((id) => read.positionOf(id))).toEqual(want.at);
    expect(misses() - afterIds).toBeLessThan(ids.length / 4);
    expect(afterRuns).toBe(start);
    expect(ahead()).toBeLessThanOrEqual(6);
    expect(missed).toBeGreaterThan(3 * (misses() - afterIds) + positions.length);
    // Runs already made, or decoded from bytes in memory, read nothing ahead.
    read.prefetchRuns(positions);
    expect(ahead()).toBeLessThanOrEqual(6);
    (PastRuns.decode(bytes) as PastRuns).prefetchRuns(positions);
  });

  it('answer as the runs decoded from their bytes, and a query reads a small part of them', () => {
    const rng = generator(11);
    const runs = new PastRuns(storeOrder(Array.from({ length: 2000 }, (_, i) => execution(rng, `r${i}`))));
    const bytes = runs.encode();
    const { source, read } = inPieces(bytes);
    const opened = PastRuns.open(source) as PastRuns;
    const hits = opened.searchIntents('invoice email', 5);
    expect(hits).toEqual(runs.searchIntents('invoice email', 5));
    expect(hits.map((h) => opened.run(h.index))).toEqual(hits.map((h) => runs.run(h.index)));
    expect(opened.positionOf('r1234')).toBe(runs.positionOf('r1234'));
    expect(read()).toBeLessThan(bytes.byteLength / 2);
    expect(readings(opened, ['fetch parse', 'store'])).toEqual(readings(runs, ['fetch parse', 'store']));
    // Written again from what was read in pieces: the same bytes.
    expect(opened.encode()).toEqual(bytes);
    expect(opened.runs).toEqual((PastRuns.decode(bytes) as PastRuns).runs);
    // Bytes of another format, or of an older version of this one, are none: the runs are built again.
    // Format 6 kept each run's quality with a failed call worth 0.3 / 0.7, format 7 a run with a failure standing at
    // its calls' mean, format 8 a run's stated confidence over a failure standing and a dependsOn fallback's failure
    // standing (walk 16, items 8 and 9), format 9 a run's shape with its tools that only failed, format 10 a call's
    // failed try before its retry as is and fallback standing (review F, item 2), format 11 a DAG's failed task
    // made good by a sibling task of the same tool (review F, item 9), format 12 a run's shape without the order
    // through a tool left out (review F, item 6): read again.
    const older = bytes.slice();
    new DataView(older.buffer).setUint32(0, 0x50520005, true);
    const sixth = bytes.slice();
    new DataView(sixth.buffer).setUint32(0, 0x50520006, true);
    const seventh = bytes.slice();
    new DataView(seventh.buffer).setUint32(0, 0x50520007, true);
    const eighth = bytes.slice();
    new DataView(eighth.buffer).setUint32(0, 0x50520008, true);
    const ninth = bytes.slice();
    new DataView(ninth.buffer).setUint32(0, 0x50520009, true);
    const tenth = bytes.slice();
    new DataView(tenth.buffer).setUint32(0, 0x5052000a, true);
    const eleventh = bytes.slice();
    new DataView(eleventh.buffer).setUint32(0, 0x5052000b, true);
    const twelfth = bytes.slice();
    new DataView(twelfth.buffer).setUint32(0, 0x5052000c, true);
    const marked = [older, sixth, seventh, eighth, ninth, tenth, eleventh, twelfth, new Uint8Array(5)];
    expect(marked.map((b) => PastRuns.open(inPieces(b).source))).toEqual(marked.map(() => undefined));
  });
});
