/**
 * @module eval/habits/phrasing
 * The habit stream extended with the phrasing users really type (issue 21): every habit of
 * `eval/habits/templates` also said as a correction with an em dash, "X, not Y", "no, don't …",
 * "we always …", a question, with typos; habits that share one template and differ only in their
 * slot; synonym spellings; one-off remarks that share a conversational frame and nothing else.
 * Two halves written apart: `dev` (styles, template family, synonyms and remarks the grouping was
 * developed on) and `heldOut` (other styles, another template family, other spellings and remarks,
 * written before the grouping was changed and only measured). Fixed text; the stream is seeded.
 */
import type { Habit, HabitTemplate } from './templates.js';
import { HABITS } from './templates.js';
import type { ObservationType } from '../../src/core/types.js';

/** What a habit asks, in words a user would type (imperative, lower case). */
interface Cue {
  /** The rule. */
  readonly rule: string;
  /** The rule again in other words. */
  readonly rule2: string;
  /** What the agent did instead (imperative). */
  readonly wrongDo: string;
  /** The alternative the user turns down (a noun phrase), for "X, not Y". */
  readonly wrong: string;
  /** The thing the rule is about, short. */
  readonly subject: string;
}

const CUES: Readonly<Record<string, Cue>> = Object.freeze({
  'camel-case': {
    rule: 'use camelCase for variable names',
    rule2: 'name variables and functions in camelCase',
    wrongDo: 'use snake_case for variable names',
    wrong: 'snake_case',
    subject: 'camelCase',
  },
  'tests-before-commit': {
    rule: 'run the tests before you commit',
    rule2: 'make sure the test suite passes before committing',
    wrongDo: 'commit without running the tests',
    wrong: 'committing untested code',
    subject: 'tests before commit',
  },
  'atomic-commits': {
    rule: 'keep commits small and atomic',
    rule2: 'make one focused commit per logical change',
    wrongDo: 'lump everything into one giant commit',
    wrong: 'giant commits',
    subject: 'atomic commits',
  },
  'conventional-commits': {
    rule: 'write commit messages in the Conventional Commits format',
    rule2: 'prefix commit messages with feat:, fix: or chore:',
    wrongDo: 'write commit messages without a conventional prefix',
    wrong: 'free-form commit messages',
    subject: 'conventional commit messages',
  },
  'typescript-strict': {
    rule: 'keep TypeScript strict mode on',
    rule2: 'compile with strict: true in tsconfig',
    wrongDo: 'turn off strict type checking',
    wrong: 'loose type checking',
    subject: 'strict TypeScript',
  },
  'inline-docs': {
    rule: 'document the code inline with JSDoc comments',
    rule2: 'put the docs in doc comments next to the code',
    wrongDo: 'put usage notes in the README',
    wrong: 'long README sections',
    subject: 'inline JSDoc',
  },
  'simplify-code': {
    rule: 'keep the code simple and straightforward',
    rule2: 'prefer the simpler solution over clever abstractions',
    wrongDo: 'add clever abstractions',
    wrong: 'clever one-liners',
    subject: 'simple code',
  },
  'tests-before-refactor': {
    rule: 'write tests before refactoring',
    rule2: 'pin the current behaviour with tests, then refactor',
    wrongDo: 'refactor without tests',
    wrong: 'refactoring blind',
    subject: 'tests before refactoring',
  },
  'context-files': {
    rule: 'keep at most three files in the context',
    rule2: 'load no more than three files into the context window',
    wrongDo: 'stuff the context with every file',
    wrong: 'a context full of files',
    subject: 'three files per context',
  },
  'two-space-indent': {
    rule: 'indent with two spaces',
    rule2: 'use an indent width of 2 spaces',
    wrongDo: 'indent with 4 spaces',
    wrong: 'tabs',
    subject: 'two-space indentation',
  },
  'single-quotes': {
    rule: 'use single quotes for strings',
    rule2: 'write string literals in single quotes',
    wrongDo: 'use double quotes for strings',
    wrong: 'double quotes',
    subject: 'single quotes',
  },
  'rebase-not-merge': {
    rule: 'rebase feature branches onto main',
    rule2: 'keep the history linear with git rebase',
    wrongDo: 'merge main into the feature branch',
    wrong: 'merge commits',
    subject: 'rebasing',
  },
  pnpm: {
    rule: 'use pnpm to install packages',
    rule2: 'install dependencies with pnpm',
    wrongDo: 'run npm install',
    wrong: 'npm',
    subject: 'pnpm',
  },
  'small-pull-requests': {
    rule: 'keep pull requests small',
    rule2: 'open short, focused PRs that are easy to review',
    wrongDo: 'open one huge pull request',
    wrong: 'oversized PRs',
    subject: 'small pull requests',
  },
  'no-silent-catch': {
    rule: 'never swallow errors in an empty catch',
    rule2: 'log or rethrow every caught exception',
    wrongDo: 'leave an empty catch block',
    wrong: 'silent catch blocks',
    subject: 'no silent catch',
  },
  'async-await': {
    rule: 'use async/await instead of promise chains',
    rule2: 'write asynchronous code with await',
    wrongDo: 'chain .then() callbacks',
    wrong: 'then-chains',
    subject: 'async/await',
  },
  'named-exports': {
    rule: 'use named exports',
    rule2: 'export every module member by name',
    wrongDo: 'add a default export',
    wrong: 'default exports',
    subject: 'named exports',
  },
  'structured-logger': {
    rule: 'log through the structured logger',
    rule2: 'emit logs as JSON with the shared logger',
    wrongDo: 'leave console.log calls in',
    wrong: 'console.log',
    subject: 'the structured logger',
  },
  'utc-dates': {
    rule: 'store timestamps in UTC',
    rule2: 'keep every date in UTC on the backend',
    wrongDo: 'store local time in the database',
    wrong: 'local time',
    subject: 'UTC timestamps',
  },
  'secrets-from-env': {
    rule: 'read secrets from environment variables',
    rule2: 'load API keys from the environment, never from source',
    wrongDo: 'hardcode the API key',
    wrong: 'hardcoded credentials',
    subject: 'secrets in env',
  },
  'zod-validation': {
    rule: 'validate request bodies with zod',
    rule2: 'parse every API input through a zod schema',
    wrongDo: 'trust the raw JSON input',
    wrong: 'unvalidated input',
    subject: 'zod validation',
  },
  'lint-before-push': {
    rule: 'run the linter before pushing',
    rule2: 'fix every lint warning before you push',
    wrongDo: 'push with lint errors',
    wrong: 'lint errors on push',
    subject: 'lint before push',
  },
  'plan-first': {
    rule: 'write a short plan before coding',
    rule2: 'outline the steps and wait for approval before implementing',
    wrongDo: 'start coding without a plan',
    wrong: 'coding straight away',
    subject: 'a plan first',
  },
  'concise-answers': {
    rule: 'keep answers short',
    rule2: 'answer briefly and skip the preamble',
    wrongDo: 'write long explanations',
    wrong: 'verbose answers',
    subject: 'short answers',
  },
  changelog: {
    rule: 'add a changelog entry for every user-visible change',
    rule2: 'update CHANGELOG.md with each fix',
    wrongDo: 'forget the changelog',
    wrong: 'changes without a changelog line',
    subject: 'the changelog',
  },
  'short-functions': {
    rule: 'keep functions under 40 lines',
    rule2: 'split long functions into small helpers',
    wrongDo: 'write a 200-line function',
    wrong: 'long functions',
    subject: 'short functions',
  },
  'inject-clock': {
    rule: 'inject the clock instead of calling Date.now()',
    rule2: 'pass now in as a parameter',
    wrongDo: 'call new Date() inside the module',
    wrong: 'Date.now() in the code',
    subject: 'an injected clock',
  },
  'parameterized-sql': {
    rule: 'use parameterized SQL queries',
    rule2: 'bind query parameters with placeholders',
    wrongDo: 'build SQL by string concatenation',
    wrong: 'concatenated SQL strings',
    subject: 'parameterized queries',
  },
  vitest: {
    rule: 'write the tests with vitest',
    rule2: 'use vitest as the test runner',
    wrongDo: 'write jest tests',
    wrong: 'jest',
    subject: 'vitest',
  },
  'ask-before-delete': {
    rule: 'ask before deleting files',
    rule2: 'get confirmation before removing anything',
    wrongDo: 'delete files without asking',
    wrong: 'deleting without asking',
    subject: 'asking before deleting',
  },
});

type Style = (c: Cue) => HabitTemplate;
const t = (type: ObservationType, text: string): HabitTemplate => ({ type, text });
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Styles of the dev half: em dash corrections, "X, not Y", "no, don't …", "we always …", questions. */
const DEV_STYLES: readonly Style[] = [
  (c) => t('correction', `No, don't ${c.wrongDo} — we always ${c.rule} in this repo.`),
  (c) => t('correction', `${cap(c.rule)}, not ${c.wrong}.`),
  (c) => t('preference', `We always ${c.rule2} here`),
  (c) => t('correction', `Can you ${c.rule}? That's how we do it`),
  (c) => t('correction', `no — ${c.rule2} please`),
  (c) => t('preference', `Reminder: ${c.subject} — ${c.rule}.`),
];

/** Styles of the held-out half, written apart from the dev styles. */
const HELD_OUT_STYLES: readonly Style[] = [
  (c) => t('correction', `Again? ${cap(c.rule)} – I said it yesterday.`),
  (c) => t('correction', `Please don't ${c.wrongDo}; ${c.rule2}.`),
  (c) => t('preference', `In this project we ${c.rule}, always.`),
  (c) => t('correction', `Why did you ${c.wrongDo}? ${cap(c.rule)}.`),
  (c) => t('correction', `${cap(c.subject)}, not ${c.wrong} — ${c.rule2}`),
  (c) => t('preference', `hey, remember to ${c.rule2}`),
];

/**
 * A seeded typo in a word of at least five letters: two neighbouring letters swapped, or one
 * dropped. Deterministic in `salt`.
 */
export function typo(text: string, salt: number): string {
  const words = [...text.matchAll(/[A-Za-z]{5,}/g)];
  if (words.length === 0) return text;
  const m = words[salt % words.length] as RegExpMatchArray;
  const word = m[0];
  const at = 1 + (salt % (word.length - 2));
  const changed =
    salt % 2 === 0
      ? `${word.slice(0, at)}${word.charAt(at + 1)}${word.charAt(at)}${word.slice(at + 2)}`
      : `${word.slice(0, at)}${word.slice(at + 1)}`;
  return `${text.slice(0, m.index)}${changed}${text.slice((m.index as number) + word.length)}`;
}

/** The 30 habits with their templates and the half's styled lines (two of them with a typo). */
function styledHabits(styles: readonly Style[], salt: number): Habit[] {
  return HABITS.map((habit, h) => {
    const cue = CUES[habit.key];
    if (cue === undefined) throw new Error(`no phrasing cue for habit ${habit.key}`);
    const styled = styles.map((style) => style(cue));
    const typos = [0, 1].map((k) => {
      const base = styled[(h + k * 3) % styled.length] as HabitTemplate;
      return t(base.type, typo(base.text, salt + h * 7 + k));
    });
    return { ...habit, templates: [...habit.templates, ...styled, ...typos] };
  });
}

/** A family of habits that share their template and differ in its slots. */
function family(
  prefix: string,
  tags: readonly string[],
  slots: readonly (readonly [string, string])[],
  frames: readonly ((a: string, b: string) => HabitTemplate)[],
): Habit[] {
  return slots.map(([a, b]) => ({
    key: `${prefix}:${a}`,
    tags,
    templates: frames.map((frame) => frame(a, b)),
  }));
}

/** Dev family: "Name the X module with XCase" (module and case style differ). */
const NAMING_FAMILY = family(
  'module-case',
  ['code', 'style'],
  [
    ['ledger', 'PascalCase'],
    ['scheduler', 'snake_case'],
    ['importer', 'kebab-case'],
    ['renderer', 'camelCase'],
    ['webhooks', 'SCREAMING_SNAKE_CASE'],
    ['exporter', 'PascalCase'],
    ['mailer', 'snake_case'],
    ['geocoder', 'camelCase'],
  ],
  [
    (m, c) => t('preference', `Name the ${m} module with ${c}`),
    (m, c) => t('correction', `Files in the ${m} module use ${c} names`),
    (m, c) => t('correction', `No — the ${m} module is named in ${c}.`),
  ],
);

/** Held-out family: "Always use <tool> for …" (the tool differs). */
const TOOL_FAMILY = family(
  'tool',
  ['tooling'],
  [
    ['ripgrep', 'searching the code'],
    ['jq', 'reading JSON output'],
    ['tsx', 'running scripts'],
    ['biome', 'formatting'],
    ['direnv', 'loading the environment'],
    ['turborepo', 'building the packages'],
    ['hyperfine', 'timing commands'],
    ['shellcheck', 'checking shell scripts'],
  ],
  [
    (tool, job) => t('preference', `Always use ${tool} for ${job}`),
    (tool, job) => t('correction', `Use ${tool}, we always use ${tool} for ${job}`),
    (tool) => t('preference', `Always use ${tool}.`),
  ],
);

/** Dev synonym spellings: Postgres / PostgreSQL / postgres. */
const POSTGRES: Habit = {
  key: 'postgres-tests',
  tags: ['testing', 'data'],
  templates: [
    t('preference', 'Run the integration tests against Postgres'),
    t('correction', 'Integration tests need a real PostgreSQL, not SQLite'),
    t('preference', 'use postgres in the integration tests'),
    t('correction', "No — the integration tests run on PostgreSQL, don't mock the database"),
  ],
};

/** Held-out synonym spellings: docker compose / docker-compose / Docker Compose. */
const COMPOSE: Habit = {
  key: 'docker-compose',
  tags: ['tooling', 'workflow'],
  templates: [
    t('preference', 'Start the local services with docker compose up'),
    t('correction', 'Use docker-compose for the local services'),
    t('preference', 'Local services run under Docker Compose'),
    t('correction', 'No, bring the local services up with docker-compose, not by hand'),
  ],
};

/** Dev one-off remarks: one conversational frame each, nothing else in common. */
const DEV_REMARKS: readonly string[] = [
  'By the way, the staging certificate expires in June',
  'By the way, Marta is on holiday next week',
  'By the way, the office moves to the third floor',
  'By the way, the design review is on Thursday',
  'By the way, our Slack workspace was renamed',
  'By the way, the coffee machine is fixed',
  'By the way, the demo went well with the bank',
  'By the way, I switched to a standing desk',
  'By the way, the quarterly report is due soon',
  'By the way, the new intern starts Monday',
  'FYI the printer on floor two is broken again',
  'FYI the customer in Oslo renewed their contract',
  'FYI the wifi password changed',
  'FYI the team lunch moved to Friday',
  'FYI the VPN is slow from home today',
  'FYI marketing wants a new landing page',
  'FYI the hackathon theme is accessibility',
  'FYI the CFO asked about cloud costs',
  'FYI the conference talk was accepted',
  'FYI the parking garage closes early tonight',
];

/** Held-out one-off remarks. */
const HELD_OUT_REMARKS: readonly string[] = [
  'Just so you know, the build server reboots at midnight',
  'Just so you know, Priya joins the team in May',
  'Just so you know, the client prefers email over calls',
  'Just so you know, the old dashboard gets retired in spring',
  'Just so you know, my laptop battery is dying',
  'Just so you know, the API partner changed their pricing',
  'Just so you know, legal reviewed the privacy notice',
  'Just so you know, the sprint demo is recorded',
  'Just so you know, the fire drill is at eleven',
  'Just so you know, support hired two people',
  'Side note: the logo files live on the shared drive',
  'Side note: I prefer tea to coffee',
  'Side note: the board meeting got postponed',
  'Side note: the sales team hit its target',
  'Side note: the kitchen fridge gets cleaned on Fridays',
  'Side note: our domain renews automatically',
  'Side note: the translation agency sent an invoice',
  'Side note: the podcast interview is next month',
  'Side note: the load test budget was approved',
  'Side note: a reporter asked about the outage',
];

/** One half of the extended stream. */
export interface PhrasingSet {
  readonly name: 'dev' | 'held-out';
  readonly seed: number;
  readonly habits: readonly Habit[];
  /** One-off remarks, each once in the stream, that must not be grouped together. */
  readonly remarks: readonly HabitTemplate[];
}

/** The dev half: styles, naming family, Postgres spellings and remarks the grouping was developed on. */
export const DEV_PHRASING: PhrasingSet = Object.freeze({
  name: 'dev',
  seed: 21,
  habits: [...styledHabits(DEV_STYLES, 1), ...NAMING_FAMILY, POSTGRES],
  remarks: DEV_REMARKS.map((text) => t('pattern', text)),
});

/** The held-out half: other styles, the tool family, docker compose spellings and other remarks. */
export const HELD_OUT_PHRASING: PhrasingSet = Object.freeze({
  name: 'held-out',
  seed: 2021,
  habits: [...styledHabits(HELD_OUT_STYLES, 5), ...TOOL_FAMILY, COMPOSE],
  remarks: HELD_OUT_REMARKS.map((text) => t('pattern', text)),
});
