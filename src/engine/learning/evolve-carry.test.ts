import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';
import { generateHabitStream } from '../../../eval/habits/stream.js';
import { DEV_PHRASING } from '../../../eval/habits/phrasing.js';
import { habitObservations } from '../../../bench/evolve-engine.js';

const DAY = 86_400_000;
const setup = movableProjects('credence-evolve-carry-', 0);

describe('an instinct promoted into a skill it was not made from', () => {
  it('passes its contradictions on: the −0.3 stays in the skill’s confidence, file and report', async () => {
    // The dev half of D2 observed in two parts. The scenario needs a stream in which, at the cut: one habit is split
    // in two groups, one already learned as a skill and the other only as an instinct (below a skill's confidence);
    // a planted contradiction of that habit, before the cut, lowers the instinct by −0.3 in the first evolve; and the
    // days after the cut bring that group enough new evidence to reach a skill's confidence, so the second evolve
    // promotes the instinct into the skill of its habit it was not made from (joined by meaning, no shared
    // evidence). Whether a stream holds all of it depends on how the grouping splits the habits: seed 14 cut 9 days
    // before the end does (seed 3 cut 12 days did until issue 21 read where a rule was said as context). Should a
    // grouping change lose it, `lowered` is empty and the test fails rather than passing on nothing.
    const stream = generateHabitStream({
      seed: 14,
      total: 3_000,
      habits: DEV_PHRASING.habits,
      remarks: DEV_PHRASING.remarks,
    });
    const { root, store, at } = setup();
    const all = habitObservations(stream);
    const cut = stream.now - 9 * DAY;
    const options = { sinceMs: 60 * DAY, limits: { maxObservations: 20_000, maxActiveInstincts: 1_000 } };
    const before = await at(cut);
    await before.observe(all.filter((o) => Date.parse(o.timestamp) <= cut));
    await before.evolve(options);
    const later = await at(stream.now);
    await later.observe(all.filter((o) => Date.parse(o.timestamp) > cut));
    const report = await later.evolve(options);
    const promoted = report.skillsUpdated.filter((s) => !s.created && s.promotedFrom !== undefined);
    const feedback = await store.listFeedback('s');
    const lowered = promoted.filter((s) =>
      feedback.some((f) => f.targetId === `instinct-${s.promotedFrom}` && f.kind === 'contradiction'),
    );
    expect(lowered.length).toBeGreaterThan(0);
    for (const skill of lowered) {
      const on = (id: string) =>
        feedback.filter((f) => f.targetId === id && f.kind === 'contradiction').map((f) => f.id.split(':').at(-1));
      expect(on(skill.id)).toEqual(expect.arrayContaining(on(`instinct-${skill.promotedFrom}`)));
      expect(skill.confidence).toBeLessThanOrEqual(0.7 + 1e-9);
      expect(readFileSync(join(root, skill.file), 'utf8')).toMatch(/## Contradictions\n\n- Contradicted by .*: −0\.3/);
      expect((await store.getMemory('s', skill.id))?.confidence).toBeCloseTo(skill.confidence, 12);
    }
  });
});
