// Runs vitest with the services the tests need (npm test calls this after build and typecheck).
// In CI (CI=true): installs Debian's postgresql and chromium when missing, starts a throwaway
// PostgreSQL cluster for the run and stops it after, so the PostgreSQL half and the browser tests run.
// Elsewhere: uses CREDENCE_TEST_DATABASE_URL / CREDENCE_CHROMIUM when set (CREDENCE_TEST_PG=start
// starts a throwaway cluster too); without them those tests skip, each with a line saying why.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromiumPath, dropTestSchemas, ensureDebianPackages, postgresBinDir, startPostgres } from './services.mjs';

const ci = process.env.CI === 'true';
const env = { ...process.env };
let pg;

if (ci) {
  ensureDebianPackages([
    ...(env.CREDENCE_TEST_DATABASE_URL ? [] : [{ pkg: 'postgresql', present: () => postgresBinDir() !== undefined }]),
    ...(env.CREDENCE_CHROMIUM ? [] : [{ pkg: 'chromium', present: () => chromiumPath() !== undefined }]),
  ]);
}
if (!env.CREDENCE_TEST_DATABASE_URL && (ci || env.CREDENCE_TEST_PG === 'start')) {
  pg = await startPostgres();
  env.CREDENCE_TEST_DATABASE_URL = pg.url;
  process.stderr.write(`[test] PostgreSQL for this run: ${pg.url} (pid ${pg.pid})\n`);
}
if (!env.CREDENCE_CHROMIUM && chromiumPath() !== undefined) env.CREDENCE_CHROMIUM = chromiumPath();

const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
/**
 * The end-to-end files that reach their store through test/pg.ts storeArgs / storeEnv, run a second
 * time on PostgreSQL. Files that open PostgreSQL themselves (pgTestUrl: security-queries,
 * security-crash, nul-text, dump-restore, store-concurrency) already run both stores and are not here.
 */
const E2E_ON_POSTGRES = [
  'test/e2e/tool-graph.test.ts',
  'test/e2e/dag.test.ts',
  'test/e2e/learned-dag.test.ts',
  'test/e2e/learning.test.ts',
  'test/e2e/recall.test.ts',
  'test/e2e/hook-replay.test.ts',
  'test/e2e/append-calls.test.ts',
  'test/e2e/mcp-server.test.ts',
  'test/e2e/security-hooks.test.ts',
  'test/e2e/hook-clones.test.ts',
  'test/e2e/untrusted-rules.test.ts',
  'test/e2e/mcp-stdio-end.test.ts',
  'test/e2e/gateway-readme.test.ts',
];

let child;
const run = (args, extraEnv = {}) =>
  new Promise((resolve) => {
    child = spawn(process.execPath, [vitest, 'run', ...args], { stdio: 'inherit', env: { ...env, ...extraEnv } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child?.kill(signal));

let code = 1;
try {
  const args = process.argv.slice(2);
  code = await run(args);
  // A whole run with a server: the core end-to-end flows again, on PostgreSQL.
  if (code === 0 && args.length === 0 && env.CREDENCE_TEST_DATABASE_URL) {
    process.stderr.write(
      '[test] the core end-to-end files again on PostgreSQL (CREDENCE_E2E_STORE=postgres): ' +
        `${E2E_ON_POSTGRES.join(' ')}\n`,
    );
    code = await run(E2E_ON_POSTGRES, { CREDENCE_E2E_STORE: 'postgres' });
    // On a server of the user's own (not our throwaway cluster), leave no test schema behind.
    if (pg === undefined) await dropTestSchemas(env.CREDENCE_TEST_DATABASE_URL);
  }
} finally {
  if (pg !== undefined) await pg.stop();
}
process.exit(code);
