import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/helpers.js';
import { generateHabitStream } from '../../../eval/habits/stream.js';
import { CONTRADICTIONS, HABITS } from '../../../eval/habits/templates.js';
import { wordVectorProvider } from '../../embed/word-vectors.js';
import {
  addedContextTerms,
  GROUPING_DEFAULTS,
  groupObservations,
  observationTerms,
  patternText,
  profileAgreement,
  readAddedContext,
  renamedCaseOf,
  spellingVariants,
  stemWord,
  type Grouping,
  type GroupingItem,
} from './pattern-grouping.js';
import type { ObservationType } from '../types.js';

const provider = wordVectorProvider();
const HOUR = 3_600_000;
const T0 = Date.parse('2026-02-01T10:00:00Z');

/** Items with the default offline embeddings of their pattern text. */
async function embedded(
  rows: readonly { id: string; text: string; type?: ObservationType; at?: number; confidence?: number }[],
): Promise<GroupingItem[]> {
  const vectors = await provider.embed(rows.map((r) => patternText(r.text)));
  return rows.map((r, i) => ({
    id: r.id,
    text: r.text,
    type: r.type ?? 'pattern',
    timestamp: r.at ?? T0 + i * HOUR,
    confidence: r.confidence ?? 0.5,
    vector: vectors[i] as Float32Array,
  }));
}

/** Groups as sorted sets of ids, sorted: a canonical form to compare groupings. */
const canonical = (g: Grouping): string[][] =>
  g.groups.map((x) => [...x.ids].sort()).sort((a, b) => (a.join() < b.join() ? -1 : 1));

const SEED_EXAMPLE_1 = [
  {
    id: 'c1',
    text: 'User asks for camelCase naming',
    type: 'correction' as const,
    at: Date.parse('2026-02-01T10:00:00Z'),
    confidence: 0.4,
  },
  {
    id: 'c2',
    text: 'Correction: snake_case → camelCase',
    type: 'correction' as const,
    at: Date.parse('2026-02-01T14:00:00Z'),
    confidence: 0.5,
  },
  {
    id: 'c3',
    text: 'All the code uses camelCase',
    type: 'pattern' as const,
    at: Date.parse('2026-02-02T09:00:00Z'),
    confidence: 0.6,
  },
];
const SEED_EXAMPLE_2 = [
  {
    id: 't1',
    text: 'Tests run before commit',
    type: 'success' as const,
    at: Date.parse('2026-02-02T06:00:00Z'),
    confidence: 0.7,
  },
  {
    id: 't2',
    text: 'CI green after commit',
    type: 'success' as const,
    at: Date.parse('2026-02-02T07:00:00Z'),
    confidence: 0.7,
  },
  {
    id: 't3',
    text: 'Commit without tests made CI red',
    type: 'error' as const,
    at: Date.parse('2026-02-02T08:00:00Z'),
    confidence: 0.8,
  },
];

describe('stemWord and observationTerms', () => {
  it('reduces the forms of a word to one stem', () => {
    expect(new Set(['commit', 'commits', 'committed', 'committing'].map(stemWord))).toEqual(new Set(['commit']));
    expect(stemWord('rebasing')).toBe(stemWord('rebase'));
    expect(stemWord('dependencies')).toBe('dependency');
    expect(stemWord('class')).toBe('class');
    expect(stemWord('string')).toBe('string');
  });

  it('splits identifiers, drops stop words, numbers and file paths, and applies aliases', () => {
    expect(observationTerms('Renamed user_id in src/api/users.ts (session 12)')).toEqual([
      'renam',
      'user',
      'id',
      'session',
    ]);
    expect(observationTerms('Ran the tests')).toEqual(['run', 'test']);
    expect(observationTerms('Split the PR')).toEqual(['split', 'pull', 'request']);
    expect(observationTerms('Correction: snake_case → camelCase')).toEqual(['correction', 'snak', 'cas', 'camel']);
  });

  it('reads words that are also names of object properties as words', () => {
    expect(observationTerms('the constructor of valueOf')).toEqual(['constructor', 'valu']);
  });

  it('keeps slashes that are not paths', () => {
    expect(observationTerms('Use async/await')).toEqual(['use', 'async', 'await']);
    expect(patternText('Fixed src/api/users.ts today')).toBe('Fixed today');
  });

  it("reads a scrubber's redaction marker as nothing, not as words (walk 12)", () => {
    expect(observationTerms('use the staging key [REDACTED:stripe-key] for this')).toEqual(['use', 'stag', 'key']);
    expect(patternText('API_KEY=[REDACTED:credential] in src/env.ts')).not.toMatch(/redacted|credential/i);
  });
});

describe('groupObservations', () => {
  it('groups the seed examples by meaning: camelCase together, tests-before-commit together (seed 004)', async () => {
    const items = await embedded([...SEED_EXAMPLE_1, ...SEED_EXAMPLE_2]);
    const result = groupObservations(items);
    expect(canonical(result)).toEqual([
      ['c1', 'c2', 'c3'],
      ['t1', 't2', 't3'],
    ]);
    expect(result.singletons).toEqual([]);
    for (const group of result.groups) {
      expect(group.ids).toContain(group.representative);
      expect(group.label).toBe(items.find((i) => i.id === group.representative)?.text);
    }
  });

  it('groups each seed example alone as well, in the wording of the seed and of issue 6', async () => {
    expect(canonical(groupObservations(await embedded(SEED_EXAMPLE_1)))).toEqual([['c1', 'c2', 'c3']]);
    expect(canonical(groupObservations(await embedded(SEED_EXAMPLE_2)))).toEqual([['t1', 't2', 't3']]);
    const turned = SEED_EXAMPLE_2.map((o) =>
      o.id === 't3' ? { ...o, text: 'Commit without tests turned CI red' } : o,
    );
    expect(canonical(groupObservations(await embedded(turned)))).toEqual([['t1', 't2', 't3']]);
  });

  it('leaves unrelated observations apart', async () => {
    const items = await embedded([
      { id: 'u1', text: 'User asks for camelCase naming' },
      { id: 'u2', text: 'The staging database was renamed to staging-eu' },
      { id: 'u3', text: 'Invoice numbers restart every January' },
      { id: 'u4', text: 'The coffee machine API has no authentication' },
      { id: 'u5', text: 'Tests run before commit' },
      { id: 'u6', text: 'User is travelling to Lisbon next week' },
      { id: 'u7', text: 'Satellite images arrived rotated by ninety degrees' },
    ]);
    const result = groupObservations(items);
    expect(result.groups).toEqual([]);
    expect(result.singletons).toEqual(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']);
  });

  it('groups repeated wordings without vectors (lexical similarity alone)', () => {
    const items: GroupingItem[] = [
      'Use pnpm, not npm',
      'use pnpm not npm',
      'Invoice numbers restart every January',
    ].map((text, i) => ({
      id: `x${i}`,
      text,
      type: 'preference',
      timestamp: i,
      confidence: 0.5,
    }));
    expect(canonical(groupObservations(items))).toEqual([['x0', 'x1']]);
  });

  it('handles hostile texts in linear time (long paths, long runs of separators)', () => {
    const items: GroupingItem[] = [
      'a/'.repeat(50_000),
      ' '.repeat(100_000) + 'x',
      '-'.repeat(100_000),
      'word '.repeat(20_000),
    ].map((text, i) => ({
      id: `h${i}`,
      text,
      type: 'pattern',
      timestamp: i,
      confidence: 0.5,
    }));
    expect(groupObservations(items).singletons).toHaveLength(4);
  });

  it('returns nothing for no observations', () => {
    expect(groupObservations([])).toEqual({ groups: [], singletons: [], profileJoins: [], details: [], context: [] });
  });

  it('does not depend on the order of its input', async () => {
    const stream = generateHabitStream({
      seed: 11,
      total: 160,
      noise: 40,
      habits: HABITS.slice(0, 6),
      contradictions: [],
    });
    const items = await embedded(
      stream.observations.map((o) => ({
        id: o.id,
        text: o.text,
        type: o.type,
        at: o.timestamp,
        confidence: o.confidence,
      })),
    );
    const reference = groupObservations(items);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: items.length, maxLength: items.length }),
        (keys) => {
          const shuffled = items
            .map((item, i) => ({ item, key: keys[i] as number }))
            .sort((a, b) => a.key - b.key)
            .map((x) => x.item);
          const result = groupObservations(shuffled);
          expect(result).toEqual(reference);
        },
      ),
      { numRuns: 20 },
    );
  });

  it('rejects repeated ids, vectors of different dimensions and options out of range with INVALID_INPUT', () => {
    const item = (id: string, vector?: Float32Array): GroupingItem => ({
      id,
      text: 'a text',
      type: 'pattern',
      timestamp: 0,
      confidence: 0.5,
      ...(vector ? { vector } : {}),
    });
    expect(codeOf(() => groupObservations([item('a'), item('a')]))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupObservations([item('a', new Float32Array(3)), item('b', new Float32Array(4))]))).toBe(
      'INVALID_INPUT',
    );
    expect(codeOf(() => groupObservations([{ ...item('a'), timestamp: Number.NaN }]))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupObservations([item('a')], { joinThreshold: 1.5 }))).toBe('INVALID_INPUT');
    expect(codeOf(() => groupObservations([item('a')], { candidateLimit: 0 }))).toBe('INVALID_INPUT');
  });

  it('has frozen defaults', () => {
    expect(Object.isFrozen(GROUPING_DEFAULTS)).toBe(true);
  });
});

describe('groupObservations on a small stream (300 observations, 5 habits)', () => {
  let stream: ReturnType<typeof generateHabitStream>;
  let result: Grouping;
  beforeAll(async () => {
    const habits = HABITS.slice(0, 5);
    stream = generateHabitStream({
      seed: 3,
      total: 300,
      noise: 60,
      habits,
      contradictions: CONTRADICTIONS.filter((c) => habits.some((h) => h.key === c.habit)),
    });
    result = groupObservations(
      await embedded(
        stream.observations.map((o) => ({
          id: o.id,
          text: o.text,
          type: o.type,
          at: o.timestamp,
          confidence: o.confidence,
        })),
      ),
    );
  });

  it('finds every habit as the majority of a group of ≥ 3, and no group led by noise has ≥ 3 members', () => {
    const habitOf = new Map(stream.observations.map((o) => [o.id, o.habit ?? '-']));
    const majorities = result.groups.map((g) => {
      const counts = new Map<string, number>();
      for (const id of g.ids) counts.set(habitOf.get(id) as string, (counts.get(habitOf.get(id) as string) ?? 0) + 1);
      return { size: g.ids.length, counts: [...counts].sort((a, b) => b[1] - a[1]) };
    });
    const found = new Set(
      majorities.filter((m) => m.size >= 3 && m.counts[0]?.[0] !== '-').map((m) => m.counts[0]?.[0]),
    );
    expect([...found].sort()).toEqual(stream.habits.slice().sort());
    // No group holds three or more observations of two habits.
    for (const m of majorities) expect(m.counts.filter(([h, n]) => h !== '-' && n >= 3).length).toBeLessThanOrEqual(1);
    expect(majorities.filter((m) => m.size >= 3 && m.counts[0]?.[0] === '-')).toEqual([]);
  });

  it('puts every observation in exactly one group or among the singletons', () => {
    const all = [...result.groups.flatMap((g) => g.ids), ...result.singletons].sort();
    expect(all).toEqual(stream.observations.map((o) => o.id).sort());
  });
});

/** Items from texts each said `times` times an hour apart, ids `<key>-<n>`, embedded by default. */
async function repeated(
  rows: readonly { key: string; texts: readonly string[] }[],
  times = 3,
): Promise<GroupingItem[]> {
  const flat = rows.flatMap((r) =>
    r.texts.flatMap((text, t) => Array.from({ length: times }, (_, k) => ({ id: `${r.key}-${t}-${k}`, text }))),
  );
  return embedded(flat);
}

/** The keys (id prefixes before the first dash) of each group, sorted. */
const keysOf = (g: Grouping): string[][] =>
  g.groups.map((x) => [...new Set(x.ids.map((id) => id.slice(0, id.indexOf('-'))))].sort());

describe('slot-aware grouping (issue 21)', () => {
  it('keeps habits that share a template and differ in its slot apart ("Always use <tool>")', async () => {
    const tools = ['ripgrep', 'hyperfine', 'shellcheck', 'direnv', 'turborepo'];
    const rows = tools.map((tool) => ({
      key: tool,
      texts: [`Always use ${tool}`, `Always use ${tool} here.`, `Use ${tool}, we always use ${tool}`],
    }));
    const result = groupObservations(await repeated(rows));
    expect(result.groups.length).toBeGreaterThanOrEqual(tools.length);
    for (const keys of keysOf(result)) expect(keys).toHaveLength(1);
  });

  it('keeps 15 "Name the X module with XCase" habits apart (issue 21: they made one instinct)', async () => {
    const modules = ['ledger', 'scheduler', 'importer', 'renderer', 'webhooks', 'exporter', 'mailer', 'geocoder'];
    const more = ['billing', 'auth', 'search', 'checkout', 'payments', 'admin', 'inventory'];
    const styles = ['camelCase', 'PascalCase', 'snake_case', 'kebab-case', 'SCREAMING_SNAKE_CASE'];
    const rows = [...modules, ...more].map((module, i) => ({
      key: module,
      texts: [`Name the ${module} module with ${styles[i % styles.length]}`],
    }));
    const result = groupObservations(await repeated(rows));
    expect(result.groups).toHaveLength(15);
    for (const keys of keysOf(result)) expect(keys).toHaveLength(1);
  });

  it('keeps "Name the X module with XCase" habits apart, module and case style both differing', async () => {
    const pairs = [
      ['ledger', 'PascalCase'],
      ['scheduler', 'snake_case'],
      ['importer', 'kebab-case'],
      ['renderer', 'camelCase'],
      ['webhooks', 'SCREAMING_SNAKE_CASE'],
    ];
    const rows = pairs.map(([module, style]) => ({
      key: module as string,
      texts: [`Name the ${module} module with ${style}`, `Files in the ${module} module use ${style} names`],
    }));
    const result = groupObservations(await repeated(rows));
    for (const keys of keysOf(result)) expect(keys).toHaveLength(1);
  });

  it('joins one rule said in several styles: em dash, "X, not Y", a question, "we always", a typo', async () => {
    const rows = [
      {
        key: 'pnpm',
        texts: [
          'Use pnpm, not npm.',
          "No, don't use npm — we always use pnpm in this repo.",
          'Can you use pnpm instead of npm?',
          'we alwyas use pnpm, not npm',
        ],
      },
      {
        key: 'quotes',
        texts: [
          'Use single quotes for strings, not double quotes.',
          'Please write string literals in single quotes',
          'no — single quotes for strings please',
        ],
      },
    ];
    const result = groupObservations(await repeated(rows));
    expect(keysOf(result).sort()).toEqual([['pnpm'], ['quotes']]);
    expect(result.singletons).toEqual([]);
  });

  it('joins spellings of one name: Postgres / PostgreSQL, docker compose / docker-compose, a typo', async () => {
    const rows = [
      {
        key: 'postgres',
        texts: [
          'Run the integration tests against Postgres',
          'Integration tests need a real PostgreSQL',
          'use postgres in the integration tests',
        ],
      },
      {
        key: 'compose',
        texts: [
          'Start the local services with docker compose',
          'Use docker-compose for the local services',
          'local services run under dockercompose',
        ],
      },
      {
        key: 'indent',
        texts: ['Indent with two spaces', 'Please idnent with two spaces', 'indent with two spaces, not tabs'],
      },
    ];
    const result = groupObservations(await repeated(rows));
    expect(keysOf(result).sort()).toEqual([['compose'], ['indent'], ['postgres']]);
    expect(result.singletons).toEqual([]);
  });

  it('joins a statement said with where it happened, or with one misspelt word, to the statement', async () => {
    const rules = [
      'Use camelCase for variable names, not snake_case.',
      'Keep functions under 40 lines',
      'Store timestamps in UTC',
      'Validate request bodies with zod',
      'Indent with two spaces',
    ];
    const places = ['during the payments review', 'during the auth review', 'while working on billing'];
    const rows = rules.map((rule, k) => ({
      key: `rule${k}`,
      texts: [rule, rule, ...places.map((place) => `${rule} ${place}`)],
    }));
    (rows[0] as { texts: string[] }).texts.push('Use camelCase for variable nmaes, not snake_case.');
    const result = groupObservations(await repeated(rows));
    expect(keysOf(result).sort()).toEqual(rules.map((_, k) => [`rule${k}`]).sort());
    expect(result.singletons).toEqual([]);
  });

  it('keeps "stop X after" and "start X before" apart: stop is no filler word of a correction', async () => {
    const rows = [
      {
        key: 'stop',
        texts: ['Stop the containers after the tests', 'Always stop the docker containers once tests finish'],
      },
      {
        key: 'start',
        texts: ['Start the containers before the tests', 'Always start the docker containers before tests run'],
      },
    ];
    const result = groupObservations(await repeated(rows));
    expect(keysOf(result).sort()).toEqual([['start'], ['stop']]);
  });

  it('reads "stop / avoid" before a practice as a negation: its paraphrases with "don\'t" join', async () => {
    const rows = [
      {
        key: 'comments',
        texts: ['Stop adding comments to every line', 'Avoid comments on every line', "Don't comment every line"],
      },
      { key: 'logger', texts: ['Stop using console.log, use the logger', 'Use the logger instead of console.log'] },
    ];
    const result = groupObservations(await repeated(rows));
    expect(keysOf(result).sort()).toEqual([['comments'], ['logger']]);
  });

  it('reads the case a rename keeps: a negation before, "is wrong" after, "over to" no preference', async () => {
    const camel = [
      'Changed max_retries to maxRetries as the user asked',
      'Changed api_client to apiClient as the user asked',
      'Changed row_count to rowCount as the user asked',
    ];
    const snake = [
      'Renamed userId to user_id as the user asked',
      'Renamed apiClient to api_client as the user asked',
      'Renamed rowCount to row_count as the user asked',
    ];
    const habitOf = async (extra: readonly string[]) => {
      const texts = [...camel, ...snake, ...extra];
      const result = groupObservations(await embedded(texts.map((text, k) => ({ id: `t${k}`, text }))));
      return extra.map((_, j) => {
        const group = result.groups.find((g) => g.ids.includes(`t${texts.length - extra.length + j}`));
        const ids = new Set(group?.ids ?? []);
        return ids.has('t0') ? 'camel' : ids.has('t3') ? 'snake' : 'apart';
      });
    };
    const [dont, wrong, ...over] = await habitOf([
      "Don't rename user_id to userId",
      'Use max_retries; maxRetries is wrong',
      'Switched page_size over to pageSize as the user asked',
      'Prefer pageSize over page_size',
    ]);
    expect(dont).toBe('snake');
    // Said once and shorter than the renames, it may stay apart; never with the case it rejects.
    expect(wrong).not.toBe('camel');
    expect(renamedCaseOf('Use max_retries; maxRetries is wrong')).toBe('snake');
    expect(over).toEqual(['camel', 'camel']);
  });

  it('reads a negation as rejecting a spelling only where it governs it or the rename verb', () => {
    const cases: [string, string | undefined][] = [
      ['No, rename max_retries to maxRetries', 'camel'],
      ["No, don't write max_retries, write maxRetries", 'camel'],
      ['Stop using max_retries, call it maxRetries', 'camel'],
      ['Avoid max_retries; use maxRetries', 'camel'],
      ["Don't use max_retries, use maxRetries", 'camel'],
      ['Never write max_retries, always maxRetries', 'camel'],
      ['Not sure why it failed; rename max_retries to maxRetries', 'camel'],
      ['The tests do not pass: change max_retries to maxRetries', 'camel'],
      ["Don't rename user_id to userId", 'snake'],
      ["Don't rename maxRetries to max_retries, not ever", 'camel'],
      ['Use maxRetries, not max_retries', 'camel'],
      ['Use max_retries, never maxRetries', 'snake'],
      ['Rename user_id to userId; the old name is not allowed', 'camel'],
      // Two spellings with no rename cue name two layers: no rename.
      ['Keep user_id in the SQL schema and userId in the TypeScript types', undefined],
      ['Serialize userId as user_id in the JSON payload', undefined],
      ['The env var is API_KEY, read it into apiKey', undefined],
      ['Name the CSS class btn-primary and the React component BtnPrimary', undefined],
    ];
    expect(cases.map(([text]) => [text, renamedCaseOf(text)])).toEqual(cases);
  });

  it('keeps template siblings apart when the phrase they differ by names a topic, not a place', async () => {
    const modules = ['ledger', 'scheduler', 'importer', 'renderer'];
    const rows = modules.map((module) => ({
      key: module,
      texts: [`Name the ${module} module with PascalCase`, `Name the ${module} module with PascalCase in reviews`],
    }));
    const result = groupObservations(await repeated(rows));
    for (const keys of keysOf(result)) expect(keys).toHaveLength(1);
  });

  it('keeps template siblings and a habit sharing a word with them apart, all said in the same places', async () => {
    // Where a rule was said ("… during the payments review") is added to every habit's wordings alike: it weighs as
    // a generic word, and the slot (the module) decides, not the place two wordings of different habits share.
    const places = [
      'during the payments review',
      'while working on onboarding',
      'during the auth review',
      'while working on billing',
      'during the search review',
      'while working on inventory',
    ];
    const habits = [
      {
        key: 'renderer',
        rules: ['Name the renderer module with camelCase', 'Files in the renderer module use camelCase names'],
      },
      {
        key: 'geocoder',
        rules: ['Name the geocoder module with camelCase', 'Files in the geocoder module use camelCase names'],
      },
      {
        key: 'camel',
        rules: ['Use camelCase for variable names', 'Variables and functions should be written in camelCase'],
      },
    ];
    const rows = habits.map(({ key, rules }) => ({
      key,
      texts: [...rules, ...rules, ...rules.flatMap((rule) => places.map((place) => `${rule} ${place}`))],
    }));
    const result = groupObservations(await repeated(rows, 2));
    expect(keysOf(result).sort()).toEqual([['camel'], ['geocoder'], ['renderer']]);
    // Every place word, and nothing the rules say (not "render", "camelcas", "name" or "modul").
    expect(result.context).toEqual([
      'auth',
      'bill',
      'dure',
      'inventori',
      'onboard',
      'payment',
      'review',
      'search',
      'work',
    ]);
  });

  it('keeps siblings apart whose slot is a place the batch adds to other habits (a slot there)', async () => {
    // "billing" is where two habits were said ("… while working on billing") and what a sibling is about ("Name the
    // billing module …"): in the siblings' own wordings, said without a place, it stays the slot that tells them apart.
    const sibling = (module: string) => ({
      key: module,
      texts: [
        `Name the ${module} module with snake_case`,
        `Files in the ${module} module use snake_case names`,
        `No — the ${module} module is named in snake_case.`,
      ],
    });
    const places = ['while working on billing', 'while working on search', 'during the auth review'];
    const others = [
      { key: 'pnpm', texts: ['Use pnpm, not npm', 'Install packages with pnpm'] },
      { key: 'pr', texts: ['Keep pull requests small', 'Split large pull requests'] },
    ].map(({ key, texts }) => ({ key, texts: [...texts, ...texts.flatMap((t) => places.map((p) => `${t} ${p}`))] }));
    const result = groupObservations(
      await repeated([sibling('billing'), sibling('search'), sibling('auth'), ...others], 2),
    );
    expect(result.context).toEqual(expect.arrayContaining(['bill', 'search', 'auth']));
    const keys = keysOf(result);
    for (const k of keys) expect(k).toHaveLength(1);
    expect(
      keys
        .flat()
        .filter((k) => ['billing', 'search', 'auth'].includes(k))
        .sort(),
    ).toEqual(['auth', 'billing', 'search']);
  });

  it('reads an identifier a template names in passing as a detail ("Renamed <id> to camelCase")', async () => {
    // The identifier is said in this frame only; a tool is the subject of several wordings ("Always use jq …").
    const ids = ['max_retries', 'api_client', 'row_count', 'order_total', 'page_size'];
    const rows = [
      ...ids.map((id) => ({
        key: `renamed${id.replace('_', '')}`,
        texts: [`Renamed ${id} to camelCase at the user's request`],
      })),
      {
        key: 'camel',
        texts: ['Use camelCase for variable names, not snake_case.', 'Variables are named in camelCase'],
      },
      { key: 'ripgrep', texts: ['Always use ripgrep for searching the code', 'Always use ripgrep.'] },
      { key: 'jq', texts: ['Always use jq for reading JSON output', 'Always use jq.'] },
    ];
    const result = groupObservations(await repeated(rows));
    const keys = keysOf(result);
    const renamed = keys.filter((k) => k.some((key) => key.startsWith('renamed')));
    // One group of the five renames and nothing else: the rule said alone ("Use camelCase …") shares camel, case
    // but says variable, name the renames do not, and renamed, user, request it does not: it stays apart.
    expect(renamed).toEqual([ids.map((id) => `renamed${id.replace('_', '')}`).sort()]);
    for (const k of keys.filter((k) => !k.some((key) => key.startsWith('renamed')))) expect(k).toHaveLength(1);
    expect(keys.flat()).toEqual(expect.arrayContaining(['camel', 'jq', 'ripgrep']));
    // Each rename says which identifier was read as a detail.
    const detail = (key: string) => result.details.find((d) => d.id.startsWith(`${key}-`))?.terms;
    expect(detail('renamedmaxretries')).toEqual(['max', 'retri']);
    expect(detail('renamedapiclient')).toEqual(['api', 'client']);
    expect(result.details.filter((d) => !d.id.startsWith('renamed'))).toEqual([]);
  });

  it('reads camelCase identifiers or ones with a digit as details too, three of them in one frame', async () => {
    const frame = (id: string) => ({
      key: id.toLowerCase(),
      texts: [`Renamed ${id} to snake_case at the user's request`],
    });
    const others = [
      { key: 'snake', texts: ['Use snake_case for column names, not camelCase.', 'Columns are named in snake_case'] },
      { key: 'ripgrep', texts: ['Always use ripgrep for searching the code'] },
    ];
    const three = keysOf(
      groupObservations(await repeated([frame('apiClient'), frame('rowCount'), frame('v2Total'), ...others])),
    );
    expect(three).toContainEqual(['apiclient', 'rowcount', 'v2total']);
    // Two renames are as likely two habits as one said about two identifiers: they stay apart.
    const two = keysOf(groupObservations(await repeated([frame('apiClient'), frame('rowCount'), ...others])));
    for (const k of two) expect(k).toHaveLength(1);
  });

  it('reads no detail where the identifier is said elsewhere, the frame is not, or each is said once', async () => {
    const rename = (id: string) => ({
      key: `renamed${id.replace('_', '')}`,
      texts: [`Renamed ${id} to camelCase at the user's request`],
    });
    const camel = { key: 'camel', texts: ['Use camelCase for variable names, not snake_case.'] };
    const jq = { key: 'jq', texts: ['Always use jq for reading JSON output'] };
    const renames = ['max_retries', 'row_count', 'page_size'].map(rename);
    const read = async (rows: { key: string; texts: string[] }[], times = 3) => {
      const result = groupObservations(await repeated(rows, times));
      return { details: result.details.map((d) => d.id.slice(0, d.id.indexOf('-'))).sort() };
    };
    // Said in a statement of its own too, api_client is what that rename is about, no detail (the rename still
    // joins the others by its frame's words).
    const mock = { key: 'mock', texts: ['Mock api_client in the unit tests'] };
    expect((await read([...renames, rename('api_client'), mock, camel, jq])).details).toEqual([
      'renamedmaxretries',
      'renamedpagesize',
      'renamedrowcount',
    ]);
    // Without camelCase said outside the frame, the frame is no habit said about identifiers.
    const alone = await read([...renames, jq]);
    expect(alone.details).toEqual([]);
    // Said once each, the renames are remarks: no template.
    const once = await read([...renames, camel, jq], 1);
    expect(once.details).toEqual([]);
  });

  it('never reads a plain word filling a template as a detail: the tool or the file is the habit', async () => {
    const others = [
      { key: 'env', texts: ['Read secrets from environment variables'] },
      { key: 'utc', texts: ['Dates are stored in UTC'] },
    ];
    const message = { key: 'msg', texts: ['Write commit messages in the imperative mood'] };
    // "commit" said alone outside the frame once made prettier, eslint and tsc one habit.
    const tools = ['prettier', 'eslint', 'tsc'].map((tool) => ({
      key: tool,
      texts: [`Run ${tool} before committing`],
    }));
    const files = [
      { key: 'lock', texts: ['Never edit the lockfile by hand'] },
      { key: 'mig', texts: ['Never edit applied migrations by hand'] },
      { key: 'gen', texts: ['Never edit generated clients by hand'] },
      { key: 'fmt', texts: ['Fix formatting by running the formatter, not by hand'] },
    ];
    for (const rows of [
      [...tools, message, ...others],
      [...files, message, ...others],
    ]) {
      const result = groupObservations(await repeated(rows));
      for (const k of keysOf(result)) expect(k).toHaveLength(1);
      expect(result.details).toEqual([]);
    }
  });

  it('leaves one-off remarks apart that fill one template, its words said elsewhere too', async () => {
    const remarks = ['barcode scanner', 'payment gateway', 'image cache', 'rate limiter', 'session store'].map(
      (thing, i) => ({ id: `remark${i}`, text: `Looked up how the ${thing} works in Nginx` }),
    );
    const habit = ['Nginx serves the static files', 'Serve static files from Nginx'].flatMap((text, t) =>
      [0, 1, 2].map((k) => ({ id: `nginx-${t}-${k}`, text })),
    );
    const result = groupObservations(await embedded([...remarks, ...habit]));
    for (const group of result.groups) expect(group.ids.filter((id) => id.startsWith('remark')).length).toBeLessThan(2);
  });

  it('leaves remarks apart that share only the marker of a secret scrubbed from them (walk 12)', async () => {
    const remarks = [
      'Marta pasted [REDACTED:stripe-key] into the team chat',
      'revoke [REDACTED:stripe-key] today',
      'the webhook secret [REDACTED:stripe-key] lives in the vault now',
      'the old payment token [REDACTED:stripe-key] was revoked',
      'rotated [REDACTED:stripe-key] on monday',
    ].map((text, i) => ({ id: `remark${i}`, text }));
    expect((await embedded(remarks).then(groupObservations)).groups).toEqual([]);
    // Nor do they join a habit whose secret was scrubbed the same way.
    const habit = [0, 1, 2].map((k) => ({
      id: `staging${k}`,
      text: 'no, use the staging key [REDACTED:stripe-key] for this, not the prod one',
    }));
    const result = groupObservations(await embedded([...habit, ...remarks]));
    expect(canonical(result)).toEqual([['staging0', 'staging1', 'staging2']]);
  });

  it('leaves one-off remarks that share only a conversational frame apart', async () => {
    const remarks = [
      'By the way, the staging certificate expires in June',
      'By the way, Marta is on holiday next week',
      'By the way, the office moves to the third floor',
      'By the way, the design review is on Thursday',
      'FYI the printer on floor two is broken again',
      'FYI the customer in Oslo renewed their contract',
      'FYI the wifi password changed',
      'FYI the team lunch moved to Friday',
    ];
    const result = groupObservations(await embedded(remarks.map((text, i) => ({ id: `r${i}`, text }))));
    expect(result.groups).toEqual([]);
  });
});

describe('groups joined by what they say as groups (issue 21, profile pass)', () => {
  /** Habits said alike by no other row: each weighs terms the others hold in the profiles. */
  const others = [
    { key: 'env', texts: ['Read secrets from environment variables'] },
    { key: 'utc', texts: ['Dates are stored in UTC'] },
    { key: 'lint', texts: ['Run the linter before pushing'] },
    { key: 'pnpm', texts: ['Install dependencies with pnpm'] },
  ];

  it('weighs what each group says alone against a join: agreement over both whole cores, at most 1', () => {
    const idf = (held: Record<string, number>, groups: number) => (t: string) => Math.log(groups / (held[t] ?? 1));
    const core = (...terms: string[]) => new Map(terms.map((t) => [t, 1]));
    // "Start the database with docker compose" / "Never prune docker volumes, the database lives there".
    const docker = profileAgreement(
      core('start', 'databas', 'docker', 'compos'),
      core('prune', 'docker', 'volum', 'databas', 'live'),
      idf({ databas: 2, docker: 2 }, 10),
    );
    expect(docker.shared).toBe(2);
    expect(docker.agreement).toBeLessThan(0.5);
    expect(docker.joins).toBe(false);
    // Near the bar, all terms weighing alike: four shared and one own each side agree at 0.8 and join; two shared and
    // one own each side agree at 2/3 and do not; three shared and one own each side are at the bar (0.75).
    const even = () => 1;
    expect(profileAgreement(core('a', 'b', 'c', 'd', 'x'), core('a', 'b', 'c', 'd', 'y'), even)).toEqual({
      agreement: expect.closeTo(0.8, 12),
      shared: 4,
      joins: true,
    });
    expect(profileAgreement(core('a', 'b', 'x'), core('a', 'b', 'y'), even).joins).toBe(false);
    expect(profileAgreement(core('a', 'b', 'c', 'x'), core('a', 'b', 'c', 'y'), even).joins).toBe(true);
    // A term every group holds weighs 0 and is no shared term: one distinctive word in common is not enough.
    const universal = profileAgreement(core('docker', 'project'), core('docker', 'project'), (t) =>
      t === 'project' ? 0 : 1,
    );
    expect(universal).toEqual({ agreement: 0, shared: 1, joins: false });
    // The same profile agrees at 1, never above (rounding once reported 1.0000000000000002).
    const same = new Map([
      ['a', 0.1],
      ['b', 0.8],
    ]);
    expect(profileAgreement(same, same, idf({ a: 1, b: 4 }, 20)).agreement).toBe(1);
  });

  it('keeps apart groups sharing words that each say more (docker compose / volumes, log level / PII)', async () => {
    const streams = [
      [
        { key: 'compose', texts: ['Start the database with docker compose'] },
        { key: 'prune', texts: ['Never prune docker volumes, the database lives there'] },
        { key: 'img', texts: ['Pin docker base images by digest'] },
      ],
      [
        { key: 'pii', texts: ['Never log user emails in production'] },
        { key: 'level', texts: ['Use the warn log level for retries in production'] },
        ...others.slice(0, 2),
      ],
    ];
    for (const rows of streams) {
      const result = groupObservations(await repeated(rows));
      for (const k of keysOf(result)) expect(k).toHaveLength(1);
      expect(result.profileJoins).toEqual([]);
    }
  });

  it('keeps apart groups sharing one distinctive word, generic words only, or filling a slot differently', async () => {
    const rows = [
      // One word in common ("brief"); the rest of each is its own.
      { key: 'appreciated', texts: ['Brief responses were appreciated'] },
      { key: 'messages', texts: ['Keep the commit messages brief'] },
      // Generic words in common only ("always use").
      { key: 'jq', texts: ['Always use jq'] },
      { key: 'ripgrep', texts: ['Always use ripgrep'] },
      // Siblings: everything in common but the module they name.
      { key: 'ledger', texts: ['Name the ledger module with PascalCase', 'Files in the ledger module are PascalCase'] },
      {
        key: 'billing',
        texts: ['Name the billing module with PascalCase', 'Files in the billing module are PascalCase'],
      },
      ...others,
    ];
    const result = groupObservations(await repeated(rows));
    for (const k of keysOf(result)) expect(k).toHaveLength(1);
    expect(result.profileJoins).toEqual([]);
  });
});

describe('addedContextTerms', () => {
  it('reads a phrase added to different statements as context, and one added to one statement as what it says', () => {
    const texts = [
      'Use pnpm to install packages',
      'Use pnpm to install packages during the payments review',
      'Keep pull requests small',
      'Keep pull requests small during the payments review',
      'Always use jq',
      'Always use jq for reading JSON output',
      'Always use jq during the auth review',
      'Always use jq for reading JSON output during the auth review',
    ];
    const context = addedContextTerms(texts);
    expect([...context].sort()).toEqual(['dure', 'payment', 'review']);
    // Said after one statement only, the place is no context yet.
    expect(addedContextTerms(texts.slice(0, 2))).toEqual(new Set());
  });

  it('never reads a negation added to statements as context: it says their opposite', () => {
    const rules = ['use npm for installs', 'use var for constants', 'commit on Fridays'];
    const texts = rules.flatMap((rule) => [
      rule,
      `Never ${rule}`,
      `Do not ${rule}`,
      `${rule} during the payments review`,
    ]);
    expect([...addedContextTerms(texts)].sort()).toEqual(['dure', 'payment', 'review']);
  });
});

describe('readAddedContext', () => {
  it('reads a context term as the slot of the wordings that say it alone in a shared template', () => {
    const sibling = (module: string) => [
      `Name the ${module} module with snake_case`,
      `Files in the ${module} module use snake_case names`,
    ];
    const rules = ['Keep pull requests small', 'Use pnpm, not npm'];
    const texts = [
      ...['billing', 'search'].flatMap(sibling),
      ...rules,
      ...rules.flatMap((rule) => [`${rule} while working on billing`, `${rule} while working on search`]),
    ];
    const read = readAddedContext([...texts, ...texts]);
    expect([...read.terms].sort()).toEqual(['bill', 'search', 'work']);
    expect(read.slotOf('Name the billing module with snake_case')).toBe('bill');
    expect(read.slotOf('Files in the search module use snake_case names')).toBe('search');
    // Where the place is added, it stays context.
    expect(read.slotOf('Keep pull requests small while working on billing')).toBeUndefined();
    // Said once, a wording states no slot of its own.
    expect(readAddedContext(texts).slotOf('Name the billing module with snake_case')).toBeUndefined();
  });
});

describe('spellingVariants', () => {
  const counts = (entries: Record<string, number>) => new Map(Object.entries(entries));

  it('reads a longer form of a term of the batch as that term (postgres → postgre, of PostgreSQL)', () => {
    const variants = spellingVariants(counts({ postgre: 3, sql: 3, postgres: 2, format: 4, formatting: 1 }));
    expect(variants.get('postgres')).toEqual(['postgre']);
    // More than three letters longer: another word.
    expect(variants.has('formatting')).toBe(false);
  });

  it('reads one word as the two terms written side by side elsewhere in the batch', () => {
    const variants = spellingVariants(counts({ docker: 2, compos: 2, dockercompos: 1 }), new Set(['docker compos']));
    expect(variants.get('dockercompos')).toEqual(['docker', 'compos']);
    expect(spellingVariants(counts({ docker: 2, compos: 2, dockercompos: 1 })).has('dockercompos')).toBe(false);
  });

  it('reads a term one edit from a more common one as its typo, and never the other way round', () => {
    const variants = spellingVariants(counts({ indent: 9, idnent: 1, ident: 1, indennt: 1 }));
    expect(variants.get('idnent')).toEqual(['indent']);
    expect(variants.get('ident')).toEqual(['indent']);
    expect(variants.get('indennt')).toEqual(['indent']);
    expect(variants.has('indent')).toBe(false);
  });

  it('leaves generic terms, short terms and terms with digits as they are', () => {
    // "user" is generic, "tset" has four letters, "http2" a digit.
    const variants = spellingVariants(counts({ user: 1, usera: 9, http2: 1, http: 5, tset: 1, test: 9 }));
    expect(variants.size).toBe(0);
  });
});
