import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-02-02T09:00:00Z');
const setup = movableProjects('credence-evolve-forget-', T0);

const PNPM = [
  "no, don't use npm here, we use pnpm",
  'wrong package manager again: please use pnpm, not npm',
  'stop using npm, this project uses pnpm',
  'no, use pnpm install instead of npm install',
  'Actually, use pnpm, never npm',
];
const LINT = ['Run lint before you push', 'Always lint before pushing', 'No, lint first, then push'];

const said = (texts: readonly string[], end: number) =>
  texts.map((observation, k) => ({
    timestamp: new Date(end - (texts.length - k) * HOUR).toISOString(),
    type: 'correction' as const,
    observation,
    confidence: 0.7,
  }));

/** An instinct record `instinct-<id>` learned from `evidence`, written to the store by hand. */
const instinct = (id: string, evidence: string[]) => ({
  id: `instinct-${id}`,
  slug: id,
  text: id,
  confidence: 0.6,
  status: 'active' as const,
  evidence,
  createdAt: T0,
  updatedAt: T0,
});

describe('forget an instinct or a skill (a newcomer: the next evolve learned it again)', () => {
  it('stays forgotten through the next evolve, other habits kept, until the habit is said again', async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe(said([...PNPM, ...LINT], T0));
    await c.evolve();
    const skills = await store.listSkills('s');
    const pnpm = skills.find((s) => /pnpm/.test(s.description));
    expect(pnpm).toBeDefined();
    const evidence = new Set(pnpm?.evidence);
    const lintBefore = [...(await store.listInstincts('s')), ...skills].filter((i) =>
      i.evidence.every((id) => !evidence.has(id)),
    );
    expect(lintBefore.length).toBeGreaterThan(0);

    const forgotten = await c.forget(pnpm?.id as string);
    expect([forgotten.kind, [...forgotten.evidenceForgotten].sort()]).toEqual(['skill', [...evidence].sort()]);
    expect(existsSync(join(root, forgotten.files[0] as string))).toBe(false);
    const learnedFrom = async () =>
      [...(await store.listInstincts('s')), ...(await store.listSkills('s'))].map((i) => i.evidence.join());
    expect((await learnedFrom()).some((e) => e.split(',').some((id) => evidence.has(id)))).toBe(false);

    const later = await at(T0 + 2 * HOUR);
    await later.evolve();
    const afterForget = [...(await store.listInstincts('s')), ...(await store.listSkills('s'))];
    expect(afterForget.map((i) => ('description' in i ? i.description : i.text)).join(' ')).not.toMatch(/pnpm/);
    // The other habit is untouched.
    expect(await learnedFrom()).toEqual(expect.arrayContaining(lintBefore.map((i) => i.evidence.join())));

    // Said again after the forget: new evidence, learned again.
    const again = await at(T0 + 30 * HOUR);
    await again.observe(said(PNPM, T0 + 30 * HOUR));
    await again.evolve();
    const relearned = [...(await store.listInstincts('s')), ...(await store.listSkills('s'))];
    expect(relearned.map((i) => ('description' in i ? i.description : i.text)).join(' ')).toMatch(/pnpm/);
  });

  it('an instinct promoted into a skill: forgetting either forgets both, their observations and feedback', async () => {
    const PREFER = [
      'prefer pnpm over npm in this repo',
      'use pnpm rather than npm here',
      'pnpm, not npm, for installs',
      'we install with pnpm not npm',
      'pnpm is our package manager, not npm',
      'always pnpm instead of npm',
    ];
    const { store, at } = setup();
    for (const forgetting of ['instinct', 'skill'] as const) {
      // The second round is learned after the first's forget (an evolve learning before a forget is refused).
      const t = forgetting === 'instinct' ? T0 : T0 + 100 * HOUR;
      const first = await at(t);
      await first.observe(
        said(PREFER.slice(0, 3), t).map((o) => ({ ...o, type: 'preference' as const, confidence: 0.5 })),
      );
      await first.evolve();
      const later = await at(t + 48 * HOUR);
      await later.observe(said(PREFER.slice(3), t + 48 * HOUR).map((o) => ({ ...o, confidence: 0.9 })));
      await later.evolve();
      const [instinct] = await store.listInstincts('s');
      const [skill] = await store.listSkills('s');
      // The scenario: the skill holds the instinct's evidence and more.
      expect(instinct?.evidence.every((e) => skill?.evidence.includes(e))).toBe(true);
      expect(skill?.evidence.length).toBeGreaterThan(instinct?.evidence.length ?? 0);
      await later.feedback(skill?.id as string, 'contradicted');
      await later.feedback(instinct?.id as string, 'contradicted');
      const forgotten = await later.forget((forgetting === 'instinct' ? instinct?.id : skill?.id) as string);
      expect(forgotten.derivedForgotten).toEqual([forgetting === 'instinct' ? skill?.id : instinct?.id]);
      expect(forgotten.evidenceForgotten).toHaveLength(PREFER.length);
      expect([await store.listInstincts('s'), await store.listSkills('s')]).toEqual([[], []]);
      expect(await store.listObservations('s', {})).toEqual([]);
      expect(await store.listFeedback('s')).toEqual([]);
    }
  });

  it('one sharing only some of its observations loses those, and nothing is followed further', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    const texts = ['use pnpm', 'pnpm not npm', 'no npm here', 'tabs not spaces', 'indent with tabs', 'tabs please'];
    await c.observe(said(texts, T0));
    const ids = (await store.listObservations('s', {})).map((o) => o.id).sort();
    const [o1, o2, o3, o4, o5, o6] = ids as [string, string, string, string, string, string];
    const skill = (id: string, evidence: string[]) => ({
      id: `skill-${id}`,
      name: id,
      description: id,
      rules: [id],
      confidence: 0.8,
      evidence,
      createdAt: T0,
      updatedAt: T0,
    });
    await store.upsertSkill('s', skill('pnpm', [o1, o2, o3]));
    await store.upsertInstinct('s', {
      id: 'instinct-both',
      slug: 'both',
      text: 'both',
      confidence: 0.6,
      status: 'active',
      evidence: [o3, o4, o5],
      createdAt: T0,
      updatedAt: T0,
    });
    await store.upsertSkill('s', skill('tabs', [o4, o5, o6]));
    const r = await c.forget('skill-pnpm');
    expect([r.evidenceForgotten.sort(), r.derivedForgotten, r.derivedUpdated]).toEqual([
      [o1, o2, o3],
      [],
      ['instinct-both'],
    ]);
    expect((await store.listInstincts('s')).map((i) => i.evidence)).toEqual([[o4, o5]]);
    expect((await store.listSkills('s')).map((k) => [k.id, k.evidence])).toEqual([['skill-tabs', [o4, o5, o6]]]);
    expect((await store.listObservations('s', {})).map((o) => o.id).sort()).toEqual([o4, o5, o6]);
  });

  it('a skill holding all of it goes too, but observations another instinct or skill holds stay', async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe(
      said(['use pnpm', 'pnpm not npm', 'no npm here', 'lint first', 'lint before push', 'run lint'], T0),
    );
    const [o1, o2, o3, o4, o5, o6] = (await store.listObservations('s', {})).map((o) => o.id).sort() as string[];
    await store.upsertInstinct('s', instinct('pnpm', [o1, o2, o3] as string[]));
    await store.upsertInstinct('s', instinct('lint', [o4, o5, o6] as string[]));
    const mixed = {
      id: 'skill-mixed',
      name: 'mixed',
      description: 'mixed',
      rules: ['mixed'],
      confidence: 0.8,
      evidence: [o1, o2, o3, o4, o5, o6] as string[],
      createdAt: T0,
      updatedAt: T0,
    };
    await store.upsertSkill('s', mixed);
    // Its file's markers broken: the forget is refused and nothing goes.
    const file = join(root, '.credence/skills/mixed/SKILL.md');
    mkdirSync(join(root, '.credence/skills/mixed'), { recursive: true });
    writeFileSync(file, '# Mixed\n<!-- credence:begin (x) -->\n- a rule\n');
    await expect(c.forget('instinct-pnpm')).rejects.toThrow(/1 credence:begin and 0 credence:end markers/);
    // So is forgetting one of its observations, and one of an instinct whose file is broken.
    await expect(c.forget(o4 as string)).rejects.toThrow(/credence:end markers/);
    const lint = join(root, '.credence/instincts/lint.md');
    mkdirSync(join(root, '.credence/instincts'), { recursive: true });
    writeFileSync(lint, '# Lint\n<!-- credence:begin (x) -->\n');
    rmSync(file);
    await expect(c.forget(o5 as string)).rejects.toThrow(/credence:end markers/);
    const r = await c.forget('instinct-pnpm');
    expect([r.derivedForgotten, r.derivedRemoved, r.evidenceForgotten.sort()]).toEqual([
      ['skill-mixed'],
      [],
      [o1, o2, o3],
    ]);
    expect((await store.listInstincts('s')).map((i) => [i.id, i.evidence])).toEqual([['instinct-lint', [o4, o5, o6]]]);
    rmSync(lint);
    expect((await store.listObservations('s', {})).map((o) => o.id).sort()).toEqual([o4, o5, o6]);
  });

  it('a broken file refuses before anything goes: the same scene, kept whole', async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe(said(['use pnpm', 'pnpm not npm', 'no npm here', 'lint first'], T0));
    const [o1, o2, o3, o4] = (await store.listObservations('s', {})).map((o) => o.id).sort() as string[];
    await store.upsertInstinct('s', instinct('pnpm', [o1, o2, o3] as string[]));
    await store.upsertInstinct('s', instinct('other', [o3, o4] as string[]));
    mkdirSync(join(root, '.credence/instincts'), { recursive: true });
    writeFileSync(join(root, '.credence/instincts/other.md'), '# Other\n<!-- credence:begin (x) -->\n');
    await expect(c.forget('instinct-pnpm')).rejects.toThrow(/credence:end markers/);
    expect([(await store.listInstincts('s')).length, (await store.listObservations('s', {})).length]).toEqual([2, 4]);
  });

  it("the instinct's own file, broken or in a folder outside the root, refuses before anything goes", async () => {
    const { root, store, at } = setup();
    const c = await at(T0);
    await c.observe(said(['use pnpm', 'pnpm not npm', 'no npm here'], T0));
    const ids = (await store.listObservations('s', {})).map((o) => o.id);
    await store.upsertInstinct('s', instinct('pnpm', ids));
    const kept = async () => [(await store.listInstincts('s')).length, (await store.listObservations('s', {})).length];
    await expect(c.forget('instinct-pnpm', { dir: '/tmp' })).rejects.toMatchObject({ code: 'PATH_OUTSIDE_ROOT' });
    await expect(c.forget('instinct-pnpm', { dir: '../elsewhere' })).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_ROOT',
    });
    expect(await kept()).toEqual([1, 3]);
    mkdirSync(join(root, '.credence/instincts'), { recursive: true });
    writeFileSync(join(root, '.credence/instincts/pnpm.md'), '# Pnpm\n<!-- credence:begin (x) -->\n');
    await expect(c.forget('instinct-pnpm')).rejects.toThrow(/1 credence:begin and 0 credence:end markers/);
    expect(await kept()).toEqual([1, 3]);
    // Mended, the same forget goes through.
    rmSync(join(root, '.credence/instincts/pnpm.md'));
    expect((await c.forget('instinct-pnpm')).kind).toBe('instinct');
    expect(await kept()).toEqual([0, 0]);
  });
});
