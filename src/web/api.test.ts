import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { askPayload, learningPayload } from './api.js';

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
