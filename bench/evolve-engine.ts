/**
 * @module bench/evolve-engine
 * The shipped `Credence.evolve` over the 10,000-observation habit stream (limits raised for the run,
 * `--since` covering it), in process, from a store that already holds the observations: grouping,
 * contradictions, scoring, identities, instinct and skill files, memories and the log. The first
 * run writes everything; the second, on the same data, should change nothing. Reference: one pass
 * computing the content words of every observation. Target (SPEC §11): ≤ 1 s.
 *
 * As a user runs it (issue 20): the same stream in a fresh store, evolved with the default limits, so
 * the run also prunes the stream down to 100 observations (~9,900 deleted) after learning from it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentWords } from '../src/core/text/words.js';
import { openCredence } from '../src/engine/engine.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { generateHabitStream } from '../eval/habits/stream.js';
import type { BenchRow } from './table.js';

/** The habit stream's observations as `observe` takes them (this bench and the scale section's evolve). */
export function habitObservations(stream: ReturnType<typeof generateHabitStream>) {
  return stream.observations.map((o) => ({
    timestamp: new Date(o.timestamp).toISOString(),
    type: o.type,
    observation: o.text,
    confidence: o.confidence,
    tags: [...o.tags],
  }));
}

export async function benchEvolveEngine(): Promise<BenchRow[]> {
  const stream = generateHabitStream({ seed: 6 });
  const root = mkdtempSync(join(tmpdir(), 'credence-evolve-bench-'));
  mkdirSync(join(root, '.git'));
  try {
    const credence = await openCredence({
      store: openSqliteStore({ path: join(root, 'bench.db') }),
      scope: 'bench',
      now: stream.now,
      cwd: root,
    });
    await credence.observe(habitObservations(stream));
    let t = performance.now();
    let words = 0;
    for (const o of stream.observations) words += contentWords(o.text).length;
    const reference = performance.now() - t;
    const options = { sinceMs: 60 * 86_400_000, limits: { maxObservations: 20_000, maxActiveInstincts: 1_000 } };
    t = performance.now();
    const first = await credence.evolve(options);
    const firstMs = performance.now() - t;
    t = performance.now();
    const second = await credence.evolve(options);
    const secondMs = performance.now() - t;
    await credence.close();
    const user = await openCredence({
      store: openSqliteStore({ path: join(root, 'bench-user.db') }),
      scope: 'bench',
      now: stream.now,
      cwd: root,
    });
    await user.observe(habitObservations(stream));
    t = performance.now();
    const pruned = await user.evolve({ sinceMs: options.sinceMs });
    const userMs = performance.now() - t;
    await user.close();
    const label = `${stream.observations.length.toLocaleString('en-US')} observations`;
    const learned = `${first.newInstincts.length} instincts, ${first.skillsUpdated.length} skills`;
    return [
      {
        benchmark: `credence evolve, first run (${label}: ${learned})`,
        measure: 'ms, in process',
        value: `${firstMs.toFixed(0)} ms`,
        reference: `content words ${reference.toFixed(0)} ms (${words} words)`,
        ratio: `${(firstMs / Math.max(1e-9, reference)).toFixed(1)}× pass`,
        target: `≤ 1 s: ${firstMs <= 1000 ? 'met' : 'NOT met'}`,
      },
      {
        benchmark: `credence evolve, same data again (${second.files.filter((f) => f.changed).length} files changed)`,
        measure: 'ms, in process',
        value: `${secondMs.toFixed(0)} ms`,
        reference: `content words ${reference.toFixed(0)} ms`,
        ratio: `${(secondMs / Math.max(1e-9, reference)).toFixed(1)}× pass`,
        target: `≤ 1 s: ${secondMs <= 1000 ? 'met' : 'NOT met'}`,
      },
      {
        benchmark:
          `credence evolve as a user runs it (default limits: ` +
          `${(pruned.pruned?.observations.length ?? 0).toLocaleString('en-US')} observations pruned)`,
        measure: 'ms, in process',
        value: `${userMs.toFixed(0)} ms`,
        reference: `content words ${reference.toFixed(0)} ms`,
        ratio: `${(userMs / Math.max(1e-9, reference)).toFixed(1)}× pass`,
        target: `≤ 1 s: ${userMs <= 1000 ? 'met' : 'NOT met'}`,
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
