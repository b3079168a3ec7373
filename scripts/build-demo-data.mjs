// Writes data/demo/*.jsonl: the learning history `credence demo` loads (a month of a coding agent's
// work on a small web service). Run once; the output is committed, so a user's clone has it:
//   node scripts/build-demo-data.mjs
// Deterministic (a seeded PRNG): running it again writes the same files. Times are relative
// (`daysAgo`), so the demo places them before its clock and `--now` reproduces everything.
import { mkdirSync, writeFileSync } from 'node:fs';

const out = new URL('../data/demo/', import.meta.url);
mkdirSync(out, { recursive: true });

// mulberry32: a small seeded PRNG, enough for a plausible history.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = prng(11);
const pick = (list) => list[Math.floor(rng() * list.length)];
const round = (n, d = 3) => Number(n.toFixed(d));

const tools = [
  ['Read', 'Read a file from the local filesystem, with line numbers', 'claude-code'],
  ['Edit', 'Replace an exact string in a file with new text', 'claude-code'],
  ['Write', 'Write a whole file to the local filesystem, replacing what is there', 'claude-code'],
  ['Bash', 'Run a shell command (tests, builds, git) and return its output', 'claude-code'],
  ['Grep', 'Search file contents with a regular expression (ripgrep)', 'claude-code'],
  ['Glob', 'Find files by name with a glob pattern such as src/**/*.ts', 'claude-code'],
  ['WebFetch', 'Fetch a web page and answer a question about its content', 'claude-code'],
  ['TodoWrite', 'Write the task list of the current session', 'claude-code'],
  ['filesystem:read_text_file', 'Read the complete contents of a text file from disk', 'mcp:filesystem'],
  ['filesystem:write_file', 'Create a new file or overwrite an existing file with new content', 'mcp:filesystem'],
  ['filesystem:list_directory', 'List the files and folders of a directory', 'mcp:filesystem'],
  ['filesystem:search_files', 'Recursively search for files and folders matching a pattern', 'mcp:filesystem'],
  ['filesystem:get_file_info', 'Size, times and permissions of a file or folder', 'mcp:filesystem'],
  ['parse_json', 'Parse JSON text into a value', 'flow'],
  ['validate_config', 'Check a configuration object against its JSON schema', 'flow'],
  ['github:get_pull_request', 'Get the details of a pull request: title, body, author, state', 'mcp:github'],
  ['github:get_pull_request_files', 'List the files a pull request changes, with their diffs', 'mcp:github'],
  ['github:create_pull_request_review', 'Submit a review on a pull request with comments', 'mcp:github'],
  ['github:create_pull_request', 'Open a pull request from a branch', 'mcp:github'],
  ['github:list_issues', 'List the issues of a repository, filtered by state and labels', 'mcp:github'],
  ['github:get_issue', 'Get one issue with its comments', 'mcp:github'],
  ['github:add_issue_comment', 'Comment on an issue', 'mcp:github'],
  ['github:update_issue', 'Change an issue: labels, assignees, state', 'mcp:github'],
  ['sqlite:list_tables', 'List the tables of the SQLite database', 'mcp:sqlite'],
  ['sqlite:describe_table', 'Show the columns of a table', 'mcp:sqlite'],
  ['sqlite:read_query', 'Run a SELECT query and return the rows', 'mcp:sqlite'],
  ['sqlite:write_query', 'Run an INSERT, UPDATE or DELETE statement', 'mcp:sqlite'],
  ['playwright:browser_navigate', 'Open a URL in the browser', 'mcp:playwright'],
  ['playwright:browser_snapshot', 'Accessibility snapshot of the current page', 'mcp:playwright'],
  ['playwright:browser_click', 'Click an element of the page', 'mcp:playwright'],
  ['playwright:browser_take_screenshot', 'Take a screenshot of the page', 'mcp:playwright'],
  ['memory:search_nodes', 'Search the knowledge graph memory for entities', 'mcp:memory'],
  ['memory:create_entities', 'Add entities to the knowledge graph memory', 'mcp:memory'],
  ['fetch:fetch', 'Fetch a URL and return its content as markdown', 'mcp:fetch'],
  ['slack:post_message', 'Post a message to a Slack channel', 'mcp:slack'],
  ['summarize', 'Summarise a long text into a few sentences', 'flow'],
  ['searchWeb', 'Search the web for pages about a topic', 'flow'],
  ['writeArticle', 'Write an article from notes and sources', 'flow'],
  ['reviewDraft', 'Review a draft for errors and clarity', 'flow'],
  ['docker:build_image', 'Build a container image from a Dockerfile (deprecated: use Bash)', 'mcp:docker'],
];

const modules = ['auth', 'billing', 'search', 'orders', 'users', 'reports'];
// Node names carry the seed 002 intent patterns (*test*, *fix*, *doc*, …) only through the intent
// text: the tools keep their own names, as an agent's calls do.
const workflows = [
  {
    weight: 5,
    intent: (m) => `fix the failing ${m} test`,
    steps: () => {
      const s = [{ tool: 'Grep' }, { tool: 'Read', consumes: [0] }, { tool: 'Edit', consumes: [1] }];
      if (rng() < 0.35)
        s.push(
          { tool: 'Bash', status: 'failure', note: 'npm test' },
          { tool: 'Read' },
          { tool: 'Edit', consumes: [4] },
        );
      s.push({ tool: 'Bash', note: 'npm test' });
      return s;
    },
  },
  {
    weight: 4,
    intent: (m) => `add a ${m} endpoint with tests`,
    steps: () => [
      { tool: 'TodoWrite' },
      { tool: 'Glob' },
      { tool: 'Read', consumes: [1] },
      { tool: 'Write' },
      { tool: 'Edit', consumes: [2] },
      { tool: 'Bash', note: 'npm test', retries: rng() < 0.2 ? 1 : 0 },
      { tool: 'Bash', note: 'git commit' },
    ],
  },
  {
    weight: 3,
    intent: () => `review pull request #${100 + Math.floor(rng() * 80)}`,
    steps: () => [
      { tool: 'github:get_pull_request' },
      { tool: 'github:get_pull_request_files', consumes: [0] },
      { tool: 'Read' },
      { tool: 'github:create_pull_request_review', consumes: [1] },
    ],
  },
  {
    weight: 2,
    intent: () => 'triage the new issues',
    steps: () => [
      { tool: 'github:list_issues' },
      { tool: 'github:get_issue', consumes: [0] },
      { tool: 'github:update_issue', consumes: [1] },
      { tool: 'github:add_issue_comment', consumes: [1] },
    ],
  },
  {
    weight: 2,
    intent: (m) => `weekly ${m} report from the database`,
    steps: () => [
      { tool: 'sqlite:list_tables' },
      { tool: 'sqlite:describe_table', consumes: [0] },
      { tool: 'sqlite:read_query', consumes: [1], status: rng() < 0.15 ? 'partial' : 'success' },
      { tool: 'Write', consumes: [2] },
      { tool: 'slack:post_message', consumes: [3] },
    ],
  },
  {
    weight: 2,
    intent: (m) => `check the ${m} page in the browser`,
    steps: () => [
      { tool: 'Bash', note: 'npm run dev' },
      { tool: 'playwright:browser_navigate' },
      { tool: 'playwright:browser_snapshot', consumes: [1] },
      { tool: 'playwright:browser_click', consumes: [2] },
      { tool: 'playwright:browser_take_screenshot' },
    ],
  },
  {
    weight: 3,
    intent: () => 'read the config file and validate it',
    steps: () => [
      { tool: 'filesystem:read_text_file' },
      { tool: 'parse_json', consumes: [0] },
      { tool: 'validate_config', consumes: [1], status: rng() < 0.2 ? 'failure' : 'success' },
    ],
  },
  {
    weight: 2,
    intent: (m) => `find where ${m} errors are logged`,
    // A failed Grep (a bad pattern) followed by search_files that works: an `alternative` edge.
    steps: () =>
      rng() < 0.6
        ? [{ tool: 'Grep', status: 'failure' }, { tool: 'filesystem:search_files' }, { tool: 'Read', consumes: [1] }]
        : [{ tool: 'Grep' }, { tool: 'Read', consumes: [0] }],
  },
  {
    weight: 1,
    intent: (m) => `look up the docs for the ${m} library`,
    steps: () => [
      { tool: 'memory:search_nodes' },
      { tool: 'WebFetch' },
      { tool: 'memory:create_entities', consumes: [1] },
    ],
  },
  {
    weight: 1,
    intent: () => 'research rate limiting and write a design note',
    steps: () => [
      { tool: 'searchWeb' },
      { tool: 'fetch:fetch', consumes: [0] },
      { tool: 'summarize', consumes: [1] },
      { tool: 'writeArticle', consumes: [2] },
      { tool: 'reviewDraft', consumes: [3] },
    ],
  },
];
const weighted = workflows.flatMap((w) => Array.from({ length: w.weight }, () => w));

const runs = [];
for (let i = 0; i < 140; i += 1) {
  const w = pick(weighted);
  const m = pick(modules);
  // Older days have fewer runs: the agent was adopted over the month.
  const daysAgo = round(30 * Math.sqrt(rng()), 4);
  const steps = w.steps(m);
  runs.push({
    daysAgo,
    intent: w.intent(m),
    calls: steps.map((s) => ({
      tool: s.tool,
      status: s.status ?? (rng() < 0.04 ? 'failure' : 'success'),
      retries: s.retries ?? (rng() < 0.06 ? 1 : 0),
      durationMs: Math.round(40 + rng() * (s.tool === 'Bash' ? 9000 : 900)),
      consumes: s.consumes ?? [],
    })),
  });
}
runs.sort((a, b) => b.daysAgo - a.daysAgo);

// Recurring habits, each written a few ways, over the last week (evolve reads 7 days by default),
// plus one-off remarks that stay noise.
const habits = [
  {
    type: 'success',
    tags: ['testing'],
    phase: 'review',
    confidence: [0.7, 0.85],
    n: 6,
    texts: [
      'Tests run before commit',
      'Ran the test suite before committing',
      'Tests run before commit, CI stayed green',
    ],
  },
  {
    type: 'correction',
    tags: ['style'],
    phase: 'implementation',
    confidence: [0.48, 0.58],
    n: 4,
    texts: ['User prefers early returns over nested if blocks', 'Use early returns over nested if blocks'],
  },
  {
    type: 'preference',
    tags: ['sql'],
    phase: 'implementation',
    confidence: [0.6, 0.8],
    n: 5,
    texts: ['Use parameterised SQL queries with placeholders', 'SQL queries use placeholders for parameters'],
  },
  {
    type: 'pattern',
    tags: ['errors'],
    phase: 'implementation',
    confidence: [0.5, 0.6],
    n: 4,
    texts: ['Return errors as values with an error code', 'Service functions return errors as values with a code'],
  },
  {
    type: 'error',
    tags: ['config'],
    phase: 'planning',
    confidence: [0.5, 0.7],
    n: 4,
    texts: ['The config file must be validated after parsing', 'Validate the config file after parsing it'],
  },
  {
    type: 'preference',
    tags: ['git'],
    phase: 'review',
    confidence: [0.5, 0.58],
    n: 3,
    texts: ['Small commits with imperative subject lines', 'Write commit subjects in the imperative mood'],
  },
];
const observations = [];
let n = 0;
for (const h of habits) {
  for (let i = 0; i < h.n; i += 1) {
    n += 1;
    observations.push({
      id: `demo-obs-h${String(n).padStart(2, '0')}`,
      daysAgo: round(0.1 + rng() * 6.5, 4),
      type: h.type,
      context: { task: pick(modules), phase: h.phase },
      observation: h.texts[i % h.texts.length],
      confidence: round(h.confidence[0] + rng() * (h.confidence[1] - h.confidence[0]), 2),
      evidence: [],
      tags: h.tags,
    });
  }
}
const oneOffs = [
  ['error', 'The docker build timed out once on the CI runner', 0.3],
  ['pattern', 'Billing amounts are stored in cents', 0.5],
  ['preference', 'User likes tables in pull request descriptions', 0.4],
  ['error', 'Playwright snapshot was empty before the page loaded', 0.35],
  ['success', 'The orders migration ran without downtime', 0.6],
  ['correction', 'Do not log full request bodies', 0.55],
];
for (const [type, observation, confidence] of oneOffs) {
  n += 1;
  observations.push({
    id: `demo-obs-h${String(n).padStart(2, '0')}`,
    daysAgo: round(rng() * 12, 4),
    type,
    context: {},
    observation,
    confidence,
    evidence: [],
    tags: [],
  });
}
observations.sort((a, b) => b.daysAgo - a.daysAgo);

const memories = [
  [
    'demo-mem-db',
    'decision',
    'SQLite for local state, PostgreSQL in production',
    'Local development uses SQLite; staging and production run PostgreSQL 16. Migrations must work on both.',
    ['database', 'postgres'],
  ],
  [
    'demo-mem-errors',
    'decision',
    'Errors as values',
    'Service functions return { ok, value } or { ok: false, error } with a code from the catalogue; ' +
      'exceptions are for bugs.',
    ['errors', 'style'],
  ],
  [
    'demo-mem-ratelimit',
    'decision',
    'Rate limiting at the gateway',
    'Rate limits live in the API gateway (token bucket, 100 requests per minute per key), not in each service.',
    ['api', 'rate-limit'],
  ],
  [
    'demo-mem-deploy',
    'note',
    'Deploys on Tuesday and Thursday',
    'Production deploys happen on Tuesdays and Thursdays after the review meeting; hotfixes any day.',
    ['deploy'],
  ],
  [
    'demo-mem-billing',
    'note',
    'Billing amounts in cents',
    'Every billing amount is an integer number of cents; currency is stored beside it.',
    ['billing'],
  ],
  [
    'demo-mem-tests',
    'note',
    'Test layout',
    'Unit tests sit beside the code as *.test.ts; end-to-end tests in test/e2e drive the real server.',
    ['testing'],
  ],
  [
    'demo-mem-search',
    'decision',
    'Search index rebuilt nightly',
    'The product search index is rebuilt every night at 02:00 UTC; partial updates go through the queue.',
    ['search'],
  ],
  [
    'demo-mem-config',
    'note',
    'Config schema',
    'config.json is validated against schema/config.schema.json at start-up; ' +
      'a bad file stops the service with the path of the bad field.',
    ['config'],
  ],
].map(([id, category, title, text, tags]) => ({ id, category, title, text, tags }));

// What a user accepted or rejected among the results shown to them: feedback marks them.
const suggestions = [
  { surface: 'search', query: 'read a json config file', accept: 'filesystem:read_text_file' },
  { surface: 'search', query: 'run the tests', accept: 'Bash' },
  { surface: 'search', query: 'find files by name', accept: 'Glob' },
  { surface: 'search', query: 'comment on a pull request', accept: 'github:create_pull_request_review' },
  { surface: 'search', query: 'query the database', accept: 'sqlite:read_query' },
  { surface: 'search', query: 'take a screenshot of the page', accept: 'playwright:browser_take_screenshot' },
  { surface: 'search', query: 'build a docker image', accept: null },
  { surface: 'next', query: 'Grep', accept: 'Read' },
  { surface: 'next', query: 'parse_json', accept: 'validate_config' },
  { surface: 'next', query: 'github:get_pull_request', accept: 'github:get_pull_request_files' },
  { surface: 'next', query: 'sqlite:read_query', accept: 'Write' },
  { surface: 'recall', query: 'how are billing amounts stored', accept: 'memory:demo-mem-billing' },
  { surface: 'recall', query: 'when do we deploy', accept: 'memory:demo-mem-deploy' },
];

const lines = (rows) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
writeFileSync(
  new URL('tools.jsonl', out),
  lines(tools.map(([id, description, origin]) => ({ id, description, origin }))),
);
writeFileSync(new URL('runs.jsonl', out), lines(runs));
writeFileSync(new URL('observations.jsonl', out), lines(observations));
writeFileSync(new URL('memories.jsonl', out), lines(memories));
writeFileSync(new URL('suggestions.jsonl', out), lines(suggestions));
console.log(
  `data/demo: ${tools.length} tools, ${runs.length} runs, ${observations.length} observations, ` +
    `${memories.length} memories, ${suggestions.length} suggestions`,
);
