// What the test run needs besides Node: a throwaway PostgreSQL cluster and Debian's Chromium.
// Used by scripts/test.mjs (npm test) and by `node scripts/services.mjs postgres` for a dev cluster.
// In CI (CI=true) missing Debian packages are installed with apt-get; elsewhere nothing is installed.
import { spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const log = (line) => process.stderr.write(`[services] ${line}\n`);

/** The directory holding initdb and postgres from Debian's packages (newest major first), or undefined. */
export function postgresBinDir() {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root)
      .filter((d) => /^\d+$/.test(d))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const dir = join(root, major, 'bin');
      if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres'))) return dir;
    }
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const initdb = which.stdout.trim();
  return initdb === '' ? undefined : join(initdb, '..');
}

export const chromiumPath = () => ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** Installs the Debian packages (by package name) whose check fails, in one apt-get run. */
export function ensureDebianPackages(wanted) {
  const missing = wanted.filter((w) => !w.present()).map((w) => w.pkg);
  if (missing.length === 0) return;
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args) => {
    const [cmd, ...rest] = [...asRoot, ...args];
    const result = spawnSync(cmd, rest, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (result.status !== 0) throw new Error(`${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  };
  run(['apt-get', 'update', '-qq']);
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const canConnect = (port) =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/**
 * Starts a throwaway PostgreSQL cluster on 127.0.0.1 (trust auth, no fsync: test data only) and
 * returns its URL and a stop function that ends it by its pid and removes its directory.
 * initdb refuses to run as root, so as root the cluster belongs to the `postgres` user (runuser).
 */
export async function startPostgres() {
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error('PostgreSQL is not installed (no initdb): apt-get install postgresql');
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'credence-pg-'));
  const as = (cmd, args) => (root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);
  if (root)
    chownSync(
      dir,
      Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout),
      Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout),
    );
  const data = join(dir, 'data');
  const [initCmd, initArgs] = as(join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--no-sync',
    '--locale=C',
  ]);
  const init = spawnSync(initCmd, initArgs, { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const settings = [
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
    '-c',
    'max_connections=300',
    '-c',
    'shared_buffers=128MB',
    '-c',
    'log_min_messages=warning',
  ];
  const [cmd, args] = as(join(bin, 'postgres'), [
    '-D',
    data,
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-k',
    dir,
    ...settings,
  ]);
  const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: false });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + 30_000;
  while (!(await canConnect(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`PostgreSQL did not start on port ${port}: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // Accepting TCP connections comes a moment before accepting logins; wait for a real one.
  const psql = join(bin, 'psql');
  for (let i = 0; i < 100; i += 1) {
    const ok = existsSync(psql)
      ? spawnSync(psql, ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-c', 'SELECT 1', '-qAt'], {
          encoding: 'utf8',
        }).status === 0
      : true;
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    if (!exited) {
      // SIGINT is PostgreSQL's fast shutdown; sent to the postmaster by the pid it wrote (runuser,
      // our child, would pass it on too, but the server's own pid is the one that counts).
      let postmaster = 0;
      try {
        postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        // No pid file: the server never got that far; signal runuser.
      }
      if (Number.isInteger(postmaster) && postmaster > 0) process.kill(postmaster, 'SIGINT');
      else child.kill('SIGINT');
      const waited = Date.now() + 15_000;
      while (!exited && Date.now() < waited) await new Promise((r) => setTimeout(r, 50));
      if (!exited) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
  return { url, pid: child.pid, stop };
}

/** Drops the schemas the end-to-end files made (test/pg.ts: credence_e2e_…). */
export async function dropTestSchemas(url) {
  const { default: pgDriver } = await import('pg');
  const client = new pgDriver.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'credence\\_e2e\\_%'`);
    for (const { nspname } of rows) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  } catch (error) {
    process.stderr.write(`[test] could not drop the test schemas: ${error.message}\n`);
  } finally {
    await client.end().catch(() => {});
  }
}

// `node scripts/services.mjs postgres`: a dev cluster until Ctrl-C; prints its URL.
if (import.meta.url === `file://${process.argv[1]}` && process.argv[2] === 'postgres') {
  const pg = await startPostgres();
  process.stdout.write(`${pg.url}\n`);
  log(`PostgreSQL running (pid ${pg.pid}); Ctrl-C stops it`);
  const end = () => pg.stop().then(() => process.exit(0));
  process.on('SIGINT', end);
  process.on('SIGTERM', end);
}
