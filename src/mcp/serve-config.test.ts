/**
 * Walk 7, item 9: `serve(c, { mode: 'tcp' })` (any mode but 'stdio') served HTTP without a word, and `port: -5` gave
 * a raw RangeError from Node; checkServeConfig passed both. Each is now INVALID_INPUT naming the field.
 */
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../test/helpers.js';
import { isCredenceError } from '../core/errors.js';
import { openCredence } from '../engine/engine.js';
import { checkServeConfig, serve, type ServeConfig } from './serve.js';

const config = (fields: Record<string, unknown>): ServeConfig => fields as unknown as ServeConfig;

describe('checkServeConfig', () => {
  it.each([
    [{ mode: 'tcp' }, "mode must be 'stdio' or 'http', got \"tcp\""],
    [{}, "mode must be 'stdio' or 'http', got none"],
    [{ mode: 'http', port: -5 }, 'port must be a whole number from 0 to 65535 (0 picks a free port), got -5'],
    [{ mode: 'http', port: 65536 }, 'got 65536'],
    [{ mode: 'http', port: 1.5 }, 'got 1.5'],
    [{ mode: 'http', port: Number.NaN }, 'got NaN'],
    [{ mode: 'http', port: '3001' }, 'got "3001"'],
  ])('refuses %j: INVALID_INPUT naming the field', (fields, message) => {
    let error: unknown;
    try {
      checkServeConfig(config(fields));
    } catch (e) {
      error = e;
    }
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as Error).message).toContain(message);
    expect(Object.keys((error as { details?: object }).details ?? {})).toEqual([Object.keys(fields).at(-1) ?? 'mode']);
  });

  // Review C (walk 7): a library caller was told `--host 0.0.0.0 …: add --allow-remote`, the CLI's flags.
  it("names a remote host's options as ServeConfig spells them, and the CLI's flags when given them", () => {
    const said = (fields: Record<string, unknown>, names?: Parameters<typeof checkServeConfig>[1]): string => {
      try {
        checkServeConfig(config(fields), names);
      } catch (error) {
        return `${(error as { code?: string }).code}: ${(error as Error).message}`;
      }
      return 'taken';
    };
    const remote = { mode: 'http', host: '0.0.0.0' };
    expect(said(remote)).toBe(
      'INVALID_INPUT: host 0.0.0.0 is not a loopback address: set allowRemote: true (and a bearer token) to serve ' +
        'other machines',
    );
    expect(said({ ...remote, allowRemote: true, token: 'short' })).toBe(
      'INVALID_INPUT: serving on 0.0.0.0 needs a bearer token of at least 16 characters (token)',
    );
    expect(said({ mode: 'stdio', autoExecuteThreshold: 2 })).toBe(
      'INVALID_INPUT: autoExecuteThreshold must be in [0, 1], got 2',
    );
    const flags = { host: '--host', allowRemote: 'add --allow-remote', token: '--token', autoExecuteThreshold: '-t' };
    expect(said(remote, flags)).toMatch(
      /^INVALID_INPUT: --host 0\.0\.0\.0 is not a loopback address: add --allow-remote/,
    );
  });

  it('takes stdio, http and the ports 0 to 65535', () => {
    for (const fields of [
      { mode: 'stdio' },
      { mode: 'http' },
      { mode: 'http', port: 0 },
      { mode: 'http', port: 65535 },
    ])
      expect(codeOf(() => checkServeConfig(config(fields)))).toBeUndefined();
  });

  it('serve refuses a mode it does not know before listening, instead of serving HTTP', async () => {
    const credence = await openCredence({ db: ':memory:', scope: 's' });
    const said: string[] = [];
    const ready: unknown[] = [];
    const error = await serve(credence, config({ mode: 'tcp', port: 0 }), {
      stderr: (text) => said.push(text),
      env: {},
      cwd: process.cwd(),
      stopped: Promise.resolve(),
      ready: (info) => ready.push(info),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    expect(ready).toEqual([]);
    expect(said).toEqual([]);
    await credence.close();
  });
});
