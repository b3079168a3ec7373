/**
 * @module test/projects
 * Test projects for the learning tests: a folder with `.git` under one temporary base, and an engine over one
 * in-memory store whose clock the test moves; and a correction the user said, as the hooks store it.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { openCredence } from '../src/engine/engine.js';
import { openSqliteStore } from '../src/store/sqlite/index.js';

/**
 * A maker of projects under a temporary folder named `prefix` (removed after the file's tests): each project has
 * its own root and in-memory store, and `at(t)` opens an engine on it whose clock reads `t` until moved again.
 */
export function movableProjects(prefix: string, start: number) {
  const base = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  let n = 0;
  return () => {
    const root = join(base, `p${(n += 1)}`);
    mkdirSync(join(root, '.git'), { recursive: true });
    let now = start;
    const store = openSqliteStore({ path: ':memory:' });
    const at = async (t: number) => {
      now = t;
      return openCredence({ store, scope: 's', now: () => now, cwd: root });
    };
    return { root, store, at };
  };
}

/** A correction the user said, as the hooks store it (type correction, confidence 0.7, tagged source:user), at `at`. */
export const userCorrection = (text: string, at: number) => ({
  timestamp: new Date(at).toISOString(),
  type: 'correction' as const,
  observation: text,
  confidence: 0.7,
  tags: ['hook', 'correction', 'source:user'],
});
