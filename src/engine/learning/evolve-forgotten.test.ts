import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';
import type { ObservationType } from '../../core/types.js';
import { sessionSummary } from '../session-summary.js';
import { markForgotten } from './forgotten.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-02-02T09:00:00Z');
const setup = movableProjects('credence-evolve-forgotten-', T0);

const obs = (text: string, confidence: number, at: number, type: ObservationType = 'success') => ({
  timestamp: new Date(at).toISOString(),
  type,
  observation: text,
  confidence,
});
/** Three observations evolve learns as one skill (seed example 2). */
const testsFirst = [
  obs('Tests run before commit', 0.7, T0 - 2 * HOUR),
  obs('CI green after commit', 0.7, T0 - 1.5 * HOUR),
  obs('Commit without tests turned CI red', 0.8, T0 - HOUR, 'error'),
];
/** Three observations evolve learns as one instinct (seed example 1). */
const camelCase = [
  obs('User asks for camelCase naming', 0.4, T0 - 23 * HOUR, 'correction'),
  obs('Correction: snake_case → camelCase', 0.5, T0 - 19 * HOUR, 'correction'),
  obs('All the code uses camelCase', 0.6, T0 - HOUR, 'pattern'),
];

/** A project with the tests-first skill learned at T0 and forgotten an hour later. */
async function forgottenSkill() {
  const project = setup();
  const c = await project.at(T0);
  await c.observe(testsFirst);
  const skill = (await c.evolve()).skillsUpdated[0];
  if (skill === undefined) throw new Error('the seed example made no skill');
  const later = await project.at(T0 + HOUR);
  const forgot = await later.forget(skill.id);
  return { ...project, skill, forgot, file: join(project.root, skill.file) };
}

describe('a forgotten skill or instinct stays forgotten until new evidence (walk item 8)', () => {
  it('evolve does not write a forgotten skill again from the same observations', async () => {
    const { store, at, skill, forgot, file } = await forgottenSkill();
    expect(forgot.marker).toBe(`forgotten:${skill.id}`);
    expect(existsSync(file)).toBe(false);
    const report = await (await at(T0 + 2 * HOUR)).evolve();
    expect(report.skillsUpdated).toEqual([]);
    expect(report.newInstincts).toEqual([]);
    expect(report.ignored.map((i) => i.why)).toEqual([expect.stringContaining(`forgotten by the user (${skill.id}`)]);
    expect(await store.listSkills('s')).toEqual([]);
    expect(existsSync(file)).toBe(false);
    // The marker is no memory: recall and the session context show none of it.
    const recalled = await (await at(T0 + 2 * HOUR)).recall('tests before commit', { track: false });
    expect(recalled.filter((r) => r.id.includes('forgotten') || r.kind !== 'observation')).toEqual([]);
    expect(await sessionSummary({ store, scope: 's', now: T0 + 2 * HOUR }, { recent: false })).toBe('');
  });

  it('learns it again once it is observed after the forget, and the marker goes', async () => {
    const { store, at, skill, file } = await forgottenSkill();
    const c = await at(T0 + 3 * HOUR);
    await c.observe([obs('Ran the tests before committing, CI stayed green', 0.7, T0 + 2 * HOUR)]);
    const report = await c.evolve();
    expect(report.skillsUpdated.map((k) => [k.id, k.created])).toEqual([[skill.id, true]]);
    expect(existsSync(file)).toBe(true);
    expect((await store.listFeedback('s')).map((f) => f.id)).not.toContain(`forgotten:${skill.id}`);
  });

  it('a dry run that would learn it again keeps the marker', async () => {
    const { store, at, skill } = await forgottenSkill();
    const c = await at(T0 + 3 * HOUR);
    await c.observe([obs('Ran the tests before committing, CI stayed green', 0.7, T0 + 2 * HOUR)]);
    expect((await c.evolve({ dryRun: true })).skillsUpdated).toHaveLength(1);
    expect((await store.listFeedback('s')).map((f) => f.id)).toContain(`forgotten:${skill.id}`);
  });

  it('feedback --validated on the forgotten id lifts it, and its event counts on what is learned again', async () => {
    const { store, at, skill } = await forgottenSkill();
    const c = await at(T0 + 2 * HOUR);
    // Not from an agent (no confirm: MCP), as a held rule's confirmation.
    await expect(c.feedback(skill.id, 'validated')).rejects.toThrow(/only the user lifts it/);
    const given = await c.feedback(skill.id, 'validated', { confirm: true });
    expect(given).toMatchObject({ on: 'skill', lifted: `forgotten:${skill.id}`, event: { kind: 'validation' } });
    const report = await c.evolve();
    expect(report.skillsUpdated.map((k) => k.id)).toEqual([skill.id]);
    expect((await store.listFeedback('s', skill.id)).map((f) => f.kind)).toEqual(['validation']);
  });

  it('a rejection of a forgotten id is refused: only a yes lifts it', async () => {
    const { at, skill } = await forgottenSkill();
    const c = await at(T0 + 2 * HOUR);
    await expect(c.feedback(skill.id, 'rejected', { confirm: true })).rejects.toThrow(/was forgotten/);
  });

  it('forgetting the marker lifts it', async () => {
    const { store, at, skill } = await forgottenSkill();
    const c = await at(T0 + 2 * HOUR);
    expect((await c.forget(`forgotten:${skill.id}`)).kind).toBe('marker');
    expect((await c.evolve()).skillsUpdated.map((k) => k.id)).toEqual([skill.id]);
    expect(await store.listFeedback('s')).toEqual([]);
  });

  it('a forgotten instinct is not made again from the same observations', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    await c.observe(camelCase);
    const instinct = (await c.evolve()).newInstincts[0];
    if (instinct === undefined) throw new Error('the seed example made no instinct');
    const later = await at(T0 + HOUR);
    expect((await later.forget(instinct.id)).marker).toBe(`forgotten:${instinct.id}`);
    const report = await later.evolve();
    expect(report.newInstincts).toEqual([]);
    expect(report.skillsUpdated).toEqual([]);
    expect(await store.listInstincts('s')).toEqual([]);
  });

  it('the same topic under another id: observations saying what was forgotten, none of its evidence', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    // Said before the forget, never learned: the marker names none of them, and the words are the forgotten ones.
    await c.observe(testsFirst);
    await markForgotten(store, 's', {
      id: 'skill-old-name',
      kind: 'skill',
      at: T0 - HOUR / 2,
      texts: ['Tests run before commit'],
      evidence: [],
    });
    const report = await c.evolve();
    expect(report.skillsUpdated).toEqual([]);
    expect(report.ignored.map((i) => i.why)).toEqual([
      expect.stringContaining('forgotten by the user (skill-old-name'),
    ]);
  });

  it('a topic of its own is learned beside a forgotten one', async () => {
    const { store, at } = setup();
    const c = await at(T0);
    await c.observe([...testsFirst, ...camelCase]);
    const first = await c.evolve();
    const skill = first.skillsUpdated[0];
    if (skill === undefined) throw new Error('the seed example made no skill');
    const later = await at(T0 + HOUR);
    await later.forget(skill.id);
    const report = await later.evolve();
    expect(report.skillsUpdated).toEqual([]);
    expect((await store.listInstincts('s')).map((i) => i.id)).toEqual(first.newInstincts.map((i) => i.id));
  });
});
