import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../../src/index.js';
import type { CallInput } from '../../src/core/types.js';
import { engineStore } from '../../src/engine/engine.js';
import { rejection } from '../helpers.js';
import { storeArgs, storeEnv } from '../pg.js';

const bin = fileURLToPath(new URL('../../bin/credence.cjs', import.meta.url));
const library = new URL('../../dist/src/index.js', import.meta.url).href;
const dir = mkdtempSync(join(tmpdir(), 'credence-append-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = '2026-03-02T00:00:00Z';
const START = Date.parse('2026-03-01T09:00:00Z');
let n = 0;
const open: Credence[] = [];
afterAll(async () => {
  for (const credence of open) await credence.close();
});

/** An engine on a fresh database file, with a fixed clock and no environment. */
async function fresh(): Promise<{ credence: Credence; db: string }> {
  const db = join(dir, `append-${(n += 1)}.db`);
  let id = 0;
  const credence = await openCredence(
    { ...storeEnv(db).open, scope: 'session', cwd: dir, now: NOW, newId: () => `run-${(id += 1)}` },
    {},
  );
  open.push(credence);
  return { credence, db };
}

/** A session as an MCP gateway sees it: repeated edges, a dependency two calls back, a failure and its replacement. */
const SESSION: CallInput[] = [
  { tool: 'read_file', status: 'success', at: START },
  { tool: 'parse_json', status: 'success', consumes: [0], at: START + 1_000 },
  { tool: 'read_file', status: 'success', at: START + 2_000 },
  { tool: 'parse_json', status: 'success', consumes: [2], at: START + 3_000 },
  { tool: 'write_file', status: 'partial', consumes: [1, 3], durationMs: 800, at: START + 4_000 },
  { tool: 'fetch_v1', status: 'failure', at: START + 5_000 },
  { tool: 'fetch_v2', status: 'success', consumes: [4], at: START + 6_000 },
];
const INTENT = 'rewrite the config and publish it';

describe('appendCalls: an execution recorded call by call (MCP and Claude Code sessions)', () => {
  it('a session appended call by call learns the same edges as the same execution recorded whole', async () => {
    const appended = (await fresh()).credence;
    const whole = (await fresh()).credence;
    // Three sessions: the edges seen in each one go inferred → observed the same way.
    for (const id of ['s1', 's2', 's3']) {
      for (const call of SESSION) await appended.appendCalls({ id, intent: INTENT, startedAt: START }, [call]);
      await whole.recordExecution({ intent: INTENT, startedAt: START, calls: SESSION });
    }
    const edges = await appended.edges();
    expect(edges).toEqual(await whole.edges());
    expect(edges.find((e) => e.type === 'sequence' && e.from === 'read_file' && e.to === 'parse_json')).toMatchObject({
      source: 'observed',
      count: 3,
    });
    expect(edges.find((e) => e.type === 'alternative')).toMatchObject({ from: 'fetch_v1', to: 'fetch_v2', count: 3 });
    expect(await appended.suggestNext('read_file', { track: false })).toEqual(
      await whole.suggestNext('read_file', { track: false }),
    );
  });

  it("shows one execution in credence's status, in the library and on the command line", async () => {
    const { credence, db } = await fresh();
    for (const call of SESSION)
      await credence.appendCalls({ id: 'mcp-session-42', intent: INTENT, startedAt: START }, [call]);
    const status = await credence.status();
    expect(status.counts).toMatchObject({ executions: 1, calls: SESSION.length, tools: 5 });
    const cli = spawnSync(
      process.execPath,
      [bin, ...storeArgs(db), '--scope', 'session', '--now', NOW, 'status', '--json'],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, HOME: dir } },
    );
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout).counts).toMatchObject({ executions: 1, calls: SESSION.length });
    const stored = await engineStore(credence).getExecution('session', 'mcp-session-42');
    // The end moved on with each call: the latest call's time plus its duration.
    expect(stored).toMatchObject({ intent: INTENT, startedAt: START, endedAt: START + 6_000 });
  });

  it('says where the appended calls went, which tools were new and which edges they updated', async () => {
    const { credence } = await fresh();
    const head = { id: 'hooks-1', intent: INTENT, startedAt: '2026-03-01T09:00:00Z' };
    const first = await credence.appendCalls(head, SESSION.slice(0, 2));
    expect(first).toMatchObject({
      executionId: 'hooks-1',
      created: true,
      firstIndex: 0,
      calls: 2,
      newTools: ['read_file', 'parse_json'],
      edgesUpdated: 2,
    });
    const second = await credence.appendCalls(head, SESSION.slice(2, 4));
    // read_file → parse_json was already counted in this execution: only parse_json → read_file is new.
    expect(second).toMatchObject({
      executionId: 'hooks-1',
      created: false,
      firstIndex: 2,
      calls: 4,
      newTools: [],
      edgesUpdated: 1,
    });
    expect(second.edges.map((e) => `${e.type} ${e.from}->${e.to} ${e.count}`)).toEqual([
      'sequence parse_json->read_file 1',
    ]);
    // A call without a time ran now.
    await credence.appendCalls(head, [{ tool: 'ls', status: 'success' }]);
    expect((await engineStore(credence).getExecution('session', 'hooks-1'))?.calls[4]?.at).toBe(Date.parse(NOW));
  });

  it('lets a call consume a call stored by an earlier append, found from the calls already stored', async () => {
    const { credence } = await fresh();
    const head = { id: 'hooks-2', intent: INTENT };
    await credence.appendCalls(head, SESSION.slice(0, 3));
    const result = await credence.appendCalls(head, (before) => [
      { tool: 'parse_json', status: 'success', consumes: [before.findLastIndex((c) => c.tool === 'read_file'), 0, 0] },
    ]);
    expect(result.firstIndex).toBe(3);
    expect((await engineStore(credence).getExecution('session', 'hooks-2'))?.calls[3]?.consumes).toEqual([0, 2]);
    expect((await credence.edges({ from: 'read_file', to: 'parse_json' })).map((e) => [e.type, e.count])).toEqual([
      ['dependency', 1],
      ['sequence', 1],
    ]);
  });

  it('refuses a consumes or parent that names no earlier call of the execution, and stores nothing', async () => {
    const { credence } = await fresh();
    const head = { id: 'hooks-3', intent: INTENT };
    await credence.appendCalls(head, SESSION.slice(0, 2));
    const later = await rejection(
      credence.appendCalls(head, [{ tool: 'write_file', status: 'success', consumes: [2] }]),
    );
    expect(later.code).toBe('INVALID_INPUT');
    expect(later.message).toContain('calls[2].consumes');
    expect(
      (
        await rejection(
          credence.appendCalls(head, [
            { tool: 'ls', status: 'success' },
            { tool: 'cat', status: 'success', parent: 3 },
          ]),
        )
      ).code,
    ).toBe('INVALID_INPUT');
    expect((await rejection(credence.appendCalls(head, [{ tool: 'ls', status: 'done' as 'success' }]))).code).toBe(
      'INVALID_INPUT',
    );
    expect((await rejection(credence.appendCalls({ id: '', intent: INTENT }, []))).code).toBe('INVALID_INPUT');
    expect((await rejection(credence.appendCalls({ id: 'x', intent: INTENT, startedAt: 'yesterday' }, []))).code).toBe(
      'INVALID_INPUT',
    );
    // A new execution whose first call consumes anything is refused before it exists.
    expect(
      (
        await rejection(
          credence.appendCalls({ id: 'hooks-4', intent: INTENT }, [{ tool: 'ls', status: 'success', consumes: [0] }]),
        )
      ).code,
    ).toBe('INVALID_INPUT');
    expect((await credence.status()).counts).toMatchObject({ executions: 1, calls: 2, tools: 2 });
  });

  it('two processes appending to one session at once lose no call and count each edge once', async () => {
    const { credence, db } = await fresh();
    // Each process appends 60 calls, each consuming the call stored just before it, whoever wrote it.
    const script = (tools: string[]) =>
      `
      const { openCredence } = await import(${JSON.stringify(library)});
      const credence = await openCredence(` +
      `{ ...${JSON.stringify(storeEnv(db).open)}, scope: 'session', now: ${JSON.stringify(NOW)} }, {});
      const tools = ${JSON.stringify(tools)};
      for (let i = 0; i < 60; i += 1) {
        await credence.appendCalls({ id: 'shared', intent: 'two hooks at once' }, (before) => [
          { tool: tools[i % tools.length], status: 'success', ` +
      `consumes: before.length === 0 ? [] : [before.length - 1], at: ${START} + before.length },
        ]);
      }
      await credence.close();`;
    const run = (tools: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script(tools)], {
          cwd: dir,
          env: { ...process.env, HOME: dir },
        });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('close', (code) => resolve({ code, stderr }));
      });
    const results = await Promise.all([
      run(['read_file', 'parse_json', 'grep']),
      run(['write_file', 'parse_json', 'ls', 'cat']),
    ]);
    expect(results).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);
    const stored = await engineStore(credence).getExecution('session', 'shared');
    expect(stored?.calls).toHaveLength(120);
    expect(stored?.calls.map((c) => c.at)).toEqual(Array.from({ length: 120 }, (_, i) => START + i));
    expect(stored?.calls.every((c, i) => (i === 0 ? c.consumes.length === 0 : c.consumes[0] === i - 1))).toBe(true);
    // The same calls recorded whole give the same edges.
    const whole = (await fresh()).credence;
    await whole.recordExecution({
      intent: 'two hooks at once',
      startedAt: START,
      calls: (stored?.calls ?? []).map(({ tool, status, consumes, at }) => ({
        tool,
        status,
        consumes,
        ...(at === undefined ? {} : { at }),
      })),
    });
    expect(await credence.edges()).toEqual(await whole.edges());
  });
});
