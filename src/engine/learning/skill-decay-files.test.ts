import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';

const DAY = 86_400_000;
const WEEK = 7 * DAY;
const T0 = Date.parse('2026-06-06T13:00:00Z');
const setup = movableProjects('credence-skill-decay-', T0);
const RULE = 'Prefer early returns over nested if blocks.';

describe('a skill that ages (walk 6, item 5: its decay never reached the agent)', () => {
  it('has its file rewritten with its confidence now, withdrawn below 0.5, and recall labels it by that', async () => {
    const { root, at } = setup();
    const c = await at(T0);
    await c.observe(
      [0, 1, 2].map((k) => ({
        timestamp: new Date(T0 - k * 3_600_000).toISOString(),
        type: 'preference' as const,
        observation: RULE,
        confidence: 0.6,
      })),
    );
    const skill = (await c.evolve()).skillsUpdated[0];
    expect(skill?.confidence).toBeCloseTo(0.78, 9);
    const file = join(root, skill?.file as string);
    expect(readFileSync(file, 'utf8')).toContain('Confidence: 0.78 (certain: apply).');
    const label = async (t: number) =>
      (await (await at(t)).recall('early returns nested if')).find((r) => r.id === skill?.id)?.label;
    expect(await label(T0)).toBe('high');

    // Five idle weeks: 0.78 − 0.10, the file says so (the rule's line too) and the stored memory follows.
    await (await at(T0 + 5 * WEEK)).evolve();
    const aged = readFileSync(file, 'utf8');
    expect(aged).toContain('Confidence: 0.68 (probable: propose).');
    expect(aged).toContain(`- ${RULE} (confidence 0.68, added 2026-06-06)`);
    expect(aged).not.toContain('0.78');
    expect(await label(T0 + 5 * WEEK)).toBe('high');

    // Fifteen weeks: 0.48, no longer learned: its file is withdrawn (Claude Code loads no stale rule), said in the
    // report, and recall no longer calls it "high".
    const report = await (await at(T0 + 15 * WEEK)).evolve();
    expect(existsSync(file)).toBe(false);
    expect(report.ignored.map((x) => x.why)).toContain(
      'skill early-returns-blocks decayed to 0.48 below 0.5; its file withdrawn',
    );
    expect(await label(T0 + 15 * WEEK)).toBe('medium');
    // Twenty-five weeks: 0.28, noise: "low", with why.
    await (await at(T0 + 25 * WEEK)).evolve();
    const late = (await (await at(T0 + 25 * WEEK)).recall('early returns nested if')).find((r) => r.id === skill?.id);
    expect([late?.label, late?.parts.withheld]).toEqual(['low', 'its confidence now is 0.28 (noise: ignore)']);
  });
});
