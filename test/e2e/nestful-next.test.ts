import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedData } from '../helpers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const { dataDir, hasData } = sharedData('the NESTFUL end-to-end tests');

const dir = mkdtempSync(join(tmpdir(), 'credence-nestful-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) =>
  spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, HOME: dir } });
const credence = (args: string[]) =>
  run([join(root, 'bin', 'credence.cjs'), '--db', join(dir, 'nestful.db'), '--scope', 'nestful', ...args]);

describe.skipIf(!hasData)('learning from every NESTFUL execution (issue 3)', () => {
  it('ranks the real data-flow successor first', () => {
    const out = join(dir, 'converted');
    expect(run([join(root, 'dist', 'eval', 'convert-datasets.js'), '--data', dataDir, '--out', out]).status).toBe(0);
    expect(credence(['tools', 'add', '--jsonl', join(out, 'nestful-tools.jsonl')]).status).toBe(0);
    const recorded = credence(['record', '--jsonl', join(out, 'nestful-executions.jsonl'), '--json']);
    expect(recorded.status).toBe(0);
    expect(JSON.parse(recorded.stdout)).toMatchObject({ recorded: 300, calls: 800 });

    const next = (tool: string) =>
      JSON.parse(credence(['next', tool, '--json']).stdout) as { tool: string; type: string; source: string }[];
    const airport = next('SkyScrapperSearchAirport');
    expect(airport[0]).toMatchObject({ tool: 'SkyScrapperFlightSearch', type: 'dependency', source: 'observed' });
    const location = next('TripadvisorSearchLocation');
    expect(location[0]).toMatchObject({ tool: 'TripadvisorSearchHotels', type: 'dependency', source: 'observed' });
  });

  it('imports the public catalogues directly, once each', () => {
    const db = ['--db', join(dir, 'catalogues.db'), '--scope', 'catalogues'];
    const add = (args: string[]) =>
      JSON.parse(run([join(root, 'bin', 'credence.cjs'), ...db, 'tools', 'add', ...args, '--json']).stdout);
    expect(add(['--nestful-spec', join(dataDir, 'nestful', 'executable-spec.json')])).toMatchObject({
      inserted: 39,
      updated: 0,
    });
    expect(add(['--seal-tools', join(dataDir, 'seal-tools', 'tool.jsonl')])).toMatchObject({
      inserted: 4076,
      updated: 0,
    });
    expect(add(['--seal-tools', join(dataDir, 'seal-tools', 'tool.jsonl')])).toMatchObject({
      inserted: 0,
      updated: 4076,
    });
  });
});
