import { describe, expect, it } from 'vitest';
import { movableProjects } from '../../../test/projects.js';
import { formatEvolveReport } from './evolve.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-02-02T09:00:00Z');
const setup = movableProjects('credence-evolve-wordings-', T0);

/** Corrections as a user typed them in a newcomer's walk (issue 21), one an hour, each said once. */
const PNPM = [
  "no, don't use npm here, we use pnpm",
  'wrong package manager again: please use pnpm, not npm',
  'stop using npm, this project uses pnpm',
  'no, use pnpm install instead of npm install',
  'Actually, use pnpm, never npm',
];
const LINT = ['Run lint before you push', 'Always lint before pushing', 'No, lint first, then push'];
const TESTS = ['Run the tests before you commit', 'Always run the tests before committing'];
const RENAMES = [
  'Changed max_retries to maxRetries as the user asked',
  'Changed api_client to apiClient as the user asked',
  'Changed row_count to rowCount as the user asked',
];
const OTHERS = ['Renamed userId to user_id in the API', 'Actually, use tabs for indentation'];

async function evolveOver(texts: readonly string[]) {
  const { at, store } = setup();
  const c = await at(T0);
  await c.observe(
    texts.map((observation, k) => ({
      timestamp: new Date(T0 - (texts.length - k) * HOUR).toISOString(),
      type: 'correction' as const,
      observation,
      confidence: 0.7,
    })),
  );
  const report = await c.evolve();
  const ids = new Map((await store.listObservations('s', {})).map((o) => [o.id, o.observation]));
  // What each learned item (instinct or skill) holds: the texts of its evidence.
  const items = [...(await store.listInstincts('s')), ...(await store.listSkills('s'))];
  const learned = items.map((i) => i.evidence.map((id) => ids.get(id)).sort());
  return { report, learned };
}

describe('evolve learns a habit from the words users type (issue 21)', () => {
  it('joins five wordings of one habit that share its own words, beside other habits', async () => {
    const { learned, report } = await evolveOver([...PNPM, ...LINT, ...TESTS, ...RENAMES, ...OTHERS]);
    expect(learned).toContainEqual([...PNPM].sort());
    expect(learned).toContainEqual([...LINT].sort());
    // Three identifiers renamed to camelCase: the habit is the case they were changed to; a rename the other way
    // round is not one of them.
    expect(learned).toContainEqual([...RENAMES].sort());
    expect(learned.flat()).not.toContain(OTHERS[0]);
    expect(report.ignored.map((i) => i.text)).not.toEqual(expect.arrayContaining(PNPM));
    // The report says which wordings each new item holds and the topic words they share.
    const pnpm = report.joined.find((j) => j.texts.includes(PNPM[1] as string));
    expect([...(pnpm?.texts ?? [])].sort()).toEqual([...PNPM].sort());
    expect(pnpm?.why).toBe('5 wordings of one habit, sharing npm, pnpm');
    expect(formatEvolveReport(report)).toContain(`${PNPM.map((t) => JSON.stringify(t)).join(' + ')}: 5 wordings`);
    // The words they share are named as written, not as the stems that matched them.
    const lint = report.joined.find((j) => j.texts.includes(LINT[0] as string));
    expect(lint?.why).toMatch(/sharing .*\blint\b/);
    const renames = report.joined.find((j) => j.texts.includes(RENAMES[0] as string));
    expect(renames?.why).toMatch(/^"max retries" read as a detail/);
  });

  it('reads "never commit before the tests pass" as the habit of testing before a commit, not against it', async () => {
    const { learned, report } = await evolveOver([...TESTS, 'Never commit before the tests pass']);
    expect(report.contradictions).toEqual([]);
    expect(learned).toEqual([[...TESTS, 'Never commit before the tests pass'].sort()]);
  });
});
