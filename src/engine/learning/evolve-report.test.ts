import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';
import { formatEvolveReport } from './evolve.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-02-02T09:00:00Z');
const setup = movableProjects('credence-evolve-report-', T0);

// Seed 004's three camelCase observations: an instinct at 0.65.
const CAMEL: [string, number][] = [
  ['User asks for camelCase naming', 0.4],
  ['Correction: snake_case → camelCase', 0.5],
  ['All the code uses camelCase', 0.6],
];

describe('the evolve report lists only what changed', () => {
  it('run again a minute later with nothing new, lists no instinct as updated; days on, lists the decay', async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe(
      CAMEL.map(([observation, confidence], k) => ({
        timestamp: new Date(T0 - (3 - k) * 60_000).toISOString(),
        type: 'correction' as const,
        observation,
        confidence,
      })),
    );
    const first = await c.evolve();
    const instinct = first.newInstincts[0];
    expect(instinct).toBeDefined();
    const file = join(root, instinct?.file as string);
    const text = readFileSync(file, 'utf8');
    const log = readFileSync(join(root, '.credence', 'evolution.log.jsonl'), 'utf8');

    // A minute on the wall clock: the evidence is a minute older, the confidence moves in its last digits only.
    const again = await (await at(T0 + 60_000)).evolve();
    const [stored] = await store.listInstincts('s');
    expect(stored?.confidence).not.toBe(instinct?.confidence);
    expect(stored?.confidence.toFixed(2)).toBe(instinct?.confidence.toFixed(2));
    expect(again.updatedInstincts).toEqual([]);
    expect(formatEvolveReport(again)).not.toContain('Instincts updated');
    expect(readFileSync(file, 'utf8')).toBe(text);
    expect(readFileSync(join(root, '.credence', 'evolution.log.jsonl'), 'utf8')).toBe(log);

    // Three days on, the decay shows in the second decimal: listed, with the confidence the file now says.
    const later = await (await at(T0 + 3 * DAY)).evolve();
    expect(later.updatedInstincts.map((i) => i.id)).toEqual([instinct?.id]);
    const shown = later.updatedInstincts[0]?.confidence.toFixed(2) as string;
    expect(shown).not.toBe(instinct?.confidence.toFixed(2));
    expect(formatEvolveReport(later)).toContain(`### Instincts updated (1)\n- [${shown}]`);
    expect(readFileSync(file, 'utf8')).toContain(`confidence: ${shown}`);
  });
});

describe('the evolve report says why wordings became one habit (issue 21)', () => {
  it('names the identifier a template was read as saying in passing', async () => {
    const { at } = setup();
    const c = await at(T0);
    const ids = ['max_retries', 'api_client', 'row_count'];
    const texts = [...ids.map((id) => `Renamed ${id} to camelCase at the user's request`), 'Always use camelCase'];
    await c.observe(
      texts.flatMap((observation, t) =>
        [0, 1, 2].map((k) => ({
          timestamp: new Date(T0 - (12 - t * 3 - k) * 60_000).toISOString(),
          type: 'correction' as const,
          observation,
          confidence: 0.7,
        })),
      ),
    );
    const report = await c.evolve();
    const renamed = report.joined.find((j) => j.texts[0]?.includes('max_retries'));
    expect(renamed?.why).toBe('"max retries" read as a detail: an identifier its template names in passing');
    const details = report.joined.filter((j) => j.why.includes('read as a detail'));
    expect(details.flatMap((j) => j.texts)).not.toContain('Always use camelCase');
    expect(formatEvolveReport(report)).toContain(
      `### Wordings joined (${report.joined.length})\n- "Renamed max_retries to camelCase at the user's request": ` +
        '"max retries" read as a detail',
    );
  });
});

describe('renames and wordings added to an instinct', () => {
  const HOUR = 3_600_000;
  const corrections = (texts: readonly string[], end: number, confidence = 0.7) =>
    texts.map((observation, k) => ({
      timestamp: new Date(end - (texts.length - k) * HOUR).toISOString(),
      type: 'correction' as const,
      observation,
      confidence,
    }));

  it('explains a rename by the case it keeps and names the skill after that case', async () => {
    const c = await setup().at(T0);
    const renames = ['max_retries to maxRetries', 'api_client to apiClient', 'row_count to rowCount'];
    await c.observe(
      corrections(
        renames.map((r) => `Changed ${r} as the user asked`),
        T0,
      ),
    );
    const report = await c.evolve();
    const whys = report.joined.filter((j) => j.texts.length === 1).map((j) => j.why);
    expect(whys).toHaveLength(3);
    for (const why of whys)
      expect(why).toMatch(/read as a detail: the identifier renamed, the habit is the camel case$/);
    expect(report.skillsUpdated.map((s) => s.name)).toEqual(['camel-case']);
  });

  it('lists an instinct a run adds a wording to under "Wordings joined", as one it makes', async () => {
    const { at } = setup();
    await (await at(T0)).observe(
      corrections(['Run lint before you push', 'Always lint before pushing', 'No, lint first, then push'], T0, 0.5),
    );
    expect((await (await at(T0)).evolve()).newInstincts).toHaveLength(1);
    const later = await at(T0 + 10 * HOUR);
    await later.observe(corrections(['Please lint the code before every push'], T0 + 10 * HOUR, 0.5));
    const report = await later.evolve();
    expect(report.updatedInstincts).toHaveLength(1);
    const joined = report.joined.find((j) => j.texts.includes('Please lint the code before every push'));
    expect(joined?.why).toMatch(/^4 wordings of one habit/);
  });
});

describe("the report's ignored header (walk 17, item 11)", () => {
  it('says how many groups its lines are when they hold more observations than lines', async () => {
    const { at } = setup();
    const c = await at(T0);
    const obs = (observation: string, minutes: number) => ({
      timestamp: new Date(T0 - minutes * 60_000).toISOString(),
      type: 'error' as const,
      observation,
      confidence: 0.6,
      tags: ['hook', 'Bash', 'source:tool-output'],
    });
    await c.observe([
      obs('tests failed: npm run integration', 3),
      obs('tests failed: npm run integration', 2),
      obs('Read failed: file not found', 1),
    ]);
    const text = formatEvolveReport(await c.evolve());
    const lines = text.split('\n');
    const header = lines.findIndex((l) => l.startsWith('### Observations ignored'));
    const listed = lines.slice(header + 1).filter((l) => l.startsWith('- ')).length;
    expect([lines[header], listed]).toEqual(['### Observations ignored (3 in 2 groups)', 2]);
  });
});
