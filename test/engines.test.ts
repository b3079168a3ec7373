/**
 * `engines.node` states the Node release the code needs (issue 18, item 9): `process.getBuiltinModule`
 * (called by the recall and store hashing) arrived in Node 20.16.0 and 22.3.0, so `>=20` promised
 * too much. The lock file's root package says the same.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../', import.meta.url));
const readJson = (name: string): unknown => JSON.parse(readFileSync(`${repo}${name}`, 'utf8'));

/** The lowest version a `>=X[.Y[.Z]]` range admits, as [major, minor, patch]. */
function minimum(range: string): [number, number, number] {
  const match = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(range.trim());
  if (match === null) throw new Error(`engines.node ${JSON.stringify(range)} is not a ">=X.Y.Z" range`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

const atLeast = (a: readonly number[], b: readonly number[]): boolean => {
  for (let i = 0; i < 3; i += 1) if ((a[i] as number) !== (b[i] as number)) return (a[i] as number) > (b[i] as number);
  return true;
};

describe('engines', () => {
  const pkg = readJson('package.json') as { engines: { node: string } };

  it('admits no Node release older than 20.16.0, the first 20.x with process.getBuiltinModule', () => {
    expect(atLeast(minimum(pkg.engines.node), [20, 16, 0])).toBe(true);
  });

  it('is the same in package-lock.json as in package.json', () => {
    const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: { node?: string } }> };
    expect(lock.packages['']?.engines?.node).toBe(pkg.engines.node);
  });

  it('is met by the Node running the tests, which has process.getBuiltinModule', () => {
    const [major, minor, patch] = process.versions.node.split('.').map(Number) as [number, number, number];
    expect(atLeast([major, minor, patch], minimum(pkg.engines.node))).toBe(true);
    expect(typeof process.getBuiltinModule).toBe('function');
  });
});
