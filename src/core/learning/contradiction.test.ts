import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import {
  assertionOf,
  CONTRADICTION_DEFAULTS,
  contradictionAgesDays,
  detectContradictions,
  OPPOSITE_CONVENTIONS,
  type ContradictionItem,
} from './contradiction.js';
import { isSignificant } from './learning-confidence.js';
import type { ObservationType } from '../types.js';

const DAY = 86_400_000;
const NOW = Date.parse('2026-02-02T09:00:00Z');

let next = 0;
/** `count` observations of one text, an hour apart, ending `daysAgo` days before NOW. */
function repeat(text: string, count: number, type: ObservationType = 'pattern', daysAgo = 3): ContradictionItem[] {
  return Array.from({ length: count }, (_, k) => ({
    id: `o${(next += 1)}`,
    text,
    type,
    timestamp: NOW - daysAgo * DAY - k * 3_600_000,
  }));
}

const one = (text: string, type: ObservationType = 'preference', daysAgo = 2): ContradictionItem =>
  repeat(text, 1, type, daysAgo)[0] as ContradictionItem;

const camelGroup = () => [
  ...repeat('User asks for camelCase naming', 4, 'correction'),
  ...repeat('Correction: snake_case → camelCase', 3, 'correction'),
  ...repeat('All the code uses camelCase', 3),
  ...repeat('Variables and functions should be written in camelCase', 3, 'preference'),
];
const testsGroup = () => [
  ...repeat('Tests run before commit', 4, 'success'),
  ...repeat('CI green after commit', 3, 'success'),
  ...repeat('Commit without tests made CI red', 3, 'error'),
  ...repeat('Ran the full test suite before committing', 3, 'success'),
];

/** Contradictions found when `extra` joins `group` (as a member when `inside`). */
function contradictionsOf(group: ContradictionItem[], extra: ContradictionItem[], inside = true) {
  const items = [...group, ...extra];
  const ids = (inside ? items : group).map((o) => o.id);
  const [result] = detectContradictions(items, [{ ids }]);
  return result?.contradictions ?? [];
}

describe('assertionOf', () => {
  it('reads a text once per list of conventions, as the contradiction reader does (a skill name reads it too)', () => {
    const text = 'Use named exports, no default exports';
    const read = assertionOf(text);
    expect(assertionOf(text)).toBe(read);
    expect(read.favoured.get('exports')).toEqual(new Set(['named exports']));
    // Another list of the same conventions reads the text alike, on its own.
    const copy = [...OPPOSITE_CONVENTIONS];
    expect(assertionOf(text, copy)).not.toBe(read);
    expect(assertionOf(text, copy)).toEqual(read);
  });

  it('reads a negation over topical words as a negative polarity', () => {
    expect(assertionOf('Do not run tests before commit').polarity).toBe(-1);
    expect(assertionOf("Don't split the work into small commits").polarity).toBe(-1);
    expect(assertionOf('Never ask before deleting files').polarity).toBe(-1);
    expect(assertionOf('Tests run before commit').polarity).toBe(1);
  });

  it('lets two negations in one clause cancel', () => {
    expect(assertionOf('Never commit without tests').polarity).toBe(1);
  });

  it('ends a negation at the end of its clause or at "while"', () => {
    expect(assertionOf('Use named exports, no default exports while working on auth').polarity).toBe(1);
  });

  it('reads the preferred and the rejected alternative of a convention', () => {
    const arrow = assertionOf('Correction: snake_case → camelCase');
    expect([...(arrow.favoured.get('naming case') ?? [])]).toEqual(['camelCase']);
    expect([...(arrow.rejected.get('naming case') ?? [])]).toEqual(['snake_case']);
    const instead = assertionOf('Indent with tabs instead of spaces');
    expect([...(instead.favoured.get('indentation') ?? [])]).toEqual(['tabs']);
    expect([...(instead.rejected.get('indentation') ?? [])]).toEqual(['spaces']);
    expect(instead.polarity).toBe(1);
    const replaced = assertionOf('Replaced the default export with a named one');
    expect([...(replaced.favoured.get('exports') ?? [])]).toEqual(['named exports']);
    expect([...(replaced.rejected.get('exports') ?? [])]).toEqual(['default exports']);
    const over = assertionOf('User prefers await over callbacks');
    expect([...(over.rejected.get('async style') ?? [])]).toEqual(['callbacks']);
  });

  it('handles hostile texts in linear time', () => {
    for (const text of [
      ' '.repeat(100_000) + 'x',
      '-'.repeat(100_000),
      'not '.repeat(20_000),
      '→'.repeat(50_000),
      'a/'.repeat(50_000),
    ]) {
      expect(assertionOf(text).polarity).toBeTypeOf('number');
    }
  });

  it('counts a family only in its context ("single" is about quotes only next to a quote)', () => {
    expect(assertionOf('A single file changed').favoured.size).toBe(0);
    expect(assertionOf('Use single quotes').favoured.get('quotes')).toEqual(new Set(['single quotes']));
  });
});

describe('detectContradictions', () => {
  it('reports an opposite naming convention against the camelCase group (seed 004 example 1)', () => {
    const dissent = one('Prefer snake_case for variable names in this module');
    const found = contradictionsOf(camelGroup(), [dissent]);
    expect(found).toEqual([
      expect.objectContaining({ id: dissent.id, timestamp: dissent.timestamp, kind: 'opposite-convention' }),
    ]);
    expect(found[0]?.reason).toMatch(/snake_case/);
  });

  it('reports it whether or not the grouper put it inside the group', () => {
    const dissent = one('Prefer snake_case for variable names in this module');
    expect(contradictionsOf(camelGroup(), [dissent], false).map((c) => c.id)).toEqual([dissent.id]);
  });

  it('reports a negation of the tests-before-commit pattern, and a correction as such (seed 004 example 2)', () => {
    const skip = one('Do not run tests before commit');
    const correction = one('Correction: skip the tests before committing', 'correction', 1);
    const found = contradictionsOf(testsGroup(), [skip, correction]);
    expect(new Map(found.map((c) => [c.id, c.kind]))).toEqual(
      new Map([
        [skip.id, 'negation'],
        [correction.id, 'correction'],
      ]),
    );
    // By timestamp: the older one first.
    expect(found.map((c) => c.id)).toEqual([skip.id, correction.id]);
  });

  it('reads a negation of two steps in reverse order as the same order, and the same order negated as opposite', () => {
    // ¬(commit before the tests) = the tests before the commit: the same habit (issue 21, a newcomer's walk).
    const reworded = [
      one('Never commit before the tests pass', 'correction', 1),
      one("Don't commit until the tests pass", 'correction', 1),
      one('Do not commit before running the tests', 'correction', 1),
    ];
    expect(contradictionsOf(testsGroup(), reworded)).toEqual([]);
    expect(assertionOf('Never commit before the tests pass').order).toEqual({
      earlier: ['test', 'pass'],
      later: ['commit'],
    });
    // The same order negated still says the opposite.
    const opposed = [
      one('Never run the tests before you commit', 'correction', 1),
      one('Stop running the full test suite before committing', 'preference', 1),
    ];
    expect(contradictionsOf(testsGroup(), opposed).map((c) => c.id)).toEqual(opposed.map((o) => o.id));
  });

  it('counts a negation in an order only when it governs the first step itself', () => {
    // A negated verb that asks for the step ("don't forget to", "never hesitate to", "don't be afraid to") or a
    // negation in another clause keeps the stated order: these say commit first, against the tests-first habit.
    const plain = [
      "Don't forget to commit before running the tests",
      'Never hesitate to commit before the tests run',
      "Don't be afraid to commit before the tests finish",
      "Don't worry about CI and commit before the tests run",
    ];
    const planted = () => [
      ...repeat('Run the tests before you commit', 4, 'correction'),
      ...repeat('Always run the tests before committing', 3, 'correction'),
    ];
    for (const text of plain) {
      expect(assertionOf(text).order).toMatchObject({ earlier: ['commit'] });
      const extra = [one(text, 'correction', 1)];
      expect(contradictionsOf(planted(), extra).map((c) => c.id)).toEqual([extra[0]?.id]);
    }
    // And the same verbs asking for the habit's own order agree with it.
    expect(assertionOf("Don't forget to run the tests before you commit").order).toEqual({
      earlier: ['run', 'test'],
      later: ['commit'],
    });
    expect(
      contradictionsOf(planted(), [one("Don't forget to run the tests before you commit", 'correction', 1)]),
    ).toEqual([]);
    // After wait/bother/worry no order is read.
    expect(assertionOf("Don't wait for the tests before you commit").order).toBeUndefined();
  });

  it('reads a bare verb joined by and/or to a negated one as negated too', () => {
    const planted = () => [
      ...repeat('Run the tests before you commit', 4, 'correction'),
      ...repeat('Always run the tests before committing', 3, 'correction'),
    ];
    for (const text of ["Don't commit and push before the tests pass", 'Never commit or push before the tests pass']) {
      expect(assertionOf(text).order).toEqual({ earlier: ['test', 'pass'], later: ['commit', 'push'] });
      expect(contradictionsOf(planted(), [one(text, 'correction', 1)])).toEqual([]);
    }
    // A subject or another negation after the joiner opens a clause of its own.
    expect(assertionOf("Don't panic and I commit before the tests pass").order).toMatchObject({ earlier: ['commit'] });
  });

  it('does not take an error made when the pattern was broken for a contradiction', () => {
    expect(
      contradictionsOf(testsGroup(), [one('Committed without running the tests and CI went red', 'error')]),
    ).toEqual([]);
  });

  it("reads an outcome naming the habit's tool as evidence, not another choice; a choice still contradicts", () => {
    const habit = () => repeat('always run npm test before git commit', 3, 'correction');
    // The hooks record a failed test command so; it names npm and chooses nothing over it.
    for (const type of ['error', 'success'] as const) {
      const outcome = one(type === 'error' ? 'tests failed: npm test' : 'tests passed: npm test', type, 1);
      expect(contradictionsOf(habit(), [outcome])).toEqual([]);
      expect(contradictionsOf(habit(), [outcome], false)).toEqual([]);
    }
    const negated = one("don't run npm test before commits, CI does it", 'correction', 1);
    expect(contradictionsOf(habit(), [negated])).toMatchObject([{ id: negated.id, kind: 'correction' }]);
    const chosen = one('Installed with yarn instead of npm and the build broke', 'error', 1);
    expect(contradictionsOf(repeat('Always install dependencies with yarn', 3, 'preference'), [chosen])).toMatchObject([
      { id: chosen.id, kind: 'opposite-convention' },
    ]);
  });

  it('does not report members that agree, nor unrelated negative statements', () => {
    expect(contradictionsOf(camelGroup(), [])).toEqual([]);
    expect(
      contradictionsOf(testsGroup(), [one('Never deploy on Fridays'), one('The office printer does not work')]),
    ).toEqual([]);
  });

  it('needs an established pattern to contradict: one dissenting member is not enough', () => {
    const items = [...repeat('Ask before deleting any file', 1, 'preference'), one('Never ask before deleting files')];
    const [result] = detectContradictions(items, [{ ids: items.map((o) => o.id) }]);
    expect(result?.contradictions).toEqual([]);
  });

  it('reports each contradiction against one group only, the one it opposes', () => {
    const camel = camelGroup();
    const tests = testsGroup();
    const dissent = one('Prefer snake_case for variable names');
    const result = detectContradictions(
      [...camel, ...tests, dissent],
      [{ ids: tests.map((o) => o.id) }, { ids: [...camel, dissent].map((o) => o.id) }],
    );
    expect(result.map((r) => r.contradictions.map((c) => c.id))).toEqual([[], [dissent.id]]);
  });

  it('gives the same result whatever the order of the observations', () => {
    const items = [
      ...camelGroup(),
      ...testsGroup(),
      one('Prefer snake_case for variable names'),
      one('Do not run tests before commit'),
    ];
    const groups = [{ ids: items.slice(0, 13).map((o) => o.id) }, { ids: items.slice(13).map((o) => o.id) }];
    const reference = detectContradictions(items, groups);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: items.length, maxLength: items.length }),
        (keys) => {
          const shuffled = items
            .map((item, i) => ({ item, key: keys[i] as number }))
            .sort((a, b) => a.key - b.key)
            .map((x) => x.item);
          expect(detectContradictions(shuffled, groups)).toEqual(reference);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('gives ages that block significance for 7 days (seed 004: no recent contradiction)', () => {
    const dissent = one('Prefer snake_case for variable names', 'preference', 2);
    const group = camelGroup();
    const found = contradictionsOf(group, [dissent]);
    const ages = contradictionAgesDays(found, NOW);
    expect(ages).toEqual([2]);
    const confidences = group.map(() => 0.6);
    expect(isSignificant({ confidences, contradictionAgesDays: ages }).significant).toBe(false);
    expect(
      isSignificant({ confidences, contradictionAgesDays: contradictionAgesDays(found, NOW + 6 * DAY) }).significant,
    ).toBe(true);
  });

  it('rejects unknown ids, an id in two groups and repeated ids with INVALID_INPUT', () => {
    const items = camelGroup();
    expect(codeOf(() => detectContradictions(items, [{ ids: ['nope'] }]))).toBe('INVALID_INPUT');
    expect(
      codeOf(() => detectContradictions(items, [{ ids: [items[0]?.id as string] }, { ids: [items[0]?.id as string] }])),
    ).toBe('INVALID_INPUT');
    expect(codeOf(() => detectContradictions([...items, items[0] as ContradictionItem], []))).toBe('INVALID_INPUT');
    expect(codeOf(() => detectContradictions(items, [], { nearThreshold: 2 }))).toBe('INVALID_INPUT');
  });

  it('returns one empty entry per group when there is nothing to report, and has frozen defaults', () => {
    expect(detectContradictions([], [])).toEqual([]);
    expect(Object.isFrozen(CONTRADICTION_DEFAULTS)).toBe(true);
    expect(Object.isFrozen(OPPOSITE_CONVENTIONS)).toBe(true);
  });
});

describe('reading preferred and rejected parts (issue 21)', () => {
  const parts = (text: string) => {
    const a = assertionOf(text);
    return { preferred: [...a.preferredTerms].sort(), rejected: [...a.rejectedTerms].sort() };
  };

  it('breaks clauses at em and en dashes and at a spaced hyphen', () => {
    for (const dash of [' — ', '—', ' – ', ' - ']) {
      const a = assertionOf(`No, don't use snake_case for variable names${dash}we always use camelCase in this repo.`);
      expect(a.favoured.get('naming case')).toEqual(new Set(['camelCase']));
      expect(a.rejected.get('naming case')).toEqual(new Set(['snake_case']));
    }
  });

  it('reads "X, not Y", "X over Y" and "X instead of Y" as X preferred and Y rejected', () => {
    for (const text of [
      'Use early returns, not nested conditionals',
      'Use early returns over nested conditionals',
      'Use early returns instead of nested conditionals',
      'Prefer early returns rather than nested conditionals',
    ]) {
      const { preferred, rejected } = parts(text);
      expect(preferred).toEqual(expect.arrayContaining(parts('early returns').preferred));
      expect(rejected).toEqual(parts('nested conditionals').preferred);
    }
  });

  it('reads a quoted alternative under a negation as rejected', () => {
    expect(assertionOf('Write "async/await", never "callbacks"').rejected.get('async style')).toEqual(
      new Set(['callbacks']),
    );
    expect(parts("Use 'zod' for validation, not 'joi'").rejected).toEqual(parts('joi').preferred);
  });

  it('supports camelCase with "No, don\'t use snake_case … — we always use camelCase" (issue 21)', () => {
    const correction = one(
      "No, don't use snake_case for variable names — we always use camelCase in this repo.",
      'correction',
    );
    expect(contradictionsOf(camelGroup(), [correction])).toEqual([]);
  });

  it('does not read "X, not Y" as contradicting "prefer X over Y" (the hook\'s own correction form)', () => {
    const group = [
      ...repeat('Prefer early returns over nested if blocks', 3, 'preference'),
      ...repeat('Use early returns to keep nesting flat', 2, 'pattern'),
    ];
    for (const text of ['Use early returns, not nested if statements', 'Early returns instead of nested ifs'])
      expect(contradictionsOf(group, [one(text, 'correction')])).toEqual([]);
  });

  it('reads one preferring what the other rejects on the same subject as a contradiction, without a family', () => {
    const group = [
      ...repeat('Split the large PR into three reviewable parts', 3, 'correction'),
      ...repeat('User asks for small pull requests that are easy to review', 3, 'preference'),
    ];
    const dissent = one('Avoid splitting pull requests; one big PR is easier to review');
    expect(contradictionsOf(group, [dissent]).map((c) => c.id)).toEqual([dissent.id]);
    const viaInstead = one('Send one big pull request instead of splitting it');
    expect(contradictionsOf(group, [viaInstead]).map((c) => c.id)).toEqual([viaInstead.id]);
  });

  it('does not read a negated paraphrase that keeps the subject but rejects something else as a contradiction', () => {
    const group = [
      ...repeat('Use const instead of var', 3, 'preference'),
      ...repeat('Declare variables with const', 3, 'pattern'),
    ];
    expect(contradictionsOf(group, [one("No, don't use var — we always use const here", 'correction')])).toEqual([]);
    expect(contradictionsOf(group, [one("Don't declare variables with var")])).toEqual([]);
    const dissent = one("Don't use const; var is fine");
    expect(contradictionsOf(group, [dissent]).map((c) => c.id)).toEqual([dissent.id]);
  });

  it('does not take the identifier a replacement renamed for a rejected subject', () => {
    const group = repeat("Renamed max_retries to camelCase at the user's request", 4, 'correction');
    expect(contradictionsOf(group, [one('The webhook retries run at most five times', 'pattern')])).toEqual([]);
  });

  it('does not take an alternative a text both favours and rejects for the one it turns down', () => {
    const group = repeat('Indent with two spaces, not tabs', 4, 'preference');
    const correction = one(
      "No, don't indent with 4 spaces — we always indent with two spaces in this repo.",
      'correction',
    );
    expect(contradictionsOf(group, [correction])).toEqual([]);
  });

  it('reads a reproach ("why did you …?") as rejecting what it asks about', () => {
    expect(assertionOf('Why did you write a 200-line function?').polarity).toBe(-1);
    // Two negations cancel: asking why it was turned off favours it.
    expect(assertionOf('Why did you turn off strict type checking?').polarity).toBe(1);
    const group = repeat('Please do not write a 200-line function; split it into helpers', 4, 'correction');
    expect(
      contradictionsOf(group, [one('Why did you write a 200-line function? Keep functions short.', 'correction')]),
    ).toEqual([]);
  });

  it('needs the subject a text names on both sides in the statement it opposes', () => {
    const functions = repeat('Split long functions into small helpers', 4, 'preference');
    const commits = repeat('Split the change into small focused commits', 4, 'preference');
    const dissent = one("Don't split the work into small commits; one commit is fine");
    const items = [...functions, ...commits, dissent];
    const result = detectContradictions(items, [
      { ids: functions.map((o) => o.id) },
      { ids: commits.map((o) => o.id) },
    ]);
    expect(result.map((r) => r.contradictions.map((c) => c.id))).toEqual([[], [dissent.id]]);
  });

  it('leaves out of the parts a word no other observation holds', () => {
    const group = [
      ...repeat('Max 3 files per context', 3, 'preference'),
      ...repeat('Keep at most three files open in the context window', 3, 'preference'),
    ];
    const dissent = one('No longer limit the context to three files', 'correction');
    expect(contradictionsOf(group, [dissent]).map((c) => c.id)).toEqual([dissent.id]);
  });

  it('reads a habit ended ("stop using X", "quit X", "no more X", "X anymore") as rejecting "use X" (walk 12)', () => {
    const rg = () => repeat('Always use rg instead of grep', 3, 'correction');
    for (const text of [
      'stop using rg, git grep only',
      'stop using rg',
      'quit using rg',
      'quit rg, git grep only',
      // A moment word after what ends the thing, or an idiom of ending, still ends the habit (review E).
      'quit rg then, git grep only',
      'stop rg once and for all',
      'quit rg until further notice',
      'quit rg for good, then git grep',
      // "then"/"and" before what replaces the thing, not before another step of a task (review F).
      'quit rg, then git grep',
      'quit rg for good, then run git grep',
      'no more rg',
      'no rg anymore, use git grep',
      'avoid using rg',
      "don't use rg anymore",
    ]) {
      const reversal = one(text, 'correction');
      expect(
        contradictionsOf(rg(), [reversal]).map((c) => c.id),
        text,
      ).toEqual([reversal.id]);
    }
    // Both ways: the ended habit, once learned, is contradicted by taking it up again.
    const ended = repeat('stop using rg, git grep only', 3, 'correction');
    const again = one('Always use rg instead of grep', 'correction');
    expect(contradictionsOf(ended, [again]).map((c) => c.id)).toEqual([again.id]);
    // Paraphrases stay support: ending the other habit, keeping this one, or ending the ending.
    for (const text of [
      'stop using grep, use rg',
      'no more grep, rg instead',
      'quit grep, rg only',
      'keep using rg',
      "don't stop using rg",
    ])
      expect(contradictionsOf(rg(), [one(text, 'correction')]), text).toEqual([]);
    expect(contradictionsOf(ended, [one('quit rg, git grep only', 'correction')])).toEqual([]);
    // Stopping a thing at a moment is a step, not a habit ended (review D): these stay clear of the rules of using it.
    for (const [rule, text] of [
      ['Use the dev server for manual testing', 'quit the dev server before running migrations'],
      ['Use vim keybindings in the editor', 'quit vim with :wq, not :q!'],
      ['Use the dev server for manual testing', 'stop the dev server before running migrations'],
    ] as const)
      expect(contradictionsOf(repeat(rule, 3, 'correction'), [one(text, 'correction')]), text).toEqual([]);
    // "no more than" is a bound, not a habit ended.
    const files = repeat('Keep at most three files open in the context window', 3, 'preference');
    const bound = one('load no more than three files into the context window', 'correction');
    expect(contradictionsOf(files, [bound])).toEqual([]);
  });

  // Stopping a thing before the next step of a task, or for a short while, is a step too (review F, item 3).
  it.each([
    ['Use the dev server for manual testing', 'stop the dev server then run the migrations'],
    ['Use the dev server for manual testing', 'stop the dev server and wait until the build finishes'],
    ['Use the dev server for manual testing', 'quit the dev server for a moment while the migrations run'],
    ['Use the dev server for manual testing', 'stop the dev server and then restart it with --inspect'],
    ['Use vim keybindings in the editor', 'quit vim, then reopen the file'],
  ] as const)('reads %j, then %j as a step, not the habit ended', (rule, text) => {
    expect(contradictionsOf(repeat(rule, 3, 'correction'), [one(text, 'correction')])).toEqual([]);
  });

  // A step verb that takes up the replacement for good still ends the habit (review G, item 5).
  it.each([
    ['Always use vitest for the tests', 'quit vitest and run jest instead'],
    ['Always use npm for installs', 'stop npm and install with pnpm from now on'],
    ['Always use npm for installs', 'stop npm, then install with pnpm going forward'],
    ['Always use rg instead of grep', 'quit rg and run git grep instead'],
  ] as const)('reads %j, then %j as the habit ended', (rule, text) => {
    const reversal = one(text, 'correction');
    expect(contradictionsOf(repeat(rule, 3, 'correction'), [reversal]).map((c) => c.id)).toEqual([reversal.id]);
  });

  it('does not read two secrets scrubbed from unrelated corrections as one subject (walk 12)', () => {
    const staging = repeat('no, use the staging key [REDACTED:stripe-key] for this, not the prod one', 3, 'correction');
    const token = one("no, don't use my token [REDACTED:github-token] for pushes, use the deploy key", 'correction');
    expect(contradictionsOf(staging, [token])).toEqual([]);
    expect(assertionOf('use the key [REDACTED:stripe-key]').terms).not.toContain('redact');
    // The statement around a marker is still read: the same habit turned down is a contradiction.
    const dissent = one("no, don't use the staging key [REDACTED:stripe-key], use the prod one", 'correction');
    expect(contradictionsOf(staging, [dissent]).map((c) => c.id)).toEqual([dissent.id]);
  });

  it("does not read another group's established habit on its own subject as a contradiction", () => {
    const variables = repeat('Use camelCase for variable names', 6, 'preference');
    const scheduler = repeat('Name the scheduler module with snake_case', 4, 'preference');
    const renderer = repeat('Name the renderer module with camelCase', 4, 'preference');
    const items = [...variables, ...scheduler, ...renderer];
    const groups = [variables, scheduler, renderer].map((g) => ({ ids: g.map((o) => o.id) }));
    expect(detectContradictions(items, groups).flatMap((r) => r.contradictions)).toEqual([]);
    // A one-off dissent on the same subject is still one.
    const dissent = one('Prefer snake_case for variable names');
    const [first] = detectContradictions([...items, dissent], groups);
    expect(first?.contradictions.map((c) => c.id)).toEqual([dissent.id]);
  });
});
