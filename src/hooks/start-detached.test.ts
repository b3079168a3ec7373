import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processHandleClass, startDetached } from './start-detached.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-start-detached-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts a Node program that writes `word` to its stderr (a file), through `Handle`; resolves with the file's text. */
async function started(word: string, Handle: Parameters<typeof startDetached>[1]): Promise<string> {
  const file = join(dir, `${word}.log`);
  const fd = openSync(file, 'a');
  const problem = await startDetached(
    {
      file: process.execPath,
      args: ['-e', 'process.stderr.write(process.env.WORD)'],
      env: { PATH: process.env.PATH ?? '', WORD: word },
      stderr: fd,
    },
    Handle,
  );
  closeSync(fd);
  expect(problem).toBeUndefined();
  for (let i = 0; i < 300; i += 1) {
    const text = readFileSync(file, 'utf8');
    if (text !== '') return text;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return readFileSync(file, 'utf8');
}

describe('startDetached', () => {
  it("starts the program with Node's process handle, its stderr to the file given", async () => {
    const Handle = processHandleClass();
    // Offered on the Node majors it was written for (20, 22, 24), child_process elsewhere.
    const known = [20, 22, 24].includes(Number(process.versions.node.split('.')[0]));
    expect(Handle === undefined).toBe(!known);
    expect(await started('handle', Handle)).toBe('handle');
  }, 30_000);

  it('falls back to child_process where there is no handle, or one that refuses the options', async () => {
    expect(await started('none', undefined)).toBe('none');
    class Refusing {
      spawn(): number {
        throw new TypeError('unknown options');
      }
      unref(): void {}
      close(): void {}
    }
    expect(await started('refused', Refusing)).toBe('refused');
  }, 30_000);
});

describe('processHandleClass', () => {
  const host = (node: string, seen: { quiet?: boolean }) =>
    ({
      versions: { node },
      noDeprecation: undefined,
      binding(this: { noDeprecation?: boolean }, name: string) {
        seen.quiet = this.noDeprecation;
        return name === 'process_wrap' ? { Process: class {} } : {};
      },
    }) as unknown as NodeJS.Process;

  it('holds back the deprecation warning of process.binding and restores the setting', () => {
    const seen: { quiet?: boolean } = {};
    const h = host('20.20.2', seen);
    expect(processHandleClass(h)).toBeTypeOf('function');
    expect(seen.quiet).toBe(true);
    expect(h.noDeprecation).toBeUndefined();
  });

  it('is not used on a Node whose handle it was not written for, nor where the binding throws', () => {
    const seen: { quiet?: boolean } = {};
    expect(processHandleClass(host('26.0.0', seen))).toBeUndefined();
    expect(seen.quiet).toBeUndefined();
    const throwing = {
      versions: { node: '22.1.0' },
      binding: () => {
        throw new Error('No such module');
      },
    };
    expect(processHandleClass(throwing as unknown as NodeJS.Process)).toBeUndefined();
  });
});
