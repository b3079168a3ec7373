/**
 * `credence edges`: an edge's date is its last confirmation. Fix B.4: an edge known only from failed calls said
 * "last seen never", though it had been seen (its failures counted); its date is the latest run in which it
 * succeeded (lastSeen, whence its decay), and the line now says so.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliIn } from '../../test/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-edges-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const credence = (argv: string[]) =>
  cliIn(dir, ['--db', join(dir, 'e.db'), '--scope', 'p', '--now', '2026-03-05T00:00:00Z', ...argv]);

const run = (day: string, status: string) =>
  JSON.stringify({
    intent: 'read then parse',
    startedAt: `2026-03-0${day}T09:00:00Z`,
    calls: [
      { tool: 'read_file', status: 'success' },
      { tool: 'parse_json', status, consumes: [0] },
    ],
  });

describe('credence edges', () => {
  it('dates an edge by its last confirmation: never for one seen only failing, then its last success', async () => {
    const file = join(dir, 'runs.jsonl');
    writeFileSync(file, `${run('1', 'failure')}\n`);
    expect((await credence(['record', '--jsonl', file])).code).toBe(0);
    const failing = (await credence(['edges'])).stdout;
    expect(failing).toMatch(
      /read_file → parse_json {2}dependency\/inferred .* ok 0 failed 1 {2}last confirmed never$/m,
    );
    expect(failing).not.toContain('last seen');

    writeFileSync(file, `${run('2', 'success')}\n${run('3', 'failure')}\n`);
    expect((await credence(['record', '--jsonl', file])).code).toBe(0);
    // Seen failing on the 3rd, confirmed last on the 2nd: the date is the confirmation's, as the line says.
    expect((await credence(['edges'])).stdout).toMatch(
      /read_file → parse_json {2}dependency\/inferred .* ok 1 failed 2 {2}last confirmed 2026-03-02T09:00:00\.000Z$/m,
    );
  });
});
