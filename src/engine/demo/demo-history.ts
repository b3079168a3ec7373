/**
 * @module engine/demo/demo-history
 * The demo's learning history: a month of a coding agent's work that ships in `data/demo/`
 * (tools, runs, observations with recurring habits, memories, and the results a user accepted),
 * played through the real engine (recordRun, observe, remember, evolve, feedback), so every number
 * the dashboard shows is one Credence computed. Times are `daysAgo` before the clock, so `--now`
 * reproduces the whole store. Loaded once per scope: a second run finds its marker and adds nothing.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { CredenceError } from '../../core/errors.js';
import { deriveIntent } from '../../core/runs/intent.js';
import { CALL_STATUSES, MEMORY_CATEGORIES, OBSERVATION_TYPES } from '../../core/types.js';
import { Credence, engineStore } from '../engine.js';
import { demoOutcomes, type DemoTargets } from './demo-outcomes.js';
import { formatIssues, type MemoryInput } from '../../schemas/index.js';
import { PLAIN_ISSUES } from '../../schemas/format.js';

const DAY = 86_400_000;

/** The memory whose presence says the history is already in the scope. */
export const HISTORY_MARKER = 'demo-history';

const Days = z.number().finite().min(0).max(365);
const RunLineSchema = z.strictObject({
  daysAgo: Days,
  intent: z.string().min(1),
  calls: z
    .array(
      z.strictObject({
        tool: z.string().min(1),
        status: z.enum(CALL_STATUSES),
        retries: z.number().int().min(0),
        durationMs: z.number().int().min(0),
        consumes: z.array(z.number().int().min(0)),
      }),
    )
    .min(1),
});
const ToolLineSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string(),
  origin: z.string().optional(),
});
const ObservationLineSchema = z.strictObject({
  id: z.string().startsWith('demo-'),
  daysAgo: Days,
  type: z.enum(OBSERVATION_TYPES),
  context: z.record(z.string(), z.string()),
  observation: z.string().min(1),
  confidence: z.number().min(0).max(1),
  evidence: z.array(z.string()),
  tags: z.array(z.string()),
});
const MemoryLineSchema = z.strictObject({
  id: z.string().startsWith('demo-'),
  category: z.enum(MEMORY_CATEGORIES),
  title: z.string().min(1),
  text: z.string().min(1),
  tags: z.array(z.string()),
});
const SuggestionLineSchema = z.strictObject({
  surface: z.enum(['search', 'next', 'recall']),
  query: z.string().min(1),
  accept: z.string().nullable(),
});

export type DemoRunLine = z.infer<typeof RunLineSchema>;

/** Where the history ships: `data/demo/` of the package (from dist/src/engine/demo or from src/engine/demo). */
export function demoDataDir(): string {
  for (const rel of ['../../../../data/demo/', '../../../data/demo/']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(new URL('runs.jsonl', url))) return url.pathname;
  }
  throw new CredenceError(
    'NOT_FOUND',
    "the demo's data (data/demo/*.jsonl) is missing from the package: reinstall credence",
  );
}

function readLines<T>(dir: string, file: string, schema: z.ZodType<T>): T[] {
  const path = `${dir.endsWith('/') ? dir : `${dir}/`}${file}`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CredenceError(
      'NOT_FOUND',
      `cannot read the demo's ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return text
    .split('\n')
    .map((line, i) => ({ line, n: i + 1 }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, n }) => {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        throw new CredenceError('INVALID_INPUT', `${path}:${n}: not JSON`);
      }
      const parsed = schema.safeParse(value, PLAIN_ISSUES);
      if (!parsed.success) throw new CredenceError('INVALID_INPUT', `${path}:${n}: ${formatIssues(parsed.error)}`);
      return parsed.data;
    });
}

export interface DemoHistoryReport {
  loaded: boolean;
  tools: number;
  runs: number;
  observations: number;
  memories: number;
  instincts: { id: string; text: string; confidence: number }[];
  skills: { id: string; name: string; confidence: number }[];
  shown: number;
  accepted: number;
}

/** The calls of a history line as the nodes of a run (SPEC §7), spaced through the run. */
export function runOfLine(line: DemoRunLine, now: number): Parameters<Credence['recordRun']>[0] {
  const startedAt = Math.round(now - line.daysAgo * DAY);
  let at = startedAt;
  const nodes = line.calls.map((c) => {
    const derived = deriveIntent(c.tool);
    const node = {
      name: c.tool,
      intent: derived.intent,
      intentRule: derived.rule,
      status: c.status,
      retries: c.retries,
      startedAt: at,
      durationMs: c.durationMs,
      consumes: c.consumes,
    };
    at += c.durationMs + 500;
    return node;
  });
  return { intent: line.intent, startedAt, endedAt: at, nodes };
}

/**
 * Plays the history into `credence`'s scope unless its marker is there. Records go in with ids
 * that start with `demo-`, as the rest of the demo's, so the demo still recognises its scope.
 */
export async function loadDemoHistory(
  credence: Credence,
  options: { dataDir?: string } = {},
): Promise<DemoHistoryReport> {
  const dir = options.dataDir ?? demoDataDir();
  const now = credence.now();
  const engine = new Credence({
    store: engineStore(credence),
    scope: { scope: credence.scope, source: 'flag' },
    root: credence.root,
    now: credence.now,
    newId: () => `demo-${randomUUID()}`,
    embedder: () => credence.embedder,
  });
  const present = await engineStore(credence).getMemory(credence.scope, HISTORY_MARKER);
  const tools = readLines(dir, 'tools.jsonl', ToolLineSchema);
  const runs = readLines(dir, 'runs.jsonl', RunLineSchema);
  const observations = readLines(dir, 'observations.jsonl', ObservationLineSchema);
  const memories = readLines(dir, 'memories.jsonl', MemoryLineSchema);
  const suggestions = readLines(dir, 'suggestions.jsonl', SuggestionLineSchema);
  let shown = 0;
  let accepted = 0;
  if (present === undefined) {
    await engine.addTools(tools);
    for (const line of runs) await engine.recordRun(runOfLine(line, now));
    await engine.observe(
      observations.map(({ daysAgo, ...o }) => ({ ...o, timestamp: new Date(now - daysAgo * DAY).toISOString() })),
    );
    // the demo's lines hold notes and decisions; checked by the engine
    await engine.remember(memories as MemoryInput[]);
    const first = await engine.evolve();
    // A user validates the first new instinct; the next evolve applies it (+0.2, SPEC §6).
    const validated = first.newInstincts[0];
    if (validated !== undefined)
      await engine.feedback(validated.id, 'validated', {
        eventId: 'demo-feedback-validated',
        note: 'confirmed in review',
      });
    await engine.evolve();
    for (const s of suggestions) {
      const results =
        s.surface === 'search'
          ? (await engine.searchTools(s.query, { limit: 5 })).map((r) => ({ key: r.tool, shownId: r.shownId }))
          : s.surface === 'next'
            ? (await engine.suggestNext(s.query, { limit: 5 })).map((r) => ({ key: r.tool, shownId: r.shownId }))
            : (await engine.recall(s.query, { limit: 5 })).map((r) => ({
                key: `${r.kind}:${r.id}`,
                shownId: r.shownId,
              }));
      shown += results.length;
      const hit = results.find((r) => r.key === s.accept);
      const verdict = hit ?? results[0];
      if (verdict?.shownId !== undefined) {
        await engine.feedback(verdict.shownId, hit === undefined ? 'rejected' : 'accepted');
        if (hit !== undefined) accepted += 1;
      }
    }
    // What became of claims shown over the month, every kind (issue 24): `credence calibration` reads them.
    const [instinctRows, skillRows] = await Promise.all([
      engineStore(credence).listInstincts(credence.scope),
      engineStore(credence).listSkills(credence.scope),
    ]);
    const targets: DemoTargets = {
      search: tools.map((t) => t.id),
      next: tools.map((t) => t.id),
      dag: runs.map((r) => `dag:${r.calls.map((c) => c.tool).join(',')}`),
      recall: memories.map((m) => `memory:${m.id}`),
      instinct: instinctRows.map((i) => `instinct:${i.id}`),
      skill: skillRows.map((s) => `skill:${s.id}`),
    };
    await engineStore(credence).recordShown(credence.scope, demoOutcomes(targets, now));
    await engine.remember([
      {
        id: HISTORY_MARKER,
        category: 'note',
        title: 'About this demo store',
        text:
          `A month of a coding agent's work on a small web service: ${runs.length} runs over ${tools.length} tools, ` +
          `${observations.length} observations of recurring habits, ${memories.length} decisions and notes. ` +
          'Loaded by credence demo.',
        tags: ['demo'],
      },
    ]);
  }
  const [instincts, skills] = await Promise.all([
    engineStore(credence).listInstincts(credence.scope),
    engineStore(credence).listSkills(credence.scope),
  ]);
  return {
    loaded: present === undefined,
    tools: tools.length,
    runs: runs.length,
    observations: observations.length,
    memories: memories.length,
    instincts: instincts
      .filter((i) => i.status === 'active')
      .map((i) => ({ id: i.id, text: i.text, confidence: i.confidence })),
    skills: skills.map((s) => ({ id: s.id, name: s.name, confidence: s.confidence })),
    shown,
    accepted,
  };
}
