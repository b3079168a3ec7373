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
      /read_file → parse_json {2}dependency\/inferred .* in 0 runs {2}ok 0 failed 1 {2}last confirmed never$/m,
    );
    expect(failing).not.toContain('last seen');

    writeFileSync(file, `${run('2', 'success')}\n${run('3', 'failure')}\n`);
    expect((await credence(['record', '--jsonl', file])).code).toBe(0);
    // Seen failing on the 3rd, confirmed last on the 2nd: the date is the confirmation's, as the line says.
    expect((await credence(['edges'])).stdout).toMatch(
      /read_file → parse_json {2}dependency\/inferred .* in 1 run {2}ok 1 failed 2 {2}last confirmed 2026-03-02T/m,
    );
  });

  // Fix B2 (review B, 6): a hand-declared edge counts as confirmed (core isConfirmed) but read "last confirmed never";
  // the count read "count N" here, "seen N times" in next and "confirmed N times" on the dashboard.
  it('counts the runs that confirmed the edge, as next does, and says a never-confirmed one was declared', async () => {
    expect((await credence(['edge', 'add', 'lint', 'test', '--type', 'dependency'])).code).toBe(0);
    const lines = (await credence(['edges'])).stdout;
    expect(lines).toMatch(
      /^lint → test {2}dependency\/template .* confirmed in 0 runs .* last confirmed never \(declared by hand\)$/m,
    );
    const next = (await credence(['--json', 'next', 'lint'])).stdout;
    expect(JSON.parse(next)[0].why).toBe('dependency edge declared by hand, not yet confirmed by a run');
  });

  it('says so when --now is before evidence the store holds (walk 6, item 10d): no past view', async () => {
    const early = (argv: string[]) =>
      cliIn(dir, ['--db', join(dir, 'e.db'), '--scope', 'p', '--now', '2026-03-01T12:00:00Z', ...argv]);
    const r = await early(['edges']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'credence: 2 edge(s) were last confirmed after 2026-03-01T12:00:00.000Z (up to 2026-03-02T09:00:00.000Z): ' +
        'the store keeps no history of an edge, so their counts and confidence include that later evidence ' +
        '(no decay at a time before it); this is not a view of the graph as it was then\n',
    );
    expect((await early(['edges', '--json'])).stderr).toContain('2 edge(s) were last confirmed after');
    expect((await credence(['edges'])).stderr).toBe('');
  });
});
