/**
 * @module eval/habits/evolve-files
 * The shipped `Credence.evolve` over a habit stream, as a user's project gets it (issue 21): the
 * stream observed into a fresh SQLite store, evolve run once into a temporary project folder (limits
 * raised and `--since` covering the stream, so that nothing is pruned before it is learned), and
 * the instinct and skill files left in the folder counted. Also which planted contradictions the
 * report names, how many of them carry a confidence penalty (and on an item of their own habit), and
 * how many learned items mix two habits, and how many files a second evolve over the same store changes.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { habitObservations } from '../../bench/evolve-engine.js';
import type { EmbeddingProvider } from '../../src/embed/types.js';
import { openCredence } from '../../src/engine/engine.js';
import { EVOLVE_DEFAULTS } from '../../src/engine/learning/evolve.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';
import type { generateHabitStream } from './stream.js';

const DAY_MS = 86_400_000;

export interface FolderEvolve {
  /** Instinct files left in the project (`*.md` outside skill folders). */
  readonly instincts: number;
  /** Skill files left in the project (`SKILL.md`). */
  readonly skills: number;
  /** Planted contradictions the report names. */
  readonly plantedReported: number;
  /** Of those, the ones whose −0.3 (seed 004) the report says was applied to an instinct or a skill. */
  readonly penalties: number;
  /** Of those, the ones applied to an item whose evidence is mostly the habit the contradiction opposes. */
  readonly penaltiesOwnHabit: number;
  /**
   * Of `penalties`, the ones that landed on no learned item because the −0.3 held the group it was read against
   * below the bar for learning: the report shows them (`heldBack`, the group's confidence before → after). Counted
   * only where no active learned item of the habit it opposes remains: then the −0.3 reached all the agent reads
   * of that habit; a habit still learned elsewhere kept its items unpenalised.
   */
  readonly heldBack: number;
  /** Habits of the stream that lead the evidence of at least one skill or active instinct. */
  readonly habitsLearned: number;
  /** Skills and active instincts whose evidence holds ≥ 3 observations of a second habit. */
  readonly mixed: number;
  /** Milliseconds of the evolve call. */
  readonly ms: number;
  /** Files a second evolve over the same store changes (a run again with nothing new changes none). */
  readonly changedAgain: number;
}

/**
 * The held-back contradictions whose −0.3 counts as applied: those whose opposed habit (`contradicts`, by id) leads
 * no active learned item (`learnedHabits`). Where the habit is still learned from another group, the agent reads its
 * items unpenalised: the contradiction held back one group of it, not the habit.
 */
export function heldBackApplied<C extends { readonly id: string }>(
  heldBack: readonly C[],
  contradicts: ReadonlyMap<string, string | null>,
  learnedHabits: ReadonlySet<string>,
): C[] {
  return heldBack.filter((c) => {
    const habit = contradicts.get(c.id);
    return habit !== undefined && habit !== null && !learnedHabits.has(habit);
  });
}

/** Every file under `folder`, relative to it. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/** Runs the real evolve over `stream` in a temporary project and counts what it wrote (see the module header). */
export async function evolveIntoFolder(
  stream: ReturnType<typeof generateHabitStream>,
  embedder: EmbeddingProvider,
): Promise<FolderEvolve> {
  const root = mkdtempSync(join(tmpdir(), 'credence-eval-habits-'));
  mkdirSync(join(root, '.git'));
  try {
    const store = openSqliteStore({ path: join(root, 'eval.db') });
    const credence = await openCredence({
      store,
      scope: 'eval',
      now: stream.now,
      cwd: root,
      embedder,
    });
    try {
      const inserted = await credence.observe(habitObservations(stream));
      const t = performance.now();
      const report = await credence.evolve({
        sinceMs: 60 * DAY_MS,
        limits: { maxObservations: 20_000, maxActiveInstincts: 1_000 },
      });
      const ms = performance.now() - t;
      const files = filesUnder(root).filter((f) => f.endsWith('.md') && !f.startsWith(`.git${sep}`));
      const skills = files.filter((f) => f.endsWith(`${sep}SKILL.md`)).length;
      // Stored ids follow the stream's order (observe returns them in input order).
      const plantedIds = new Set(
        stream.observations.flatMap((o, i) => (o.contradicts === null ? [] : [inserted.ids[i] as string])),
      );
      const planted = report.contradictions.filter((c) => plantedIds.has(c.id));
      // −0.3 applied: the report names what the contradiction lowered, by how much (seed 004). Or it held back the
      // group it was read against: learned without its contradictions, below the bar with them, each taking 0.3.
      const heldBy = new Map<string, number>();
      for (const c of report.contradictions)
        if (c.heldBack !== undefined) heldBy.set(c.group, (heldBy.get(c.group) ?? 0) + 1);
      const heldBackAt = planted.filter(
        (c) =>
          c.applied === undefined &&
          c.heldBack !== undefined &&
          c.heldBack.before >= EVOLVE_DEFAULTS.minConfidence &&
          c.heldBack.after < EVOLVE_DEFAULTS.minConfidence &&
          Math.abs(c.heldBack.before - c.heldBack.after - 0.3 * (heldBy.get(c.group) ?? 1)) < 1e-9,
      );
      // What each learned item is mostly about, from the habits of its evidence.
      const habitOf = new Map(stream.observations.map((o, i) => [inserted.ids[i] as string, o.habit]));
      const instincts = await store.listInstincts('eval');
      const learned = [...(await store.listSkills('eval')), ...instincts];
      const active = new Set(learned.filter((item) => !('status' in item) || item.status === 'active'));
      const habits = new Map(
        learned.map((item) => {
          const counts = new Map<string, number>();
          for (const id of item.evidence) {
            const habit = habitOf.get(id);
            if (habit) counts.set(habit, (counts.get(habit) ?? 0) + 1);
          }
          return [item.id, [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))] as const;
        }),
      );
      // An instinct the −0.3 retired in the run is still the item it landed on; only active ones can mix.
      const mixed = learned.filter(
        (item) => active.has(item) && (habits.get(item.id) ?? []).filter(([, n]) => n >= 3).length > 1,
      ).length;
      const contradicts = new Map(stream.observations.map((o, i) => [inserted.ids[i] as string, o.contradicts]));
      // The habits an active learned item is mostly about: what the agent reads of each habit.
      const learnedHabits = new Set(
        learned.filter((item) => active.has(item)).flatMap((item) => habits.get(item.id)?.[0]?.[0] ?? []),
      );
      // Held back counts as applied only where nothing of the opposed habit is learned beside the group held back.
      const held = heldBackApplied(heldBackAt, contradicts, learnedHabits);
      const penalised = [
        ...planted.filter((c) => c.applied !== undefined && Math.abs(Math.abs(c.applied.delta) - 0.3) < 1e-9),
        ...held,
      ];
      // A held-back one is on its habit when the group it held back (reported ignored, the contradiction among its
      // observations) is mostly that habit.
      const heldGroup = (c: (typeof held)[number]) =>
        report.ignored.find((i) => i.text === c.group && i.ids.includes(c.id))?.ids ?? [];
      const majority = (ids: readonly string[]) => {
        const counts = new Map<string, number>();
        for (const id of ids) {
          const habit = habitOf.get(id);
          if (habit) counts.set(habit, (counts.get(habit) ?? 0) + 1);
        }
        return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
      };
      const own = [
        ...penalised.filter(
          (c) => c.applied !== undefined && habits.get(c.applied.to)?.[0]?.[0] === contradicts.get(c.id),
        ),
        ...held.filter((c) => majority(heldGroup(c)) === contradicts.get(c.id)),
      ];
      // Everything above is of the first run; then a second one over the same store, with nothing new.
      const again = await credence.evolve({
        sinceMs: 60 * DAY_MS,
        limits: { maxObservations: 20_000, maxActiveInstincts: 1_000 },
      });
      return {
        instincts: files.length - skills,
        skills,
        plantedReported: new Set(planted.map((c) => c.id)).size,
        penalties: new Set(penalised.map((c) => c.id)).size,
        penaltiesOwnHabit: new Set(own.map((c) => c.id)).size,
        heldBack: new Set(held.map((c) => c.id)).size,
        habitsLearned: learnedHabits.size,
        mixed,
        ms,
        changedAgain: again.files.filter((f) => f.changed).length,
      };
    } finally {
      await credence.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
