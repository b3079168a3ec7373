// Runs vitest with the services the tests need (npm test calls this after build and typecheck).
// In CI (CI=true): installs Debian's postgresql and chromium when missing, starts a throwaway
// PostgreSQL cluster for the run and stops it after, so the PostgreSQL half and the browser tests run.
// Elsewhere: uses CREDENCE_TEST_DATABASE_URL / CREDENCE_CHROMIUM when set (CREDENCE_TEST_PG=start
// starts a throwaway cluster too); without them those tests skip, each with a line saying why.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromiumPath, ensureDebianPackages, postgresBinDir, startPostgres } from './services.mjs';

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
const child = spawn(process.execPath, [vitest, 'run', ...process.argv.slice(2)], { stdio: 'inherit', env });
const stop = async () => {
  if (pg !== undefined) await pg.stop();
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', async (code, signal) => {
  await stop();
  process.exit(code ?? (signal ? 1 : 0));
});
