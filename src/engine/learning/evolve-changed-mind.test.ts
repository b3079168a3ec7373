/**
 * A changed mind (walk 12, item 2): the user reverses a rule Credence learned ("actually, use spaces, not tabs"). Each
 * reversal takes 0.3 from the old skill, whatever else its group holds, the old skill is withdrawn below 0.5, and the
 * new rule is learned as a pattern of its own once said three times; the report says what happened.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects, userCorrection as said } from '../../../test/projects.js';
import { sessionContext } from '../../hooks/context.js';
import { formatEvolveReport } from './evolve.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-02T09:00:00Z');
const setup = movableProjects('credence-evolve-changed-mind-', T0);

const TABS = ['Use tabs, not spaces.', 'Use tabs, not spaces.', 'Never indent with spaces — tabs.'];
const SPACES = [
  'actually, use spaces, not tabs — we moved to prettier defaults',
  'use spaces instead of tabs now',
  'no, use spaces instead of tabs from now on',
];

describe('a rule the user reversed', () => {
  it('said three times in one session: the old skill loses 0.3 a time and goes, the new one is learned', async () => {
    const { root, store, at } = setup();
    const first = await at(T0 + 2 * DAY + 3_600_000);
    await first.observe(TABS.map((text, k) => said(text, T0 + k * DAY)));
    const tabs = (await first.evolve({ skillsDir: 'skills' })).skillsUpdated[0];
    expect(tabs?.confidence).toBeGreaterThan(0.9);
    const tabsFile = join(root, tabs?.file as string);
    expect(existsSync(tabsFile)).toBe(true);

    const later = await at(T0 + 14 * DAY + 3_600_000);
    await later.observe(SPACES.map((text, k) => said(text, T0 + 14 * DAY + k * 60_000)));
    const report = await later.evolve({ skillsDir: 'skills' });
    const text = formatEvolveReport(report);
    expect(text).not.toContain("no observation in the user's own words");
    // One −0.3 per reversal, on the tabs skill.
    expect(report.contradictions.map((c) => [c.text, c.applied?.to, c.applied?.delta])).toEqual(
      SPACES.map((s) => [s, tabs?.id, -0.3]),
    );
    const events = await store.listFeedback('s', tabs?.id as string);
    expect(events.map((e) => e.kind)).toEqual(['contradiction', 'contradiction', 'contradiction']);
    // Below 0.5: no longer learned, its file withdrawn, said in the report.
    expect(existsSync(tabsFile)).toBe(false);
    expect(report.ignored).toContainEqual(
      expect.objectContaining({ why: expect.stringMatching(/^skill tabs at 0\.01 below 0\.5; .*its file withdrawn$/) }),
    );
    // The new rule, from the three reversals, is a skill of its own with its file.
    const spaces = report.skillsUpdated.find((s) => s.id !== tabs?.id);
    expect(spaces).toMatchObject({ created: true, rule: SPACES[0] });
    expect((await store.listSkills('s')).find((k) => k.id === spaces?.id)?.evidence).toHaveLength(3);
    expect(existsSync(join(root, spaces?.file as string))).toBe(true);

    // Run again a week later: nothing more is taken, the new skill stays, the old one stays withdrawn.
    const again = await (await at(T0 + 21 * DAY)).evolve({ skillsDir: 'skills' });
    expect(again.contradictions.filter((c) => c.applied !== undefined)).toEqual([]);
    expect(await store.listFeedback('s', tabs?.id as string)).toHaveLength(3);
    expect(await store.listFeedback('s', spaces?.id as string)).toEqual([]);
    expect(existsSync(join(root, spaces?.file as string))).toBe(true);
    expect(existsSync(tabsFile)).toBe(false);
  });

  it('said once per run: each lowers the old skill once, and the third makes the new rule', async () => {
    const { root, store, at } = setup();
    const first = await at(T0 + 2 * DAY + 3_600_000);
    const RG = ['Always use rg instead of grep', 'Always use rg instead of grep', 'always use rg instead of grep!!'];
    await first.observe(RG.map((text, k) => said(text, T0 + k * DAY)));
    const rg = (await first.evolve({ skillsDir: 'skills' })).skillsUpdated[0];
    const GIT_GREP = [
      "actually, don't use rg anymore, use git grep",
      'use git grep instead of rg',
      'no, use git grep instead of rg',
    ];
    const reports = [];
    for (const [k, text] of GIT_GREP.entries()) {
      const t = T0 + (16 + 2 * k) * DAY;
      const c = await at(t + 3_600_000);
      await c.observe([said(text, t)]);
      reports.push(await c.evolve({ skillsDir: 'skills' }));
    }
    expect(await store.listFeedback('s', rg?.id as string)).toHaveLength(3);
    expect(existsSync(join(root, rg?.file as string))).toBe(false);
    const [, , last] = reports;
    const learned = [...(last?.skillsUpdated ?? []), ...(last?.newInstincts ?? [])].filter((x) => x.id !== rg?.id);
    expect(learned).toHaveLength(1);
    const gitGrep = learned[0]?.id as string;
    const record = [...(await store.listSkills('s')), ...(await store.listInstincts('s'))].find(
      (x) => x.id === gitGrep,
    );
    expect(new Set(record?.evidence.map((id) => id))).toHaveProperty('size', 3);
  });

  it('changed back (review D, item 4): said 3 times since the last change, the rule is learned again', async () => {
    // Before the machine's clock: the last run is a month after the first.
    const T1 = Date.parse('2026-10-01T09:00:00Z');
    const BACK = [
      'actually, go back to tabs, not spaces',
      'use tabs, not spaces again',
      'no, use tabs instead of spaces',
    ];
    const { root, store, at } = setup();
    const first = await at(T1 + 2 * DAY + 3_600_000);
    await first.observe(TABS.map((text, k) => said(text, T1 + k * DAY)));
    const tabs = (await first.evolve({ skillsDir: 'skills' })).skillsUpdated[0];
    const later = await at(T1 + 14 * DAY + 3_600_000);
    await later.observe(SPACES.map((text, k) => said(text, T1 + 14 * DAY + k * 60_000)));
    const spaces = (await later.evolve({ skillsDir: 'skills' })).skillsUpdated.find((k) => k.id !== tabs?.id);
    expect(spaces?.confidence).toBeGreaterThan(0.9);
    const contradictionsOn = async (id: string | undefined) =>
      (await store.listFeedback('s', id as string)).filter((f) => f.kind === 'contradiction').map((f) => f.note);
    expect(await contradictionsOn(tabs?.id)).toEqual(SPACES);

    // Tabs again, said twice: each takes its 0.3 from spaces; tabs, said only twice since, keeps its contradictions.
    const twice = await at(T1 + 30 * DAY + 3_600_000);
    await twice.observe(BACK.slice(0, 2).map((text, k) => said(text, T1 + 30 * DAY + k * 60_000)));
    const notYet = await twice.evolve({ skillsDir: 'skills' });
    expect(notYet.lifted).toBeUndefined();
    expect(await contradictionsOn(tabs?.id)).toEqual(SPACES);
    expect(await contradictionsOn(spaces?.id)).toEqual(BACK.slice(0, 2));

    // The third time: spaces takes its last 0.3 and goes; the three reversals of tabs are lifted, tabs is learned.
    const third = await at(T1 + 31 * DAY + 3_600_000);
    await third.observe([said(BACK[2] as string, T1 + 31 * DAY)]);
    const report = await third.evolve({ skillsDir: 'skills' });
    const text = formatEvolveReport(report);
    expect(text).toMatch(/skill spaces-prettier at 0\.01 below 0\.5; no file written/);
    expect(await contradictionsOn(spaces?.id)).toEqual(BACK);
    // Given back the latest first (walk 16, item 13).
    expect(report.lifted?.map((l) => [l.text, l.name, l.kind, l.before.toFixed(2), l.after.toFixed(2)])).toEqual([
      [SPACES[2], 'tabs', 'skill', '0.10', '0.40'],
      [SPACES[1], 'tabs', 'skill', '0.40', '0.70'],
      [SPACES[0], 'tabs', 'skill', '0.70', '1.00'],
    ]);
    expect(text).toContain('### Contradictions lifted (3)');
    expect(await contradictionsOn(tabs?.id)).toEqual([]);
    const learned = report.skillsUpdated.find((k) => k.id === tabs?.id);
    expect(learned?.confidence).toBeGreaterThanOrEqual(0.9);
    // Loaded again: its file, without the lifted contradictions, and the session's context.
    const file = readFileSync(join(root, learned?.file as string), 'utf8');
    expect(file).toContain('Use tabs, not spaces.');
    expect(file).not.toContain('prettier');
    const context = await sessionContext(store, 's', { cwd: root, now: T1 + 31 * DAY + 7_200_000, env: {} });
    expect(context).toContain('Use tabs, not spaces.');
    expect(context).not.toContain('use spaces');
    // The evolution log says what was lifted, with its step.
    const log = readFileSync(join(root, '.credence/evolution.log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { kind: string; id: string; detail: string })
      .filter((e) => e.kind === 'contradiction-lifted');
    expect(log.map((e) => [e.id, e.detail])).toEqual(
      [...SPACES]
        .reverse()
        .map((s, k) => [
          'tabs',
          `+0.30 back: ${JSON.stringify(s)} (2026-10-15) reversed by "${learned?.rule}", said 3 times since ` +
            `(${['0.10 → 0.40', '0.40 → 0.70', '0.70 → 1.00'][k]})`,
        ]),
    );

    // A week later: nothing lifted or taken again, tabs stays learned, spaces withdrawn.
    const again = await (await at(T1 + 38 * DAY)).evolve({ skillsDir: 'skills' });
    expect(again.lifted).toBeUndefined();
    expect(again.contradictions.filter((c) => c.applied !== undefined)).toEqual([]);
    expect(await contradictionsOn(tabs?.id)).toEqual([]);
    expect(await contradictionsOn(spaces?.id)).toEqual(BACK);
    expect(existsSync(join(root, learned?.file as string))).toBe(true);

    // Spaces once more: that one takes its 0.3 from tabs; the three tabs said since lifted the older ones for good.
    const once = await at(T1 + 40 * DAY + 3_600_000);
    await once.observe([said('use spaces, not tabs', T1 + 40 * DAY)]);
    const last = await once.evolve({ skillsDir: 'skills' });
    expect(last.contradictions.filter((c) => c.applied !== undefined).map((c) => [c.text, c.applied?.to])).toEqual([
      ['use spaces, not tabs', tabs?.id],
    ]);
    expect(await contradictionsOn(tabs?.id)).toEqual(['use spaces, not tabs']);
  });

  it('both habits new in one run: what was said since is learned, what it replaced is held back', async () => {
    const { store, at } = setup();
    const c = await at(T0 + 20 * DAY);
    await c.observe([
      ...TABS.map((text, k) => said(text, T0 + k * DAY)),
      ...SPACES.map((text, k) => said(text, T0 + 18 * DAY + k * 60_000)),
    ]);
    const report = await c.evolve({ skillsDir: 'skills' });
    expect(formatEvolveReport(report)).not.toContain("no observation in the user's own words");
    const skills = await store.listSkills('s');
    expect(skills.map((k) => k.description)).toEqual([SPACES[0]]);
    expect(report.contradictions.every((x) => SPACES.includes(x.text) && x.heldBack !== undefined)).toBe(true);
  });
});

describe('contradictions lifted where a confidence was held at 0 (walk 16, item 13)', () => {
  it('says what each gave back, the latest first, so the lines add up to the figures beside them', async () => {
    const T1 = Date.parse('2026-10-01T10:00:00Z');
    const { at } = setup();
    const tabs = 'Use tabs, not spaces.';
    const spaces = 'Actually, use spaces, not tabs.';
    const first = await at(T1 + 2 * DAY + 14 * 3_600_000);
    await first.observe([0, 1, 2].map((k) => said(tabs, T1 + k * DAY)));
    await first.evolve({ skillsDir: 'skills' });
    const second = await at(T1 + 6 * DAY + 14 * 3_600_000);
    await second.observe([3, 4, 5, 6].map((k) => said(spaces, T1 + k * DAY)));
    const taken = await second.evolve({ skillsDir: 'skills' });
    // The fourth took nothing: the confidence was already held at 0.
    const steps = taken.contradictions.map((c) => [c.applied?.before.toFixed(2), c.applied?.after.toFixed(2)]);
    expect(steps[3]).toEqual(['0.00', '0.00']);
    const third = await at(T1 + 21 * DAY + 14 * 3_600_000);
    await third.observe([19, 20, 21].map((k) => said(tabs, T1 + k * DAY)));
    const report = await third.evolve({ skillsDir: 'skills' });
    const lifted = report.lifted ?? [];
    expect(lifted.map((l) => l.at.slice(0, 10))).toEqual(['2026-10-07', '2026-10-06', '2026-10-05', '2026-10-04']);
    // The one that took nothing gives back least; each line's own figure is its after − before.
    for (const l of lifted) expect(l.delta).toBeCloseTo(l.after - l.before, 12);
    expect(lifted[0]?.before).toBe(0);
    expect(lifted[0]?.delta).toBeLessThan(0.3);
    expect(lifted.slice(1).map((l) => l.delta)).toEqual([0.3, 0.3, 0.3]);
    const text = formatEvolveReport(report);
    for (const l of lifted)
      expect(text).toContain(`(+${l.delta.toFixed(2)}: ${l.before.toFixed(2)} → ${l.after.toFixed(2)})`);
    expect(text).not.toContain('(+0.3:');
  });
});
