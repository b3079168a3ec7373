/**
 * What evolve tells of a skill over several runs (walk 12, item 8): the evolution log has a line for each contradiction
 * applied and each skill file withdrawn; a later run's report does not repeat an earlier run's contradiction; "rule
 * added" only for a rule the skill did not have, dated the day it was added.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';
import { formatEvolveReport } from './evolve.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-02T09:00:00Z');
const setup = movableProjects('credence-evolve-log-', T0);

const said = (text: string, at: number, type: 'correction' | 'preference' | 'pattern' = 'correction') => ({
  timestamp: new Date(at).toISOString(),
  type,
  observation: text,
  confidence: 0.7,
  tags: ['source:user'],
});
const REVERSALS = ["actually, don't use rg anymore, use git grep", 'use git grep instead of rg'];
const RG = ['Always use rg instead of grep', 'Always use rg instead of grep', 'always use rg instead of grep!!'];

describe('evolve over several runs', () => {
  it('logs each contradiction and the withdrawn file; reports one only in the run applying it', async () => {
    const { root, at } = setup();
    const first = await at(T0 + 2 * DAY + 3_600_000);
    await first.observe(RG.map((text, k) => said(text, T0 + k * DAY)));
    const rg = (await first.evolve({ skillsDir: 'skills' })).skillsUpdated[0];
    const reports = [];
    for (const [k, text] of REVERSALS.entries()) {
      const t = T0 + (16 + 2 * k) * DAY;
      const c = await at(t + 3_600_000);
      await c.observe([said(text, t)]);
      reports.push(await c.evolve({ skillsDir: 'skills' }));
    }
    const [second, third] = reports;
    expect(
      second?.contradictions.map((c) => [c.text, c.applied?.before.toFixed(2), c.applied?.after.toFixed(2)]),
    ).toEqual([["actually, don't use rg anymore, use git grep", '0.91', '0.61']]);
    // The third run reports its own contradiction only, with its own step.
    expect(
      third?.contradictions.map((c) => [c.text, c.applied?.before.toFixed(2), c.applied?.after.toFixed(2)]),
    ).toEqual([['use git grep instead of rg', '0.61', '0.31']]);
    expect(formatEvolveReport(third as NonNullable<typeof third>).match(/-0\.3 on skill/g)).toHaveLength(1);

    const log = readFileSync(join(root, '.credence/evolution.log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { at: string; kind: string; id: string; detail: string });
    expect(
      log.filter((e) => e.kind !== 'skill-created').map((e) => [e.at.slice(0, 10), e.kind, e.id, e.detail]),
    ).toEqual([
      ['2026-11-18', 'contradiction', rg?.name, `-0.3 by "${REVERSALS[0]}" (0.91 → 0.61)`],
      ['2026-11-20', 'contradiction', rg?.name, '-0.3 by "use git grep instead of rg" (0.61 → 0.31)'],
      ['2026-11-20', 'skill-withdrawn', rg?.name, 'confidence 0.31 below 0.5'],
    ]);
  });

  it('says "rule added" only for a rule the skill did not have, dated the day it was added', async () => {
    const { root, at } = setup();
    const PNPM = ['Use pnpm for installs', 'Install dependencies with pnpm', 'Always use pnpm to install packages'];
    const first = await at(T0 + 2 * DAY + 3_600_000);
    await first.observe(PNPM.map((text, k) => said(text, T0 + k * DAY, 'preference')));
    const made = (await first.evolve({ skillsDir: 'skills' })).skillsUpdated[0];
    const file = join(root, made?.file as string);
    const rule = made?.rule as string;

    // The same rule said again: seen again, not added.
    const again = await at(T0 + 5 * DAY);
    await again.observe([said(rule, T0 + 5 * DAY - 3_600_000, 'preference')]);
    const seen = await again.evolve({ skillsDir: 'skills' });
    expect(seen.skillsUpdated.map((s) => [s.id, s.ruleAdded])).toEqual([[made?.id, false]]);
    expect(formatEvolveReport(seen)).toContain(`- ${made?.name}: seen again, rule "${rule}"`);

    // Seen again on 2026-11-25, the habit adds a rule the skill did not have: dated that day, in later runs too.
    const later = await at(T0 + 23 * DAY + 3_600_000);
    const wording = 'Always install packages with pnpm';
    await later.observe([said(wording, T0 + 23 * DAY - DAY / 2, 'pattern'), said(wording, T0 + 23 * DAY, 'pattern')]);
    const added = await later.evolve({ skillsDir: 'skills', sinceMs: DAY });
    const entry = added.skillsUpdated[0];
    expect([entry?.id, entry?.ruleAdded, entry?.rule === rule]).toEqual([made?.id, true, false]);
    expect(formatEvolveReport(added)).toContain(`- ${made?.name}: rule added "${entry?.rule}"`);
    const dated = (text: string) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(`- ${text} (`))
        ?.slice(-11, -1);
    expect([dated(rule), dated(entry?.rule as string)]).toEqual(['2026-11-04', '2026-11-25']);
    await (await at(T0 + 25 * DAY)).evolve({ skillsDir: 'skills' });
    expect([dated(rule), dated(entry?.rule as string)]).toEqual(['2026-11-04', '2026-11-25']);
  });
});
