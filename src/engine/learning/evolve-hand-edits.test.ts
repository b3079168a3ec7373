/**
 * A hand edit of the front matter of a SKILL.md that evolve made is kept by the next runs (walk 12, item 1): Credence
 * owns its marked section, and writes `name` / `description` only where they are missing or as it last wrote them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects, userCorrection as said } from '../../../test/projects.js';

const DAY = 86_400_000;
const T0 = Date.parse('2026-11-04T10:00:00Z');
const setup = movableProjects('credence-evolve-hand-edits-', T0);

const NAMED = [
  "don't use default exports, use named exports",
  'stop using default exports',
  'no, use named exports instead of default exports',
];
const EDITED = 'description: "Named exports everywhere; default exports only for Next.js pages (team decision)"';

/** A project whose skill evolve made from NAMED: the engine's clock, the skill, its file and the file as made. */
async function madeSkill() {
  const { root, at } = setup();
  const c = await at(T0);
  await c.observe(NAMED.map((text, k) => said(text, T0 - (3 - k) * DAY)));
  const made = (await c.evolve({ skillsDir: 'skills' })).skillsUpdated[0];
  const file = join(root, made?.file as string);
  return { at, made, file, original: readFileSync(file, 'utf8') };
}

describe("a SKILL.md's front matter edited by hand", () => {
  it('keeps the edited description through two runs with nothing new, then one seeing the habit again', async () => {
    const { at, made, file, original } = await madeSkill();
    expect(original).toMatch(/^description: ".+"$/m);
    writeFileSync(file, original.replace(/^description: .*$/m, EDITED));

    const once = await (await at(T0 + DAY)).evolve({ skillsDir: 'skills' });
    const twice = await (await at(T0 + 2 * DAY)).evolve({ skillsDir: 'skills' });
    for (const report of [once, twice]) expect(report.files.filter((f) => f.changed)).toEqual([]);
    expect(readFileSync(file, 'utf8').split('\n')[2]).toBe(EDITED);

    const later = await at(T0 + 21 * DAY);
    await later.observe([said('no, use named exports instead of default exports', T0 + 21 * DAY - 3_600_000)]);
    const again = await later.evolve({ skillsDir: 'skills' });
    expect(again.skillsUpdated.map((s) => s.name)).toEqual([made?.name]);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[2]).toBe(EDITED);
    expect(text.match(/^description:/gm)).toHaveLength(1);
    // Credence's own section still says what it learned.
    expect(text).toContain('- no, use named exports instead of default exports (confidence');
  });

  it('keeps the edited front matter when the skill is withdrawn, taking out only its section (review D)', async () => {
    const { at, file, original } = await madeSkill();
    writeFileSync(file, original.replace(/^description: .*$/m, EDITED));
    const later = await at(T0 + 5 * DAY);
    const reversed = [
      'use default exports, not named exports',
      'no, use default exports',
      'default exports, not named',
    ];
    await later.observe(reversed.map((text, k) => said(text, T0 + (2 + k) * DAY)));
    const report = await later.evolve({ skillsDir: 'skills' });
    expect(report.ignored.map((i) => i.why).join('\n')).toMatch(/its file withdrawn/);
    expect(existsSync(file)).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').slice(0, 3)).toEqual(original.split('\n').slice(0, 3).with(2, EDITED));
    expect(text).not.toContain('(confidence');
  });

  it('keeps an edited name', async () => {
    const { at, file, original } = await madeSkill();
    writeFileSync(file, original.replace(/^name: .*$/m, 'name: exports-policy'));
    await (await at(T0 + DAY)).evolve({ skillsDir: 'skills' });
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n').slice(0, 3)).toEqual(original.split('\n').slice(0, 3).with(1, 'name: exports-policy'));
  });
});
