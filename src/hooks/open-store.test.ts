import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCredenceError } from '../core/errors.js';
import { openHookStore } from './open-store.js';
import { parseHookPayload } from './payload.js';
import { runPromptHook } from './prompt.js';
import { hookFilesBase } from '../platform/paths.js';
import { spoolDirFor } from './spool.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-hook-open-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the hooks open the store one way (issue 18)', () => {
  it('reads an existing SQLite file read-only, so a prompt never takes the write lock', async () => {
    const db = join(dir, 'read.db');
    const writer = await openHookStore(db, {});
    await writer.upsertTools('s', [{ id: 'jq', description: 'JSON processor' }]);
    await writer.close();
    const reader = await openHookStore(db, {}, { read: true });
    expect((await reader.listTools('s')).map((t) => t.id)).toEqual(['jq']);
    await expect(reader.upsertTools('s', [{ id: 'sed', description: 'stream editor' }])).rejects.toThrow();
    await reader.close();
  });

  it('creates the database when a prompt comes before any learning hook', async () => {
    const reader = await openHookStore(join(dir, 'new.db'), {}, { read: true });
    expect(await reader.listTools('s')).toEqual([]);
    await reader.close();
  });
});

// Walk 5: a team server that accepts TCP and never answers (a VPN or firewall half-open) held each prompt 10 s,
// past the 5 s Claude Code gives it. The hooks give it 2 s, then fail open naming the store unreachable.
describe('a team server that never answers', () => {
  let server: Server;
  let url = '';
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `postgres://team:s3cret@127.0.0.1:${(server.address() as AddressInfo).port}/credence`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const hookEnv = (db: string) => ({ CREDENCE_DB: db, CREDENCE_DATABASE_URL: url });
  const project = join(dir, 'project');
  const payload = (event: string) => {
    const parsed = parseHookPayload(
      JSON.stringify({ session_id: 's1', cwd: project, hook_event_name: event, prompt: 'where is the config?' }),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.payload;
  };

  it('is given 2 s to connect, then is named unreachable (STORE_UNAVAILABLE), its password hidden', async () => {
    // The learning hooks' open (the prompt's, read, is the next test's).
    const db = join(dir, 'team.db');
    const started = performance.now();
    const failed = await openHookStore(db, hookEnv(db)).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(3500);
    expect(isCredenceError(failed, 'STORE_UNAVAILABLE') && failed.message).toBe(
      `the PostgreSQL store at ${url.replace('s3cret', '***')} is unreachable (no answer within 2 s): ` +
        'the server is down or out of reach; retry later',
    );
  }, 20_000);

  it('a prompt fails open in under 3.5 s, one line naming the store unreachable; it stays spooled', async () => {
    mkdirSync(join(project, '.git'), { recursive: true });
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const db = join(dir, 'hooks.db');
    const started = performance.now();
    const out = await runPromptHook(payload('UserPromptSubmit'), hookEnv(db));
    expect(performance.now() - started).toBeLessThan(3500);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/^credence hook: UserPromptSubmit: the PostgreSQL store at \S+ is unreachable \(no/);
    expect(out.stderr.trimEnd().split('\n')).toHaveLength(1);
    // Spooled for this team store (a spool of its own, platform/paths hookFilesBase), not the SQLite file's.
    const spool = spoolDirFor(hookFilesBase(db, url, hookEnv(db)));
    expect(readdirSync(spool).filter((name) => !name.startsWith('.'))).toHaveLength(1);
  }, 20_000);
});
