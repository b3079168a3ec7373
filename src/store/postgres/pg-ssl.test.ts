/**
 * Walk 5: docs/operations.md's `?sslmode=require` refused a server with a self-signed certificate (node-pg reads
 * it as verify-full) and printed pg-connection-string's 9-line SECURITY WARNING in every process. The store passes
 * libpq's meaning: `require` encrypts without checking the certificate; `verify-full` still checks it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCredenceError } from '../../core/errors.js';
import { libpqSslModes, openPgStore } from './pg-store.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-pg-ssl-'));
const made = spawnSync(
  'openssl',
  ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
    '-subj',
    '/CN=db.example',
    '-keyout',
    join(dir, 'key.pem'),
    '-out',
    join(dir, 'cert.pem'),
  ]),
  { encoding: 'utf8' },
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A server that answers PostgreSQL's SSLRequest with 'S', completes TLS with a self-signed certificate, then never
 * answers (enough to see whether a client accepts the certificate).
 */
async function selfSignedServer(): Promise<{ port: number; handshakes: () => number; close: () => Promise<void> }> {
  const key = readFileSync(join(dir, 'key.pem'));
  const cert = readFileSync(join(dir, 'cert.pem'));
  const sockets: Socket[] = [];
  let handshakes = 0;
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.once('data', () => {
      socket.write('S');
      const secure = new TLSSocket(socket, { isServer: true, key, cert });
      secure.on('secure', () => {
        handshakes += 1;
      });
      secure.on('error', () => {});
      secure.on('data', () => {});
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    handshakes: () => handshakes,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(made.status !== 0)('sslmode against a server with a self-signed certificate', () => {
  let server: Awaited<ReturnType<typeof selfSignedServer>>;
  const warnings: string[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(warning.message);
  };
  beforeAll(async () => {
    server = await selfSignedServer();
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await server.close();
  });
  const open = (mode: string) =>
    openPgStore({ url: `postgres://team:pw@127.0.0.1:${server.port}/credence?sslmode=${mode}`, connectTimeoutMs: 400 })
      .then(() => 'opened')
      .catch((e: unknown) => e);

  it('require and prefer encrypt without checking it (libpq), and print no SECURITY WARNING', async () => {
    for (const mode of ['require', 'prefer', 'no-verify']) {
      const before = server.handshakes();
      const failed = await open(mode);
      // The certificate was accepted: the connection went on to wait for the (silent) server.
      expect(server.handshakes()).toBe(before + 1);
      expect(isCredenceError(failed, 'STORE_UNAVAILABLE') && failed.message).toContain('(no answer within 0.4 s)');
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.includes('SECURITY WARNING'))).toEqual([]);
  });

  it('verify-full still refuses it, naming why', async () => {
    const failed = await open('verify-full');
    expect(isCredenceError(failed, 'STORE_UNAVAILABLE') && failed.message).toContain('self-signed certificate');
  });
});

describe('the sslmode passed to node-pg', () => {
  it("is libpq's for prefer, require and verify-ca with a root certificate; any other URL is unchanged", () => {
    const base = 'postgres://team:p%40ss@db.example:5432/credence';
    expect(libpqSslModes(`${base}?sslmode=require`)).toBe(`${base}?sslmode=require&uselibpqcompat=true`);
    expect(libpqSslModes(`${base}?sslmode=prefer`)).toBe(`${base}?sslmode=prefer&uselibpqcompat=true`);
    expect(libpqSslModes(`${base}?sslmode=verify-ca&sslrootcert=%2Fca.pem`)).toBe(
      `${base}?sslmode=verify-ca&sslrootcert=%2Fca.pem&uselibpqcompat=true`,
    );
    for (const unchanged of [
      base,
      `${base}?sslmode=verify-full`,
      `${base}?sslmode=no-verify`,
      `${base}?sslmode=disable`,
      `${base}?sslmode=verify-ca`,
      `${base}?sslmode=require&uselibpqcompat=false`,
    ])
      expect(libpqSslModes(unchanged)).toBe(unchanged);
  });
});
