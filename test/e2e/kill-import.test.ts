import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const fixture = fileURLToPath(new URL('../fixtures/bulk-import.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'credence-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a bulk import killed with SIGKILL', () => {
  it('leaves a store that opens, passes integrity_check and holds every batch committed before the kill', async () => {
    const path = join(dir, 'killed.db');
    const BATCH = 500;
    const child = spawn(process.execPath, [fixture, path, String(BATCH)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const lastReported = await new Promise<number>((resolve, reject) => {
      let seen = 0;
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop() ?? '';
        for (const line of lines) {
          const m = /^committed (\d+)$/.exec(line);
          if (m?.[1] !== undefined) seen = Number(m[1]);
        }
        if (seen >= 8 * BATCH && child.exitCode === null && !child.killed) {
          child.kill('SIGKILL');
          resolve(seen);
        }
      });
      child.on('exit', (code, signal) => {
        if (signal !== 'SIGKILL') reject(new Error(`importer exited early (${code}): ${stderr}`));
      });
    });
    await new Promise((r) => child.once('close', r));
    expect(child.signalCode).toBe('SIGKILL');

    const store = openSqliteStore({ path });
    expect(await store.check()).toEqual([]);
    const count = (await store.counts('bulk')).observations;
    expect(count).toBeGreaterThanOrEqual(lastReported);
    // Whole batches only: a batch is in completely or not at all.
    expect(count % BATCH).toBe(0);
    // The store still takes writes after the crash.
    const after = await store.insertObservations('bulk', [
      {
        id: 'after-kill',
        timestamp: 1,
        type: 'success',
        context: {},
        observation: 'written after the kill',
        evidence: [],
        confidence: 0.9,
        tags: [],
      },
    ]);
    expect(after.inserted).toBe(1);
    await store.close();
  });
});
