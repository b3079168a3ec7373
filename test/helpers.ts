/**
 * Helpers shared by the test files (not a test file itself: vitest does not collect it).
 */

import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isCredenceError, type CredenceError } from '../src/core/errors.js';
import { findChromium, NO_CHROMIUM } from '../bench/chromium.js';

/**
 * The code of the CredenceError `fn` throws: undefined when it throws nothing, and
 * `'not a CredenceError'` when it throws anything else, so that an assertion on the code fails on
 * a plain Error as well as on no error at all.
 */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isCredenceError(error) ? error.code : 'not a CredenceError';
  }
  return undefined;
}

/**
 * Where the public evaluation data lives (`../shared/data` beside the repository) and whether it
 * is there. When it is absent (a user's fresh clone), prints one line saying which tests skip.
 */
export function sharedData(what: string): { dataDir: string; hasData: boolean } {
  const dataDir = fileURLToPath(new URL('../../shared/data/', import.meta.url));
  const hasData = existsSync(dataDir);
  if (!hasData) console.log(`skipping: ../shared/data is absent (${what} run where it is)`);
  return { dataDir, hasData };
}

/** What `fn` throws (undefined when it throws nothing), for assertions on the error itself. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The CredenceError a promise rejects with; anything else (or no rejection) fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<CredenceError> {
  try {
    await promise;
  } catch (error) {
    if (isCredenceError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/**
 * The dashboard's base address (without the final slash) once a `credence serve` or `demo --serve`
 * process prints it on stderr; rejects with what it printed if the process exits first.
 */
export function dashboardAddress(server: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let text = '';
    server.stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const m = /dashboard at (http:\/\/[^\s]+\/)/.exec(text);
      if (m?.[1] !== undefined) resolve(m[1].replace(/\/$/, ''));
    });
    server.once('exit', (code) => reject(new Error(`credence serve exited with ${code}: ${text}`)));
  });
}

/** The real binary, as a user's `credence` runs it. */
export const CREDENCE_BIN = fileURLToPath(new URL('../bin/credence.cjs', import.meta.url));

/**
 * The environment of a test's `credence` process: the caller's, with no store, scope or clock inherited from it and
 * `home` as HOME (so nothing reads or writes the user's own store), then `extra`.
 */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    CREDENCE_DB: '',
    CREDENCE_DATABASE_URL: '',
    CREDENCE_NOW: '',
    CREDENCE_SCOPE: '',
    HOME: home,
    ...extra,
  };
}

/** Runs the real binary to its end in `cwd` (also HOME): its exit code and what it printed. */
export function runCredence(
  args: readonly string[],
  cwd: string,
  options: { env?: Record<string, string>; input?: string; home?: string } = {},
): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CREDENCE_BIN, ...args], {
    cwd,
    encoding: 'utf8',
    ...(options.input === undefined ? {} : { input: options.input }),
    env: isolatedEnv(options.home ?? cwd, options.env),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The headless Chromium of the browser tests named `what`, or undefined: then the file's tests skip with one line,
 * and in CI (CI=true), where Chromium is installed by the project's scripts, its absence is an error.
 */
export function chromiumFor(what: string): string | undefined {
  const executablePath = findChromium();
  if (executablePath === undefined) {
    if (process.env.CI === 'true') throw new Error(`${what} cannot run in CI: ${NO_CHROMIUM}`);
    console.log(`${what} skipped: ${NO_CHROMIUM}`);
  }
  return executablePath;
}
