/**
 * A team server down or out of reach (walk 5): named unreachable (STORE_UNAVAILABLE, `details.unreachable`), within
 * the connect timeout the opener gives, when opening and when a store in use loses its server; back once it is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCredenceError } from '../../core/errors.js';
import { openPgStore } from './pg-store.js';

/** A TCP server that accepts connections and never answers (a VPN or firewall half-open). */
async function silentServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.on('data', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('a PostgreSQL server out of reach', () => {
  let silent: Awaited<ReturnType<typeof silentServer>>;
  beforeAll(async () => {
    silent = await silentServer();
  });
  afterAll(() => silent.close());

  it('that never answers fails the open after connectTimeoutMs, named unreachable, its password hidden', async () => {
    const started = performance.now();
    const failed = await openPgStore({
      url: `postgres://team:s3cret@127.0.0.1:${silent.port}/credence`,
      connectTimeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(isCredenceError(failed, 'STORE_UNAVAILABLE') && failed.message).toBe(
      `the PostgreSQL store at postgres://team:***@127.0.0.1:${silent.port}/credence is unreachable ` +
        '(no answer within 0.3 s): the server is down or out of reach; retry later',
    );
    expect(isCredenceError(failed) && failed.details).toMatchObject({ unreachable: true });
  });

  it('that refuses the connection is unreachable too; a bad timeout is refused', async () => {
    const closed = await silentServer();
    await closed.close();
    const failed = await openPgStore({ url: `postgres://team:pw@127.0.0.1:${closed.port}/credence` }).catch(
      (e: unknown) => e,
    );
    expect(isCredenceError(failed, 'STORE_UNAVAILABLE') && failed.message).toContain(
      'is unreachable (ECONNREFUSED): the server is down or out of reach; retry later',
    );
    // Review C: a stopped server behind a unix socket leaves no socket file (ENOENT on connect): unreachable too.
    const socketDir = mkdtempSync(join(tmpdir(), 'credence-pg-socket-'));
    try {
      const gone = await openPgStore({ url: `postgres://team:pw@/credence?host=${socketDir}` }).catch(
        (e: unknown) => e,
      );
      expect(isCredenceError(gone, 'STORE_UNAVAILABLE') && gone.message).toContain(
        'is unreachable (ENOENT): the server is down or out of reach; retry later',
      );
    } finally {
      rmSync(socketDir, { recursive: true, force: true });
    }
    const bad = await openPgStore({ url: 'postgres://x@127.0.0.1:1/y', connectTimeoutMs: 0 }).catch((e: unknown) => e);
    expect(isCredenceError(bad, 'INVALID_INPUT') && bad.message).toBe(
      'connectTimeoutMs must be a whole number >= 1, got 0',
    );
  });
});
