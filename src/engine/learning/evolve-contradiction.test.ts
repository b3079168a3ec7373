import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';
import type { ObservationType } from '../../core/types.js';
import { sessionContext } from '../../hooks/context.js';
import { formatEvolveReport } from './evolve.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-02-02T09:00:00Z');
/** An engine over one in-memory store whose clock can be moved. */
const setup = movableProjects('credence-evolve-contradiction-', T0);

const obs = (text: string, confidence: number, at: number, type: ObservationType = 'preference') => ({
  timestamp: new Date(at).toISOString(),
  type,
  observation: text,
  confidence,
});

const PNPM = ['Use pnpm for installs', 'Install dependencies with pnpm', 'Always use pnpm to install packages'];

describe('a detected contradiction (seed 004: −0.3)', () => {
  it('takes 0.3 from the skill it opposes: store, report, skill file and session context', async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe(PNPM.map((text, k) => obs(text, 0.7, T0 - (3 - k) * 3_600_000)));
    const first = await c.evolve();
    const skill = first.skillsUpdated[0];
    const id = skill?.id as string;
    expect(skill?.confidence).toBeGreaterThanOrEqual(0.9);
    const context = (now: number) => sessionContext(store, 's', { cwd: root, now, env: {} });
    expect(await context(T0)).toContain('pnpm');

    const later = await at(T0 + DAY);
    await later.observe([obs("Don't use pnpm", 0.8, T0 + DAY - 3_600_000)]);
    const report = await later.evolve();
    const before = skill?.confidence as number;
    expect(report.contradictions).toEqual([
      expect.objectContaining({
        applied: { to: id, kind: 'skill', delta: -0.3, before: expect.any(Number), after: expect.any(Number) },
      }),
    ]);
    const applied = report.contradictions[0]?.applied;
    expect(applied?.before).toBeCloseTo(before, 9);
    expect(applied?.after).toBeCloseTo(before - 0.3, 9);
    expect(formatEvolveReport(report)).toMatch(/-0\.3 on skill .*: 0\.91 → 0\.61/);
    // Stored once, as a contradiction event on the skill (explainable: a part named for it).
    const events = await store.listFeedback('s', id);
    expect(events.map((e) => [e.kind, e.note])).toEqual([['contradiction', "Don't use pnpm"]]);
    const memory = await store.getMemory('s', id);
    expect(memory?.confidence).toBeCloseTo(before - 0.3, 9);
    const file = readFileSync(join(root, memory?.path as string), 'utf8');
    expect(file).toContain(`Contradicted by "Don't use pnpm" (${new Date(T0 + DAY).toISOString().slice(0, 10)})`);
    // Below the injection threshold (0.7): no longer loaded at session start.
    expect(await context(T0 + DAY)).not.toContain('pnpm');

    // An outcome of the skill's claim, with the confidence it was stored with (issue 24).
    expect((await store.listOutcomes('s')).map((o) => [o.kind, o.target, o.outcome, o.confidence])).toEqual([
      ['skill', `skill:${id}`, 'contradicted', before],
    ]);

    // A second run applies nothing again, and does not report what the first applied (walk 12, item 8).
    const again = await later.evolve();
    expect(again.contradictions).toEqual([]);
    expect(await store.listFeedback('s', id)).toHaveLength(1);
    expect(await store.listOutcomes('s')).toHaveLength(1);
    expect((await store.getMemory('s', id))?.confidence).toBeCloseTo(before - 0.3, 9);
  });

  it('a learned habit seen again is a validated outcome of its claim, once per new evidence (issue 24)', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    await c.observe(PNPM.map((text, k) => obs(text, 0.7, T0 - (3 - k) * 3_600_000)));
    const skill = (await c.evolve()).skillsUpdated[0];
    expect(await store.listOutcomes('s')).toEqual([]);
    const later = await at(T0 + DAY);
    await later.observe([obs('Use pnpm to install dependencies', 0.7, T0 + DAY - 3_600_000)]);
    await later.evolve();
    await later.evolve();
    expect((await store.listOutcomes('s')).map((o) => [o.kind, o.target, o.outcome, o.confidence])).toEqual([
      ['skill', `skill:${skill?.id}`, 'validated', skill?.confidence],
    ]);
  });

  it('a skill’s outcomes carry the confidence shown then (its feedback so far), not the one stored', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    await c.observe(PNPM.map((text, k) => obs(text, 0.7, T0 - (3 - k) * 3_600_000)));
    const id = (await c.evolve()).skillsUpdated[0]?.id as string;
    const current = async (t: number) => (await (await at(t)).learningView()).skills.find((k) => k.id === id)?.current;
    const outcomes = async (outcome: string) =>
      (await store.listOutcomes('s')).filter((o) => o.outcome === outcome).map((o) => o.confidence);
    // Two verdicts against it a day apart: the second is given on the confidence the first lowered.
    const first = await current(T0 + DAY);
    await (await at(T0 + DAY)).feedback(id, 'rejected');
    const second = await current(T0 + 2 * DAY);
    expect(second).toBeLessThan((first as number) - 0.1);
    await (await at(T0 + 2 * DAY)).feedback(id, 'rejected');
    const rejected = await outcomes('rejected');
    expect(rejected).toHaveLength(2);
    expect(rejected[0]).toBeCloseTo(first as number, 12);
    expect(rejected[1]).toBeCloseTo(second as number, 12);
    // Seen again: validated at the confidence shown then (both verdicts in it).
    const seen = T0 + 3 * DAY - 3_600_000;
    const then = await current(seen);
    const later = await at(T0 + 3 * DAY);
    await later.observe([obs('Use pnpm to install dependencies', 0.7, seen)]);
    await later.evolve();
    const validated = await outcomes('validated');
    expect(validated).toHaveLength(1);
    expect(validated[0]).toBeCloseTo(then as number, 12);
  });

  it('of a group nothing learned: lowers the learned skill it opposes, else says it held it back', async () => {
    // Three corrections of one habit, then its contradiction: the group is not learned (a contradiction this week).
    const held = setup();
    const h = await held.at(T0);
    await h.observe([...PNPM.map((text, k) => obs(text, 0.7, T0 - (3 - k) * 3_600_000))]);
    await h.observe([obs("Don't use pnpm", 0.8, T0 - 1_000_000)]);
    const alone = await h.evolve();
    expect(alone.skillsUpdated).toEqual([]);
    expect(alone.contradictions).toEqual([
      expect.objectContaining({ group: PNPM[0], heldBack: { before: expect.any(Number), after: expect.any(Number) } }),
    ]);
    const heldBack = alone.contradictions[0]?.heldBack;
    expect(alone.contradictions[0]?.applied).toBeUndefined();
    expect(heldBack?.after).toBeCloseTo((heldBack?.before as number) - 0.3, 9);
    expect(formatEvolveReport(alone)).toMatch(/the pattern held back: 0\.\d\d → 0\.\d\d/);

    // The same, beside a learned skill that also prefers pnpm: the −0.3 goes to it, once, file and store.
    const { root, store, at } = setup();
    const c = await at(T0);
    const LOCK = ['Keep the pnpm-lock.yaml lockfile committed', 'Commit pnpm-lock.yaml, the lockfile'];
    await c.observe([...LOCK, 'The lockfile is pnpm-lock.yaml, keep it'].map((t, k) => obs(t, 0.7, T0 - DAY + k)));
    const skill = (await c.evolve()).skillsUpdated[0];
    const later = await at(T0 + DAY);
    await later.observe([...PNPM.map((text, k) => obs(text, 0.7, T0 + DAY - (3 - k) * 3_600_000))]);
    await later.observe([obs("Don't use pnpm", 0.8, T0 + DAY - 1_000_000)]);
    const report = await later.evolve();
    const entry = report.contradictions.find((x) => x.group === PNPM[0]);
    expect(entry?.applied).toEqual({
      to: skill?.id,
      kind: 'skill',
      delta: -0.3,
      before: expect.any(Number),
      after: expect.any(Number),
    });
    expect(entry?.applied?.after).toBeCloseTo((entry?.applied?.before as number) - 0.3, 9);
    expect((await store.getMemory('s', skill?.id as string))?.confidence).toBeCloseTo(
      entry?.applied?.after as number,
      9,
    );
    const file = readFileSync(
      join(root, report.files.find((f) => f.path.includes(skill?.name as string))?.path ?? ''),
      'utf8',
    );
    expect(file).toContain(`Contradicted by "Don't use pnpm"`);
    expect(report.files.filter((f) => f.path.includes(skill?.name as string))).toHaveLength(1);
    const again = await later.evolve();
    expect(again.contradictions).toEqual([]);
    expect(again.files.filter((f) => f.changed)).toEqual([]);
  });

  it('of a split of a habit nothing else reaches: lowers the learned skill whose words it shares', async () => {
    const LINT = "No, don't push with lint errors — we always run the linter before pushing in this repo.";
    const { store, at } = setup();
    const c = await at(T0);
    await c.observe([0, 1, 2].map((k) => obs(LINT, 0.7, T0 - (3 - k) * 3_600_000, 'correction')));
    const skill = (await c.evolve()).skillsUpdated[0];
    // Ten days on (the first wording outside the window): another wording of the habit, and its contradiction.
    const later = await at(T0 + 10 * DAY);
    const split = 'Reminder: lint before push — run the linter before pushing.';
    await later.observe([0, 1, 2].map((k) => obs(split, 0.7, T0 + 10 * DAY - (3 - k) * 3_600_000)));
    await later.observe([obs("Don't run the linter before pushing, it is too slow", 0.8, T0 + 10 * DAY - 1_000)]);
    const report = await later.evolve();
    expect(report.contradictions).toEqual([
      expect.objectContaining({ group: split, applied: expect.objectContaining({ to: skill?.id, delta: -0.3 }) }),
    ]);
    expect((await store.listFeedback('s', skill?.id as string)).map((e) => e.kind)).toEqual(['contradiction']);
    // Applied once: a run again (whatever it would route the contradiction to) applies nothing more.
    const again = await later.evolve();
    expect(again.contradictions).toEqual([]);
    expect(await store.listFeedback('s')).toHaveLength(1);
  });

  it('is not recorded by a dry run', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    await c.observe(PNPM.map((text, k) => obs(text, 0.7, T0 - (3 - k) * 3_600_000)));
    const id = (await c.evolve()).skillsUpdated[0]?.id as string;
    await c.observe([obs("Don't use pnpm", 0.8, T0 - 1_800_000)]);
    const dry = await c.evolve({ dryRun: true });
    expect(dry.contradictions[0]?.applied?.delta).toBe(-0.3);
    expect(await store.listFeedback('s', id)).toEqual([]);
  });
});

const CAMEL: [string, number, number, ObservationType][] = [
  ['User asks for camelCase naming', 0.4, 23, 'correction'],
  ['Correction: snake_case → camelCase', 0.5, 19, 'correction'],
  ['All the code uses camelCase', 0.6, 0, 'pattern'],
];

describe('an instinct decays from its last evidence, whatever the window (issue 21)', () => {
  it('follows the seed decay when its evidence is outside --since, and is retired four months later', async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe(CAMEL.map(([text, conf, hours, type]) => obs(text, conf, T0 - hours * 3_600_000, type)));
    const instinct = (await c.evolve()).newInstincts[0];
    const id = instinct?.id as string;
    expect(instinct?.confidence).toBe(0.65);

    // Three days later, reading one day back: the evidence is outside the window, the decay still applies.
    const three = await (await at(T0 + 3 * DAY)).evolve({ sinceMs: DAY });
    expect(three.updatedInstincts.map((i) => [i.id, i.confidence])).toEqual([[id, expect.any(Number)]]);
    expect(three.updatedInstincts[0]?.confidence).toBeCloseTo(0.65 * Math.exp(-3 / 30), 9);
    expect((await store.getMemory('s', id))?.confidence).toBeCloseTo(0.65 * Math.exp(-3 / 30), 9);

    // Four months later (the default 7 days back): decayed out, retired in the store, its file and recall.
    const later = await at(T0 + 120 * DAY);
    const report = await later.evolve();
    expect(report.ignored.find((x) => x.text === instinct?.text)?.why).toMatch(/decayed to 0\.01 .* retired/);
    const [stored] = await store.listInstincts('s');
    expect([stored?.status, stored?.confidence]).toEqual(['retired', expect.closeTo(0.65 * Math.exp(-4), 9)]);
    expect(readFileSync(join(root, instinct?.file as string), 'utf8')).toMatch(/^status: retired$/m);
    expect((await later.recall('camelCase naming')).filter((r) => r.id === id)).toEqual([]);
    // Reproducible: the same instant gives the same state.
    expect((await later.evolve()).updatedInstincts).toEqual([]);
  });
});

describe('when an instinct at 0.65 is retired (walk 6, item 6: the doc said four months)', () => {
  it('is 0.59 after three days and retired at the first evolve past eight days, as how-it-works.md says', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    await c.observe(CAMEL.map(([text, conf, hours, type]) => obs(text, conf, T0 - hours * 3_600_000, type)));
    const id = (await c.evolve()).newInstincts[0]?.id as string;
    const status = async (days: number) => {
      await (await at(T0 + days * DAY)).evolve({ sinceMs: DAY });
      const stored = (await store.listInstincts('s')).find((i) => i.id === id);
      return [stored?.status, Number(stored?.confidence.toFixed(2))];
    };
    expect(await status(3)).toEqual(['active', 0.59]);
    expect(await status(6)).toEqual(['active', 0.53]);
    expect(await status(7)).toEqual(['active', 0.51]);
    expect(await status(8)).toEqual(['retired', 0.5]);
    const doc = readFileSync(new URL('../../../docs/how-it-works.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(doc).toContain('0.65 today is 0.59 three days later, 0.53 six days later and below the minimum');
    expect(doc).toContain('confidence of 0.5 after eight days, so the first `evolve` from then on retires it');
    expect(doc).not.toContain('retired four months later');
  });
});

describe('an instinct retired by the limit of active instincts (issue 21)', () => {
  it('is retired in the store and its file, and neither recall nor the session context return it', async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe([
      ...CAMEL.map(([text, conf, hours, type]) => obs(text, conf, T0 - hours * 3_600_000, type)),
      ...['Deploy on Tuesdays', 'We deploy every Tuesday', 'Deploys happen on Tuesday'].map((text, k) =>
        obs(text, 0.52, T0 - (k + 1) * 3_600_000, 'pattern'),
      ),
    ]);
    const report = await c.evolve({ limits: { maxActiveInstincts: 1 } });
    expect(report.newInstincts).toHaveLength(2);
    const retired = (await store.listInstincts('s')).filter((i) => i.status === 'retired');
    expect(retired).toHaveLength(1);
    const gone = report.newInstincts.find((i) => i.id === retired[0]?.id);
    expect(readFileSync(join(root, gone?.file as string), 'utf8')).toMatch(/^status: retired$/m);
    expect(await store.getMemory('s', gone?.id as string)).toBeUndefined();
    expect((await c.recall(gone?.text as string)).filter((r) => r.id === gone?.id)).toEqual([]);
    const context = await sessionContext(store, 's', { cwd: root, now: T0, env: {} });
    expect(context).not.toContain(gone?.text as string);
  });
});

describe('an outcome the hooks record is no contradiction (issue 21)', () => {
  const NPM_TEST = 'always run npm test before git commit';

  it("learns three corrections beside the hooks' failed test run, and quotes a real contradiction", async () => {
    const { root, at } = setup();
    mkdirSync(join(root, '.claude'));
    const c = await at(T0);
    await c.observe([
      ...[3, 2, 1].map((h) => obs(NPM_TEST, 0.7, T0 - h * 3_600_000, 'correction')),
      // As the hooks record a failed test command (src/hooks/signals.ts).
      {
        ...obs('tests failed: npm test', 0.7, T0 - 1_800_000, 'error'),
        evidence: ['runner: npm test', 'exit code 1'],
        tags: ['hook', 'Bash', 'test', 'source:tool-output'],
      },
    ]);
    const report = await c.evolve();
    expect(report.contradictions).toEqual([]);
    expect(report.skillsUpdated.map((s) => [s.rule, s.file])).toEqual([
      [NPM_TEST, join('.claude', 'skills', 'run-npm-test-git', 'SKILL.md')],
    ]);
    expect(readFileSync(join(root, report.skillsUpdated[0]?.file as string), 'utf8')).toContain(NPM_TEST);

    // A correction that turns the habit down is one, and the report quotes it with its date.
    const later = await at(T0 + DAY);
    const against = "don't run npm test before commits, CI does it";
    await later.observe([obs(against, 0.7, T0 + DAY - 3_600_000, 'correction')]);
    const next = await later.evolve();
    expect(next.contradictions).toEqual([
      expect.objectContaining({ text: against, at: new Date(T0 + DAY - 3_600_000).toISOString() }),
    ]);
    const id = next.contradictions[0]?.id as string;
    expect(formatEvolveReport(next)).toContain(`"${against}" on 2026-02-03 (${id}): a correction that turns down npm`);
  });
});
