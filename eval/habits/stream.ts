/**
 * @module eval/habits/stream
 * The seeded synthetic observation stream of issue 6 ("Done when", SPEC §6 / seed 004): recurring
 * habits written from the fixed paraphrase templates of `eval/habits/templates`, one-off noise and
 * one-off contradictions, with the ground truth of every observation. Same seed, same stream.
 *
 * - Habit sizes follow a Zipf-like law (weight 1 / rank^0.8 over a seeded order of the habits), so
 *   a few habits are frequent and the rarest still recur tens of times.
 * - A habit observation is one of its templates (uniform), its slots filled, and in 30 % of cases a
 *   context suffix ("while working on billing", "in src/api/users.ts", …) that shares words across
 *   habits.
 * - Noise: the one-off sentences once each, and each noise frame twice with different fillers, so
 *   that no three noise observations say the same thing.
 * - Contradictions: each one is older than `contradictionMinAgeDays` at `now`, so all habits remain
 *   significant by the seed's rule (no contradiction in the last 7 days) and recall can be 1.
 * - Timestamps uniform over `days` days ending at `now`; confidences uniform in [0.3, 0.9] (two
 *   decimals); ids `obs-00001`… in timestamp order.
 */
import { mulberry32 } from '../../bench/prng.js';
import type { ObservationType } from '../../src/core/types.js';
import {
  CONTRADICTIONS,
  HABITS,
  NOISE_FRAMES,
  NOISE_SENTENCES,
  NOISE_VOCABULARY,
  SLOT_VALUES,
  type Habit,
  type HabitTemplate,
  type PlantedContradiction,
} from './templates.js';

const DAY_MS = 86_400_000;

export const STREAM_DEFAULTS = Object.freeze({
  seed: 6,
  total: 10_000,
  days: 28,
  /** The seed's date (seed 004): the fixed "now" at the end of the stream. */
  now: Date.parse('2026-02-02T09:00:00Z'),
  contradictionMinAgeDays: 8,
  suffixShare: 0.3,
  zipfExponent: 0.8,
  minConfidence: 0.3,
  maxConfidence: 0.9,
});

export interface StreamOptions {
  readonly seed?: number;
  /** All observations, noise and contradictions included. @default 10000 */
  readonly total?: number;
  /** One-off noise observations, at most `NOISE_COUNT`. @default NOISE_COUNT (all of them) */
  readonly noise?: number;
  readonly habits?: readonly Habit[];
  readonly contradictions?: readonly PlantedContradiction[];
  readonly days?: number;
  readonly now?: number;
  /** One-off remarks (issue 21), each once in the stream (`remark: true`). @default none */
  readonly remarks?: readonly HabitTemplate[];
}

export interface StreamObservation {
  readonly id: string;
  readonly text: string;
  readonly type: ObservationType;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
  readonly confidence: number;
  readonly tags: readonly string[];
  /** The habit key it belongs to, or null for noise and contradictions. */
  readonly habit: string | null;
  /** The habit key it contradicts (planted contradictions only). */
  readonly contradicts: string | null;
  /** A one-off remark of `StreamOptions.remarks`, which must stay out of every group. */
  readonly remark?: boolean;
}

export interface HabitStream {
  readonly observations: readonly StreamObservation[];
  readonly now: number;
  /** The habit keys of the stream, in template order. */
  readonly habits: readonly string[];
  /** Occurrences of each habit. */
  readonly sizes: ReadonlyMap<string, number>;
}

/** Uses of each noise frame: two, so that no frame alone can make a pattern of three. */
const FRAME_USES = 2;

const SUFFIXES = [' while working on {module}', ' in {file}', ' during the {module} review', ' (session {n})'];

type Rng = () => number;
const pick = <T>(rng: Rng, values: readonly T[]): T => values[Math.floor(rng() * values.length)] as T;

function fillSlots(rng: Rng, text: string): string {
  return text.replace(/\{(\w+)\}/g, (_, slot: string) => {
    if (slot === 'n') return String(1 + Math.floor(rng() * 60));
    const values = (SLOT_VALUES as Record<string, readonly string[]>)[slot];
    if (values === undefined) throw new Error(`unknown template slot {${slot}}`);
    return pick(rng, values);
  });
}

/** Habit sizes: Zipf-like weights over a seeded order, rounded so that they sum to `count`. */
function habitSizes(rng: Rng, habits: readonly Habit[], count: number, exponent: number): Map<string, number> {
  const order = habits.map((h) => h.key);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j] as string, order[i] as string];
  }
  const weights = order.map((_, rank) => 1 / (rank + 1) ** exponent);
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = new Map<string, number>();
  let given = 0;
  order.forEach((key, rank) => {
    const size = rank === order.length - 1 ? count - given : Math.round(((weights[rank] as number) / sum) * count);
    sizes.set(key, size);
    given += size;
  });
  return sizes;
}

/**
 * Noise texts: every `NOISE_SENTENCES` entry once, and every `NOISE_FRAMES` frame `FRAME_USES`
 * times with different filler values (no value twice in a frame and slot), shuffled.
 */
function noiseTexts(rng: Rng): { text: string; type: ObservationType }[] {
  const vocabulary = NOISE_VOCABULARY as Record<string, readonly string[]>;
  const out: { text: string; type: ObservationType }[] = NOISE_SENTENCES.map((s) => ({ text: s.text, type: s.type }));
  for (const frame of NOISE_FRAMES) {
    const pools = new Map<string, string[]>();
    for (let use = 0; use < FRAME_USES; use += 1) {
      const text = frame.text.replace(/\{(\w+?)2?\}/g, (_, base: string) => {
        let pool = pools.get(base);
        if (pool === undefined) {
          const values = vocabulary[base];
          if (values === undefined) throw new Error(`unknown noise slot {${base}}`);
          pool = [...values];
          pools.set(base, pool);
        }
        const value = pool.splice(Math.floor(rng() * pool.length), 1)[0];
        if (value === undefined) throw new Error(`noise slot {${base}} ran out of values`);
        return value;
      });
      out.push({ text: text.charAt(0).toUpperCase() + text.slice(1), type: frame.type });
    }
  }
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as (typeof out)[number], out[i] as (typeof out)[number]];
  }
  return out;
}

/** How many one-off noise observations a stream holds. */
export const NOISE_COUNT = NOISE_SENTENCES.length + FRAME_USES * NOISE_FRAMES.length;

/** The seeded stream (see the module header). */
export function generateHabitStream(options: StreamOptions = {}): HabitStream {
  const seed = options.seed ?? STREAM_DEFAULTS.seed;
  const total = options.total ?? STREAM_DEFAULTS.total;
  const habits = options.habits ?? HABITS;
  const contradictions = options.contradictions ?? CONTRADICTIONS;
  const days = options.days ?? STREAM_DEFAULTS.days;
  const now = options.now ?? STREAM_DEFAULTS.now;
  const noise = options.noise ?? NOISE_COUNT;
  if (!Number.isInteger(noise) || noise < 0 || noise > NOISE_COUNT)
    throw new Error(`noise must be an integer in [0, ${NOISE_COUNT}], got ${noise}`);
  const remarks = options.remarks ?? [];
  const habitCount = total - noise - contradictions.length - remarks.length;
  if (habitCount < habits.length * 3)
    throw new Error(`a stream of ${total} leaves ${habitCount} habit observations for ${habits.length} habits`);
  const rng = mulberry32(seed);
  const start = now - days * DAY_MS;
  const confidence = () =>
    Math.round(
      (STREAM_DEFAULTS.minConfidence + rng() * (STREAM_DEFAULTS.maxConfidence - STREAM_DEFAULTS.minConfidence)) * 100,
    ) / 100;
  const raw: Omit<StreamObservation, 'id'>[] = [];

  const sizes = habitSizes(rng, habits, habitCount, STREAM_DEFAULTS.zipfExponent);
  for (const habit of habits) {
    for (let k = 0, n = sizes.get(habit.key) ?? 0; k < n; k += 1) {
      const template = pick(rng, habit.templates);
      let text = fillSlots(rng, template.text);
      if (rng() < STREAM_DEFAULTS.suffixShare) text += fillSlots(rng, pick(rng, SUFFIXES));
      raw.push({
        text,
        type: template.type,
        timestamp: start + Math.floor(rng() * days * DAY_MS),
        confidence: confidence(),
        tags: habit.tags,
        habit: habit.key,
        contradicts: null,
      });
    }
  }
  // Noise, then the one-off remarks: each at a random time of the stream, in no habit.
  const oneOffs = [...noiseTexts(rng).slice(0, noise), ...remarks.map((r) => ({ ...r, remark: true as const }))];
  for (const { text, type, ...rest } of oneOffs) {
    raw.push({
      text,
      type,
      timestamp: start + Math.floor(rng() * days * DAY_MS),
      confidence: confidence(),
      tags: ['misc'],
      habit: null,
      contradicts: null,
      ...('remark' in rest ? { remark: true } : {}),
    });
  }
  const latest = now - STREAM_DEFAULTS.contradictionMinAgeDays * DAY_MS;
  for (const c of contradictions) {
    const tags = habits.find((h) => h.key === c.habit)?.tags ?? [];
    raw.push({
      text: c.text,
      type: c.type,
      timestamp: start + DAY_MS + Math.floor(rng() * (latest - start - DAY_MS)),
      confidence: confidence(),
      tags,
      habit: null,
      contradicts: c.habit,
    });
  }
  raw.sort((a, b) => a.timestamp - b.timestamp || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const width = String(raw.length).length;
  const observations = raw.map((o, i) => ({ id: `obs-${String(i + 1).padStart(Math.max(5, width), '0')}`, ...o }));
  return { observations, now, habits: habits.map((h) => h.key), sizes };
}
