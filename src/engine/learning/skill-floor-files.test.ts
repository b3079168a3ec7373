/**
 * A skill below 0.5 has no file (review F, item 1: a skill contradicted to 0.00 was written into .claude/skills,
 * which Claude Code loads by itself): the rule of an idle skill's withdrawal (skill-decay-files) holds for one an
 * evolve touches too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-06-06T13:00:00Z');
const setup = movableProjects('credence-skill-floor-', T0);
const RULE = 'Prefer early returns over nested if blocks.';

describe('a skill contradicted below 0.5', () => {
  it('is not written as a file when an evolve touches it again, and the report says why', async () => {
    const { root, at } = setup();
    const said = (t: number) =>
      [0, 1, 2].map((k) => ({
        timestamp: new Date(t - k * 3_600_000).toISOString(),
        type: 'preference' as const,
        observation: RULE,
        confidence: 0.6,
      }));
    const c = await at(T0);
    await c.observe(said(T0));
    const skill = (await c.evolve()).skillsUpdated[0];
    const file = join(root, skill?.file as string);
    expect(existsSync(file)).toBe(true);
    for (let k = 1; k <= 3; k += 1) await (await at(T0 + k * 3_600_000)).feedback(skill?.id as string, 'contradicted');
    // Said again the next day: the group touches the skill, whose confidence its contradictions keep below 0.5.
    const next = await at(T0 + DAY);
    await next.observe(said(T0 + DAY));
    const r = await next.evolve();
    const touched = r.skillsUpdated.find((s) => s.id === skill?.id);
    expect(touched?.confidence).toBeLessThan(0.5);
    expect(existsSync(file)).toBe(false);
    expect(r.ignored.map((x) => x.why).join('\n')).toMatch(
      /^skill early-returns-blocks at 0\.\d\d below 0\.5; no file/m,
    );
  });
});
