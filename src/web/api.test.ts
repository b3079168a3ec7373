import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EDGE_SOURCES, EDGE_TYPES } from '../core/types.js';
import { engineStore, openCredence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { askPayload, confidencePayload, graphPayload, learningPayload } from './api.js';
import { mulberry32 } from '../../bench/prng.js';

const T0 = Date.parse('2026-02-02T09:00:00Z');
const base = mkdtempSync(join(tmpdir(), 'credence-web-api-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const obs = (text: string, hoursBefore: number) => ({
  timestamp: new Date(T0 - hoursBefore * 3_600_000).toISOString(),
  type: 'preference' as const,
  observation: text,
  confidence: 0.6,
});

describe("the dashboard's Learning view", () => {
  // Issue 17, red-team 7: one folder's evolution log held two scopes' entries, and each view showed both.
  it("shows only its scope's evolve log entries when two scopes share a folder; unscoped ones in neither", async () => {
    const root = join(base, 'project');
    mkdirSync(join(root, '.git'), { recursive: true });
    const store = openSqliteStore({ path: ':memory:' });
    const a = await openCredence({ store, scope: 'team-a', now: T0, cwd: root });
    const b = await openCredence({ store, scope: 'team-b', now: T0, cwd: root });
    await a.observe([
      obs('Use pnpm for installs', 3),
      obs('Install dependencies with pnpm', 2),
      obs('pnpm install, not npm install', 1),
    ]);
    await b.observe([
      obs('Use yarn for installs', 3),
      obs('Install dependencies with yarn', 2),
      obs('yarn install, not npm install', 1),
    ]);
    const aNames = (await a.evolve()).skillsUpdated.map((s) => s.name);
    const bNames = (await b.evolve()).skillsUpdated.map((s) => s.name);
    expect(aNames).toHaveLength(1);
    expect(bNames).toHaveLength(1);
    expect(aNames).not.toEqual(bNames);
    // A line an older Credence wrote, with no scope: nothing says whose it is.
    appendFileSync(
      join(root, '.credence', 'evolution.log.jsonl'),
      `${JSON.stringify({ at: new Date(T0).toISOString(), kind: 'instinct-created', id: 'old-habit', detail: 'x' })}\n`,
    );
    const aView = (await learningPayload(a)).evolutions.map((e) => e.id);
    const bView = (await learningPayload(b)).evolutions.map((e) => e.id);
    expect(aView.length).toBeGreaterThan(0);
    expect(bView.length).toBeGreaterThan(0);
    expect(aView).toContain(aNames[0]);
    expect(bView).toContain(bNames[0]);
    expect(aView).not.toContain(bNames[0]);
    expect(bView).not.toContain(aNames[0]);
    expect([...aView, ...bView]).not.toContain('old-habit');
    await a.close();
  });
});

describe("the dashboard's Ask page", () => {
  // Issue 17: one Claude Code session was listed seven times among the recalled memories: each of its
  // turns is an execution, and turns whose prompt was not seen all have the session's intent.
  it('lists a past run once, however many runs share its intent, with how many they are', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const c = await openCredence({ store, scope: 'p', now: T0, cwd: base });
    for (let turn = 1; turn <= 7; turn += 1) {
      await c.appendCalls(
        { id: `cc-s1-${turn}`, intent: 'Claude Code session s1', startedAt: T0 - turn * 60_000 },
        () => [{ tool: 'Read', status: 'success', retries: 0, consumes: [], at: T0 - turn * 60_000 }],
      );
    }
    await c.appendCalls({ id: 'cc-s2-1', intent: 'Claude Code session s2', startedAt: T0 }, () => [
      { tool: 'Edit', status: 'success', retries: 0, consumes: [], at: T0 },
    ]);
    const ask = await askPayload(c, 'Claude Code session');
    const runs = ask.memories.filter((m) => m.kind === 'execution');
    expect(runs.map((m) => [m.title, m.repeats])).toEqual(
      expect.arrayContaining([
        ['Claude Code session s1', 7],
        ['Claude Code session s2', 1],
      ]),
    );
    expect(runs).toHaveLength(2);
    expect(new Set(runs.find((m) => m.repeats === 7)?.ids)).toEqual(
      new Set(Array.from({ length: 7 }, (_, i) => `cc-s1-${i + 1}`)),
    );
    await c.close();
  });
});

describe("the dashboard's Ask page, said again (issue 24)", () => {
  // Issue 24: the Ask page listed one thing several times; a correction said in three sessions is three
  // observations of one text.
  it('lists an observation once, however many observations share its text, with how many they are', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const c = await openCredence({ store, scope: 'p', now: T0, cwd: base });
    await c.observe([
      obs('Validate the config file after parsing it', 30),
      obs('Validate the config file after parsing it', 20),
      obs('Validate the config file after parsing it', 10),
      obs('The config file lives in the project root', 5),
    ]);
    const ask = await askPayload(c, 'validate the config file');
    const said = ask.memories.filter((m) => m.kind === 'observation');
    expect(said.map((m) => [m.title, m.repeats]).sort()).toEqual([
      ['The config file lives in the project root', 1],
      ['Validate the config file after parsing it', 3],
    ]);
    expect(said.find((m) => m.repeats === 3)?.ids).toHaveLength(3);
    await c.close();
  });
});

describe("the dashboard's bounded graph (issue 20)", () => {
  it('holds the N most central tools and only the edges between them, and counts the rest', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const c = await openCredence({ store, scope: 'g', now: T0, cwd: base });
    const rng = mulberry32(20);
    const ids = Array.from({ length: 60 }, (_, i) => `srv:tool_${String(i).padStart(2, '0')}`);
    await store.upsertTools(
      'g',
      ids.map((id) => ({ id, description: id })),
    );
    for (let k = 0; k < 400; k += 1) {
      const from = ids[Math.floor(60 * rng() ** 2)] as string;
      const to = ids[Math.floor(60 * rng())] as string;
      const count = 1 + Math.floor(rng() * 30);
      await store.putEdge('g', {
        from,
        to,
        type: EDGE_TYPES[k % EDGE_TYPES.length] as (typeof EDGE_TYPES)[number],
        source: EDGE_SOURCES[Math.floor(rng() * EDGE_SOURCES.length)] as (typeof EDGE_SOURCES)[number],
        count,
        successes: count,
        failures: 0,
        firstSeen: T0 - 40 * 86_400_000,
        lastSeen: T0 - Math.floor(rng() * 20) * 86_400_000,
      });
    }
    // Calls decide between tools of equal PageRank (those off the confident graph).
    await c.appendCalls({ id: 'run', intent: 'use the quiet tools', startedAt: T0 - 1000 }, () =>
      [ids[59], ids[59], ids[58]].map((tool) => ({
        tool: tool as string,
        status: 'success' as const,
        retries: 0,
        consumes: [],
        at: T0 - 1000,
      })),
    );
    const full = await graphPayload(c, { limit: 1000 });
    const total = full.nodes.id.length;
    expect(total).toBe(60);
    expect(full.stats).toMatchObject({ nodes: 60, shownNodes: 60, hiddenEdges: 0 });
    for (let i = 1; i < total; i += 1) {
      const [pa, pb] = [full.nodes.pageRank[i - 1] as number, full.nodes.pageRank[i] as number];
      expect(pa).toBeGreaterThanOrEqual(pb);
      if (pa === pb) expect(full.nodes.calls[i - 1]).toBeGreaterThanOrEqual(full.nodes.calls[i] as number);
    }
    const edgeKeys = (p: typeof full) =>
      p.edges.from.map(
        (f, e) => `${p.nodes.id[f]}|${p.nodes.id[p.edges.to[e] as number]}|${p.edges.type[e]}|${p.edges.confidence[e]}`,
      );
    for (const filter of [{}, { types: ['sequence', 'dependency'] as const, min: 0.2 }]) {
      const all = await graphPayload(c, { ...filter, limit: 1000 });
      const bounded = await graphPayload(c, { ...filter, limit: 12 });
      const kept = new Set(all.nodes.id.slice(0, 12));
      expect(bounded.nodes.id).toEqual(all.nodes.id.slice(0, 12));
      expect(bounded.nodes.pageRank).toEqual(all.nodes.pageRank.slice(0, 12));
      expect(bounded.nodes.calls).toEqual(all.nodes.calls.slice(0, 12));
      expect(bounded.nodes.x).toHaveLength(12);
      expect(edgeKeys(bounded)).toEqual(
        edgeKeys(all).filter((key) => {
          const [from, to] = key.split('|') as [string, string];
          return kept.has(from) && kept.has(to);
        }),
      );
      expect(bounded.stats).toMatchObject({ nodes: 60, shownNodes: 12, limit: 12, edges: all.stats.edges });
      expect(bounded.stats.shownEdges + bounded.stats.hiddenEdges).toBe(all.stats.shownEdges);
      expect(bounded.stats.hiddenEdges).toBeGreaterThan(0);
    }
    await c.close();
  });
});

describe("the dashboard's graph: the later-evidence warning (review C item 13)", () => {
  // It counted every edge of the scope, whatever ?type and ?min left out: `?min=0.9` showed no edge and still
  // said "9 edge(s) were last confirmed after …", where `credence edges --min-confidence 0.9` says nothing.
  it('counts only the edges the view shows: those of ?type and ?min between the tools drawn', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const now = Date.parse('2026-11-01T00:00:00Z');
    const c = await openCredence({ store, scope: 'w', now, cwd: base });
    const later = now + 5 * 86_400_000;
    const edge = (from: string, to: string, type: (typeof EDGE_TYPES)[number], count: number, lastSeen: number) =>
      store.putEdge('w', {
        from,
        to,
        type,
        source: 'observed',
        count,
        successes: count,
        failures: 0,
        firstSeen: now - 30 * 86_400_000,
        lastSeen,
      });
    await edge('hub', 'a', 'dependency', 40, later);
    await edge('hub', 'b', 'sequence', 2, later);
    await edge('a', 'b', 'sequence', 40, now - 86_400_000);
    await edge('b', 'c', 'sequence', 1, later);
    const count = (warning: string | undefined) =>
      warning === undefined ? 0 : Number(/^(\d+) edge/.exec(warning)?.[1]);
    const all = await graphPayload(c);
    expect([all.stats.shownEdges, count(all.warning)]).toEqual([4, 3]);
    const dependency = await graphPayload(c, { types: ['dependency'] });
    expect([dependency.stats.shownEdges, count(dependency.warning)]).toEqual([1, 1]);
    const sequence = await graphPayload(c, { types: ['sequence'] });
    expect([sequence.stats.shownEdges, count(sequence.warning)]).toEqual([3, 2]);
    // The dependency is certain (1); the sequences are at most 0.5.
    const strong = await graphPayload(c, { min: 0.6 });
    expect([strong.stats.shownEdges, count(strong.warning)]).toEqual([1, 1]);
    const none = await graphPayload(c, { types: ['sequence'], min: 0.6 });
    expect([none.stats.shownEdges, none.warning]).toEqual([0, undefined]);
    // Two tools drawn of four: only the edges between them.
    const top = await graphPayload(c, { limit: 2 });
    const shown = top.edges.from.map((f, e) => `${top.nodes.id[f]}>${top.nodes.id[top.edges.to[e] as number]}`);
    const laterShown = shown.filter((k) => k !== 'a>b').length;
    expect(count(top.warning)).toBe(laterShown);
    await c.close();
  });
});

describe("the dashboard's Confidence timeline (issue 20)", () => {
  it('counts the runs, calls and observations of each day as a count over every row does', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const c = await openCredence({ store, scope: 't', now: T0, cwd: base });
    const rng = mulberry32(7);
    const HOUR = 3_600_000;
    for (let i = 0; i < 40; i += 1) {
      const at = T0 - Math.floor(rng() * 12 * 24) * HOUR;
      const calls = Array.from({ length: 1 + (i % 5) }, (_, k) => ({
        tool: `tool_${k}`,
        status: 'success' as const,
        retries: 0,
        consumes: [],
        at,
      }));
      await engineStore(c).insertExecution('t', { id: `run-${i}`, intent: `task ${i}`, startedAt: at, calls });
    }
    await c.observe(Array.from({ length: 30 }, (_, i) => obs(`habit number ${i}`, Math.floor(rng() * 12 * 24))));
    const days = 7;
    const { timeline } = await confidencePayload(c, { days });
    // A day is the UTC calendar day of the date the timeline labels it with.
    const dayOf = (at: number) => (at > T0 ? -1 : Math.floor(T0 / 86_400_000) - Math.floor(at / 86_400_000));
    const expected = Array.from({ length: days }, () => ({ executions: 0, calls: 0, observations: 0 }));
    for (const e of await engineStore(c).listExecutions('t')) {
      const slot = expected[days - 1 - dayOf(e.startedAt)];
      if (slot === undefined) continue;
      slot.executions += 1;
      slot.calls += e.calls.length;
    }
    for (const o of await engineStore(c).listObservations('t')) {
      const slot = expected[days - 1 - dayOf(o.timestamp)];
      if (slot !== undefined) slot.observations += 1;
    }
    expect(timeline.map((d) => ({ executions: d.executions, calls: d.calls, observations: d.observations }))).toEqual(
      expected,
    );
    for (const [i, d] of timeline.entries()) {
      expect(d.day).toBe(new Date(T0 - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10));
    }
    expect(timeline.reduce((n, d) => n + d.executions, 0)).toBeGreaterThan(10);
    expect(timeline.reduce((n, d) => n + d.observations, 0)).toBeGreaterThan(10);
    await c.close();
  });
});

describe("the dashboard's Confidence timeline: UTC calendar days", () => {
  it('counts two runs at 09:00Z and 21:00Z on one date on that date, whatever the hour now is', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const now = Date.parse('2026-11-27T20:00:00Z');
    const c = await openCredence({ store, scope: 't', now, cwd: base });
    for (const [id, at] of [
      ['morning', '2026-11-20T09:00:00Z'],
      ['evening', '2026-11-20T21:00:00Z'],
    ] as const) {
      await engineStore(c).insertExecution('t', { id, intent: id, startedAt: Date.parse(at), calls: [] });
    }
    const { timeline } = await confidencePayload(c, { days: 30 });
    expect(timeline.at(-1)?.day).toBe('2026-11-27');
    expect(timeline.filter((d) => d.executions > 0).map((d) => [d.day, d.executions])).toEqual([['2026-11-20', 2]]);
    await c.close();
  });
});

describe("the dashboard's Confidence timeline: new edges by UTC calendar day", () => {
  // Review C item 5: the edges' day was `floor((now - firstSeen) / day)` (24-hour periods back from now), and an
  // edge before the window was one seen `days` periods before now: untested until this.
  it("counts an edge on its first confirmation's date, one of the window's eve in edgesSoFar only", async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const now = Date.parse('2026-11-27T20:00:00Z');
    const c = await openCredence({ store, scope: 'e', now, cwd: base });
    const firstSeen = {
      a: '2026-11-20T19:00:00Z', // the day before the window: counted in edgesSoFar only
      b: '2026-11-20T21:00:00Z', // also that day, though less than 7 × 24 hours before now
      c: '2026-11-21T09:00:00Z', // the window's first day
      d: '2026-11-26T21:00:00Z', // yesterday, less than 24 hours before now
      e: '2026-11-27T01:00:00Z', // today
      f: '2026-11-28T01:00:00Z', // after now: on no day
    };
    for (const [to, at] of Object.entries(firstSeen)) {
      await store.putEdge('e', {
        from: 'start',
        to,
        type: 'sequence',
        source: 'observed',
        count: 3,
        successes: 3,
        failures: 0,
        firstSeen: Date.parse(at),
        lastSeen: Date.parse(at),
      });
    }
    const { timeline } = await confidencePayload(c, { days: 7 });
    expect(timeline.map((d) => [d.day, d.newEdges, d.edgesSoFar])).toEqual([
      ['2026-11-21', 1, 3],
      ['2026-11-22', 0, 3],
      ['2026-11-23', 0, 3],
      ['2026-11-24', 0, 3],
      ['2026-11-25', 0, 3],
      ['2026-11-26', 1, 4],
      ['2026-11-27', 1, 5],
    ]);
    await c.close();
  });
});

describe("the dashboard's Learning evidence (issue 20)", () => {
  it('reads the observations an instinct cites, and shows a cited one deleted since as gone', async () => {
    const store = openSqliteStore({ path: ':memory:' });
    const c = await openCredence({ store, scope: 'l', now: T0, cwd: base });
    await c.observe([obs('Run the linter before committing', 3), obs('Lint first, then commit', 2)]);
    await c.observe(Array.from({ length: 60 }, (_, i) => obs(`unrelated note ${i}`, 1)));
    const cited = (await engineStore(c).listObservations('l')).filter((o) => /lint/i.test(o.observation));
    expect(cited).toHaveLength(2);
    await engineStore(c).upsertInstinct('l', {
      id: 'lint-first',
      slug: 'lint-first',
      text: 'Lint before committing',
      confidence: 0.6,
      status: 'active',
      evidence: [...cited.map((o) => o.id), 'obs-gone'],
      createdAt: T0,
      updatedAt: T0,
    });
    const view = await learningPayload(c);
    expect(view.instincts[0]?.evidence).toEqual([
      ...cited.map((o) => ({
        id: o.id,
        type: 'preference',
        observation: o.observation,
        confidence: 0.6,
        at: new Date(o.timestamp).toISOString(),
      })),
      { id: 'obs-gone', gone: true },
    ]);
    expect(view.instincts[0]?.evidenceTotal).toBe(3);
    expect(view.metrics.observations).toMatchObject({ total: 62, byType: { preference: 62, pattern: 0 } });
    // A long evidence list shows the latest cited (its end), and counts them all.
    const notes = (await engineStore(c).listObservations('l')).filter((o) => o.observation.startsWith('unrelated'));
    await engineStore(c).upsertSkill('l', {
      id: 'notes',
      name: 'notes',
      description: 'Keep notes',
      rules: ['Keep notes'],
      confidence: 0.8,
      evidence: notes.map((o) => o.id),
      createdAt: T0,
      updatedAt: T0,
    });
    const skill = (await learningPayload(c)).skills[0];
    expect(notes.length).toBe(60);
    expect(skill?.evidenceTotal).toBe(60);
    expect(skill?.evidence.map((e) => e.id)).toEqual(notes.map((o) => o.id).slice(10));
    await c.close();
  });
});

describe("the dashboard's Learning view: probability beside the confidence (walk 9, item 3)", () => {
  const habit = (c: Awaited<ReturnType<typeof openCredence>>, id: string) =>
    Promise.all([
      engineStore(c).upsertInstinct('p', {
        id: `i-${id}`,
        slug: `i-${id}`,
        text: `Instinct ${id}`,
        confidence: 0.6,
        status: 'active',
        evidence: [],
        createdAt: T0 - 86_400_000,
        updatedAt: T0 - 86_400_000,
      }),
      engineStore(c).upsertSkill('p', {
        id: `s-${id}`,
        name: `s-${id}`,
        description: `Skill ${id}`,
        rules: [`Rule ${id}`],
        confidence: 0.8,
        evidence: [],
        createdAt: T0 - 86_400_000,
        updatedAt: T0 - 86_400_000,
      }),
    ]);

  it('carries the probability the learning view gives each instinct and skill, or why there is none', async () => {
    let t = T0 - 3_600_000;
    const store = openSqliteStore({ path: ':memory:' });
    const c = await openCredence({ store, scope: 'p', now: () => t, cwd: base });
    await habit(c, 'a');
    // Too few outcomes: each item says why it has no probability.
    let view = await learningPayload(c);
    expect(view.instincts[0]).toMatchObject({
      probabilityWhy: expect.stringMatching(/^0 instinct outcomes of the 30/),
    });
    expect(view.skills[0]).toMatchObject({ probabilityWhy: expect.stringMatching(/^0 skill outcomes of the 30/) });
    // 40 verdicts on each: a probability learned from them, as the engine's learning view has it.
    for (let i = 0; i < 40; i++) {
      t += 60_000;
      await c.feedback('i-a', i % 3 === 0 ? 'contradicts' : 'validated');
      await c.feedback('s-a', i % 4 === 0 ? 'contradicts' : 'validated');
    }
    t = T0;
    const engine = await c.learningView();
    view = await learningPayload(c);
    for (const kind of ['instincts', 'skills'] as const) {
      const item = view[kind][0] as unknown as Record<string, unknown>;
      const own = engine[kind][0] as unknown as Record<string, unknown>;
      expect(item.probability).toEqual(expect.any(Number));
      expect(item.probability).toBe(own.probability);
      expect(item.probabilityBasis).toEqual(own.probabilityBasis);
      expect(item.probabilityBasis).toMatchObject({ kind: kind.slice(0, -1), outcomes: 40 });
      expect(item).not.toHaveProperty('probabilityWhy');
    }
    await c.close();
  });
});
