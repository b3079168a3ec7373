/**
 * @module store/sqlite/migrations
 * The SQLite schema, as numbered migrations. `PRAGMA user_version` holds the version reached;
 * each migration runs in its own transaction, so a store is always at one whole version.
 */

import { toolWords } from '../shared.js';

/**
 * What a migration's `after` step uses of the connection (a better-sqlite3 `Database` is one),
 * declared here so that the published declarations need no driver types.
 */
export interface MigrationConnection {
  prepare(sql: string): { run(...params: unknown[]): unknown; all(...params: unknown[]): unknown[] };
}

export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
  /** Work SQL cannot do, run in the same transaction after `sql`. */
  readonly after?: (db: MigrationConnection) => void;
}

/** Every full-text index: each holds a row's words (and so its secrets) until told to drop them. */
export const FTS_TABLES = Object.freeze(['memories_fts', 'tools_fts', 'executions_fts', 'observations_fts']);

/** One revision more for the scope of a row (`new` or `old`). */
const bump = (row: 'new' | 'old'): string =>
  `INSERT INTO revisions (scope, revision) VALUES (${row}.scope, 1) ` +
  'ON CONFLICT (scope) DO UPDATE SET revision = revision + 1;';

/** The row's change at the scope's new revision: its id in the change log (a tombstone when deleted). */
const logChange = (row: 'new' | 'old', kind: string): string =>
  `INSERT INTO changes (scope, kind, id, seq, deleted) VALUES (${row}.scope, '${kind}', ${row}.id, ` +
  `(SELECT revision FROM revisions WHERE scope = ${row}.scope), ${row === 'old' ? 1 : 0}) ` +
  'ON CONFLICT (scope, kind, id) DO UPDATE SET seq = excluded.seq, deleted = excluded.deleted;';

/**
 * Migration 8's triggers: every insert, update and delete of a memory, observation, execution or tool bumps its
 * scope's revision and logs the row's id at it, whichever write made it (a store method, a restore, a bulk
 * delete); an edge bumps the revision only (the graph changed, no index row did).
 */
const CHANGE_TRIGGERS = [
  ['memories', 'memory'],
  ['observations', 'observation'],
  ['executions', 'execution'],
  ['tools', 'tool'],
  ['edges', ''],
]
  .map(([table, kind]) =>
    (['INSERT', 'UPDATE', 'DELETE'] as const)
      .map((op) => {
        const row = op === 'DELETE' ? 'old' : 'new';
        const log = kind === '' ? '' : logChange(row, kind as string);
        return `CREATE TRIGGER ${table}_rev_${op.toLowerCase()} AFTER ${op} ON ${table} BEGIN ${bump(row)} ${log} END;`;
      })
      .join('\n'),
  )
  .join('\n');

/** The tables whose rows `counts` reports, as migration 13 found them (a later table needs a migration of its own). */
const COUNTED = [
  'tools',
  'edges',
  'executions',
  'calls',
  'observations',
  'memories',
  'instincts',
  'skills',
  'feedback',
  'shown',
] as const;

/**
 * Migration 13's count of each counted table's rows per scope, filled from the rows there, then kept by triggers on
 * every insert and delete (a cascade's too) and on a row moved to another scope, whichever write made it.
 */
const COUNT_TABLES = `
  CREATE TABLE table_counts (
    scope TEXT NOT NULL,
    name TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (scope, name)
  ) WITHOUT ROWID;
  ${COUNTED.map((t) =>
    [
      `INSERT INTO table_counts (scope, name, n) SELECT scope, '${t}', count(*) FROM ${t} GROUP BY scope;`,
      ...countTriggers(t),
    ].join('\n  '),
  ).join('\n  ')}
`;

/** The triggers that keep `table_counts` for table `t` (migration 13; a table made again needs them again). */
function countTriggers(t: string): string[] {
  const add = (row: 'new' | 'old', n: string) =>
    `INSERT INTO table_counts (scope, name, n) VALUES (${row}.scope, '${t}', ${n}) ` +
    `ON CONFLICT (scope, name) DO UPDATE SET n = n + excluded.n;`;
  return [
    `CREATE TRIGGER ${t}_count_insert AFTER INSERT ON ${t} BEGIN ${add('new', '1')} END;`,
    `CREATE TRIGGER ${t}_count_delete AFTER DELETE ON ${t} BEGIN ${add('old', '-1')} END;`,
    `CREATE TRIGGER ${t}_count_move AFTER UPDATE OF scope ON ${t} WHEN old.scope IS NOT new.scope ` +
      `BEGIN ${add('old', '-1')} ${add('new', '1')} END;`,
  ];
}

export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    description: 'tools, edges, executions and calls, observations, memories with FTS5, instincts, skills, feedback',
    sql:
      `
      CREATE TABLE tools (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        description TEXT NOT NULL DEFAULT '',
        input_schema TEXT,
        origin TEXT,
        calls INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (scope, id)
      ) WITHOUT ROWID;

      CREATE TABLE edges (
        scope TEXT NOT NULL,
        from_tool TEXT NOT NULL,
        to_tool TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('dependency','contains','alternative','sequence')),
        source TEXT NOT NULL CHECK (source IN ('template','inferred','observed')),
        count INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
        successes INTEGER NOT NULL DEFAULT 0 CHECK (successes >= 0),
        failures INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),
        first_seen INTEGER,
        last_seen INTEGER,
        PRIMARY KEY (scope, from_tool, to_tool, type)
      ) WITHOUT ROWID;
      CREATE INDEX edges_to ON edges (scope, to_tool);

      CREATE TABLE executions (
        rowid INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        intent TEXT NOT NULL,
        intent_kind TEXT,
        started_at INTEGER NOT NULL,
        ended_at INTEGER,
        confidence REAL,
        summary TEXT,
        UNIQUE (scope, id)
      );
      CREATE INDEX executions_scope_started ON executions (scope, started_at DESC);

      CREATE TABLE calls (
        scope TEXT NOT NULL,
        execution_id TEXT NOT NULL,
        idx INTEGER NOT NULL,
        tool TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('success','failure','partial')),
        retries INTEGER NOT NULL DEFAULT 0,
        duration_ms REAL,
        consumes TEXT NOT NULL DEFAULT '[]',
        parent INTEGER,
        at INTEGER,
        PRIMARY KEY (scope, execution_id, idx),
        FOREIGN KEY (scope, execution_id) REFERENCES executions (scope, id) ON DELETE CASCADE
      ) WITHOUT ROWID;

      CREATE TABLE observations (
        rowid INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        timestamp INTEGER NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('pattern','correction','preference','error','success')),
        context TEXT NOT NULL DEFAULT '{}',
        observation TEXT NOT NULL,
        evidence TEXT NOT NULL DEFAULT '[]',
        confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        tags TEXT NOT NULL DEFAULT '[]',
        content_hash BLOB NOT NULL,
        UNIQUE (scope, id),
        UNIQUE (scope, content_hash)
      );
      CREATE INDEX observations_scope_time ON observations (scope, timestamp);

      CREATE TABLE memories (
        rowid INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        category TEXT NOT NULL,
        title TEXT NOT NULL,
        text TEXT NOT NULL,
        tags TEXT NOT NULL DEFAULT '',
        path TEXT,
        confidence REAL,
        intent TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (scope, id)
      );
      CREATE VIRTUAL TABLE memories_fts USING fts5 (
        title, text, tags,
        content = 'memories', content_rowid = 'rowid',
        tokenize = 'porter unicode61'
      );
      CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, title, text, tags) VALUES (new.rowid, new.title, new.text, new.tags);
      END;
      CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, title, text, tags) ` +
      `VALUES ('delete', old.rowid, old.title, old.text, old.tags);
      END;
      CREATE TRIGGER memories_au AFTER UPDATE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, title, text, tags) ` +
      `VALUES ('delete', old.rowid, old.title, old.text, old.tags);
        INSERT INTO memories_fts (rowid, title, text, tags) VALUES (new.rowid, new.title, new.text, new.tags);
      END;

      CREATE TABLE instincts (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        slug TEXT NOT NULL,
        text TEXT NOT NULL,
        confidence REAL NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active','promoted','retired')),
        evidence TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (scope, id),
        UNIQUE (scope, slug)
      ) WITHOUT ROWID;

      CREATE TABLE skills (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        rules TEXT NOT NULL DEFAULT '[]',
        confidence REAL NOT NULL,
        evidence TEXT NOT NULL DEFAULT '[]',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (scope, id),
        UNIQUE (scope, name)
      ) WITHOUT ROWID;

      CREATE TABLE feedback (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        target_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('explicit','validation','correction','contradiction')),
        note TEXT,
        at INTEGER NOT NULL,
        PRIMARY KEY (scope, id)
      ) WITHOUT ROWID;
      CREATE INDEX feedback_target ON feedback (scope, target_id);
    `,
  },
  {
    version: 2,
    description:
      'full-text search over tools, execution intents and observations; stored embeddings with their provider',
    sql:
      `
      CREATE TABLE tool_terms (
        rowid INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        words TEXT NOT NULL,
        description TEXT NOT NULL,
        UNIQUE (scope, id)
      );
      CREATE VIRTUAL TABLE tools_fts USING fts5 (
        words, description,
        content = 'tool_terms', content_rowid = 'rowid',
        tokenize = 'porter unicode61'
      );
      CREATE TRIGGER tool_terms_ai AFTER INSERT ON tool_terms BEGIN
        INSERT INTO tools_fts (rowid, words, description) VALUES (new.rowid, new.words, new.description);
      END;
      CREATE TRIGGER tool_terms_ad AFTER DELETE ON tool_terms BEGIN
        INSERT INTO tools_fts (tools_fts, rowid, words, description) ` +
      `VALUES ('delete', old.rowid, old.words, old.description);
      END;
      CREATE TRIGGER tool_terms_au AFTER UPDATE ON tool_terms BEGIN
        INSERT INTO tools_fts (tools_fts, rowid, words, description) ` +
      `VALUES ('delete', old.rowid, old.words, old.description);
        INSERT INTO tools_fts (rowid, words, description) VALUES (new.rowid, new.words, new.description);
      END;

      CREATE VIRTUAL TABLE executions_fts USING fts5 (
        intent,
        content = 'executions', content_rowid = 'rowid',
        tokenize = 'porter unicode61'
      );
      INSERT INTO executions_fts (executions_fts) VALUES ('rebuild');
      CREATE TRIGGER executions_ai AFTER INSERT ON executions BEGIN
        INSERT INTO executions_fts (rowid, intent) VALUES (new.rowid, new.intent);
      END;
      CREATE TRIGGER executions_ad AFTER DELETE ON executions BEGIN
        INSERT INTO executions_fts (executions_fts, rowid, intent) VALUES ('delete', old.rowid, old.intent);
      END;
      CREATE TRIGGER executions_au AFTER UPDATE OF intent ON executions BEGIN
        INSERT INTO executions_fts (executions_fts, rowid, intent) VALUES ('delete', old.rowid, old.intent);
        INSERT INTO executions_fts (rowid, intent) VALUES (new.rowid, new.intent);
      END;

      CREATE VIRTUAL TABLE observations_fts USING fts5 (
        observation, evidence, context, tags,
        content = 'observations', content_rowid = 'rowid',
        tokenize = 'porter unicode61'
      );
      INSERT INTO observations_fts (observations_fts) VALUES ('rebuild');
      CREATE TRIGGER observations_ai AFTER INSERT ON observations BEGIN
        INSERT INTO observations_fts (rowid, observation, evidence, context, tags) ` +
      `VALUES (new.rowid, new.observation, new.evidence, new.context, new.tags);
      END;
      CREATE TRIGGER observations_ad AFTER DELETE ON observations BEGIN
        INSERT INTO observations_fts (observations_fts, rowid, observation, evidence, context, tags) ` +
      `VALUES ('delete', old.rowid, old.observation, old.evidence, old.context, old.tags);
      END;
      CREATE TRIGGER observations_au AFTER UPDATE ON observations BEGIN
        INSERT INTO observations_fts (observations_fts, rowid, observation, evidence, context, tags) ` +
      `VALUES ('delete', old.rowid, old.observation, old.evidence, old.context, old.tags);
        INSERT INTO observations_fts (rowid, observation, evidence, context, tags) ` +
      `VALUES (new.rowid, new.observation, new.evidence, new.context, new.tags);
      END;

      CREATE TABLE embeddings (
        scope TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('tool', 'execution', 'memory', 'observation')),
        ref_id TEXT NOT NULL,
        model_key TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        vector BLOB NOT NULL,
        PRIMARY KEY (scope, kind, ref_id)
      ) WITHOUT ROWID;
    `,
    after: (db) => {
      const insert = db.prepare('INSERT INTO tool_terms (scope, id, words, description) VALUES (?, ?, ?, ?)');
      for (const row of db.prepare('SELECT scope, id, description FROM tools').all() as {
        scope: string;
        id: string;
        description: string;
      }[]) {
        insert.run(row.scope, row.id, toolWords(row.id), row.description);
      }
    },
  },
  {
    version: 3,
    description: 'what every surface showed, and the verdict on it',
    sql: `
      CREATE TABLE shown (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        surface TEXT NOT NULL CHECK (surface IN ('search', 'next', 'dag', 'recall')),
        target TEXT NOT NULL,
        query TEXT,
        at INTEGER NOT NULL,
        verdict TEXT CHECK (verdict IN ('accepted', 'rejected')),
        verdict_at INTEGER,
        PRIMARY KEY (scope, id)
      ) WITHOUT ROWID;
      CREATE INDEX shown_target ON shown (scope, target);
    `,
  },
  {
    version: 4,
    description: 'the intent of each call (a workflow node), so a stored run explains itself',
    sql: `ALTER TABLE calls ADD COLUMN intent TEXT;`,
  },
  {
    version: 5,
    description: "a tool's MCP annotations (readOnlyHint, …), as its server declared them",
    sql: `ALTER TABLE tools ADD COLUMN annotations TEXT;`,
  },
  {
    version: 6,
    description:
      'Claude Code hooks: what a call was given and gave back (scrubbed, truncated); ' +
      'the queue of hook events; sessions and their turns',
    sql: `
      ALTER TABLE calls ADD COLUMN input TEXT;
      ALTER TABLE calls ADD COLUMN output TEXT;
      CREATE TABLE hook_events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        scope TEXT NOT NULL,
        session_id TEXT NOT NULL,
        turn INTEGER NOT NULL,
        kind TEXT NOT NULL,
        at INTEGER NOT NULL,
        payload TEXT NOT NULL,
        claimed_by TEXT,
        claimed_at INTEGER,
        key TEXT UNIQUE,
        done_at INTEGER
      );
      CREATE INDEX hook_events_session ON hook_events (scope, session_id, seq);
      CREATE TABLE hook_sessions (
        scope TEXT NOT NULL,
        session_id TEXT NOT NULL,
        turn INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT '{}',
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (scope, session_id)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 7,
    description: 'learned workflows (issue 19): one row per shape of run, with its counts, last intents and last use',
    sql: `
      CREATE TABLE workflows (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        key TEXT NOT NULL,
        tools TEXT NOT NULL DEFAULT '[]',
        edges TEXT NOT NULL DEFAULT '[]',
        intents TEXT NOT NULL DEFAULT '[]',
        runs INTEGER NOT NULL DEFAULT 0 CHECK (runs >= 0),
        successes INTEGER NOT NULL DEFAULT 0 CHECK (successes >= 0),
        first_seen INTEGER NOT NULL,
        last_seen INTEGER NOT NULL,
        PRIMARY KEY (scope, id)
      ) WITHOUT ROWID;
      CREATE INDEX workflows_last_seen ON workflows (scope, last_seen);
    `,
  },
  {
    version: 8,
    description:
      'incremental indexes (issue 20): a revision counter per scope, the change log of memories, observations, ' +
      'executions and tools (deletions as tombstones), and persisted vector matrices in chunks',
    sql: `
      CREATE TABLE revisions (
        scope TEXT NOT NULL PRIMARY KEY,
        revision INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE TABLE changes (
        scope TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('tool', 'execution', 'memory', 'observation')),
        id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        deleted INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, kind, id)
      ) WITHOUT ROWID;
      CREATE INDEX changes_seq ON changes (scope, kind, seq);
      CREATE TABLE vector_index (
        scope TEXT NOT NULL,
        name TEXT NOT NULL,
        model_key TEXT NOT NULL,
        revision INTEGER NOT NULL,
        dim INTEGER NOT NULL,
        rows INTEGER NOT NULL,
        chunks INTEGER NOT NULL,
        PRIMARY KEY (scope, name)
      ) WITHOUT ROWID;
      CREATE TABLE vector_chunks (
        scope TEXT NOT NULL,
        name TEXT NOT NULL,
        chunk INTEGER NOT NULL,
        ids TEXT NOT NULL,
        hashes TEXT NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (scope, name, chunk)
      ) WITHOUT ROWID;
      ${CHANGE_TRIGGERS}
    `,
  },
  {
    version: 9,
    description: 'fits measured on replayed past runs (issue 20), so a new process reuses them',
    sql: `
      CREATE TABLE fits (
        scope TEXT NOT NULL,
        name TEXT NOT NULL,
        runs INTEGER NOT NULL,
        tools INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        value TEXT NOT NULL,
        fitted_at INTEGER NOT NULL,
        PRIMARY KEY (scope, name)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 10,
    description:
      "a narrow index of calls by scope (issue 20): status counts a scope's calls from it instead of reading " +
      'every call row with its input and output',
    sql: `
      CREATE INDEX calls_scope ON calls (scope);
    `,
  },
  {
    version: 11,
    description:
      "past runs as the DAG's memory reads them (issue 20): one blob per scope with the revision it reflects, " +
      'so a new process reads it and the change log since instead of every run and call',
    sql: `
      CREATE TABLE past_runs (
        scope TEXT NOT NULL PRIMARY KEY,
        revision INTEGER NOT NULL,
        data BLOB NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 12,
    description:
      'the graph snapshot (issue 20): one blob per scope with the revision it reflects, so a new process reads it ' +
      'and patches it from the change log instead of reading every edge',
    sql: `
      CREATE TABLE graph_snapshots (
        scope TEXT NOT NULL PRIMARY KEY,
        revision INTEGER NOT NULL,
        data BLOB NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 13,
    description:
      "each table's rows counted per scope as they are written (issue 20): `status` reads ten numbers instead of " +
      'counting ~1M rows (~20 ms in a new process at 100k)',
    sql: COUNT_TABLES,
  },
  {
    version: 14,
    description:
      'the kept past runs in pieces (issue 20): a new process reads the few pieces a query needs instead of the ' +
      "whole blob (~20 MB at 100k); past_runs' row then names the pieces' generation, and the previous one is kept " +
      'for a process still reading it',
    sql: `
      CREATE TABLE past_run_pieces (
        scope TEXT NOT NULL,
        generation INTEGER NOT NULL,
        piece INTEGER NOT NULL,
        data BLOB NOT NULL,
        PRIMARY KEY (scope, generation, piece)
      );
      -- Derived data: a blob kept whole is built again (once) and kept in pieces.
      DELETE FROM past_runs;
    `,
  },
  {
    version: 15,
    description:
      "a memory's life (issue 23): when it was true, superseded by or in conflict with which memory and why, how " +
      'often it was remembered and from where, the turn of a conversation it is; one JSON column, NULL for a plain ' +
      'current memory',
    sql: `
      ALTER TABLE memories ADD COLUMN life TEXT;
    `,
  },
  {
    version: 16,
    description:
      'what became of each shown claim (issue 24): the confidence it was shown with and its latest outcome on the ' +
      'shown row, which instincts and skills may have too (the surface check is widened, so the table is made ' +
      'again); a verdict given before is its outcome',
    sql: `
      CREATE TABLE shown_16 (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        surface TEXT NOT NULL CHECK (surface IN ('search', 'next', 'dag', 'recall', 'instinct', 'skill')),
        target TEXT NOT NULL,
        query TEXT,
        at INTEGER NOT NULL,
        verdict TEXT CHECK (verdict IN ('accepted', 'rejected')),
        verdict_at INTEGER,
        confidence REAL CHECK (confidence BETWEEN 0 AND 1),
        outcome TEXT CHECK (outcome IN ('accepted', 'rejected', 'succeeded', 'failed', 'validated', 'contradicted')),
        outcome_at INTEGER,
        PRIMARY KEY (scope, id)
      ) WITHOUT ROWID;
      INSERT INTO shown_16 (scope, id, surface, target, query, at, verdict, verdict_at, outcome, outcome_at)
        SELECT scope, id, surface, target, query, at, verdict, verdict_at, verdict, verdict_at FROM shown;
      -- Dropping a table drops its triggers first: the kept count of shown rows stays as it was.
      DROP TABLE shown;
      ALTER TABLE shown_16 RENAME TO shown;
      CREATE INDEX shown_target ON shown (scope, target);
      CREATE INDEX shown_outcomes ON shown (scope, outcome_at) WHERE outcome IS NOT NULL AND confidence IS NOT NULL;
      ${countTriggers('shown').join('\n      ')}
    `,
  },
  {
    version: 17,
    description:
      'the outcomes of each kind, for calibration (issue 24): its newest outcomes read from one index alone, and ' +
      'its table, ECE and Brier summed from another in the order they are grouped',
    sql: `
      CREATE INDEX shown_outcome_kinds ON shown (scope, surface, outcome_at, id, confidence, outcome, at, target)
        WHERE outcome IS NOT NULL AND confidence IS NOT NULL;
      CREATE INDEX shown_outcome_sums ON shown (scope, surface, outcome, confidence, outcome_at, at)
        WHERE outcome IS NOT NULL AND confidence IS NOT NULL;
    `,
  },
  {
    version: 18,
    description:
      "the calls a call waited for, when its run's dependencies are known (an explicit DAG run by execute_dag): " +
      'its learned workflow follows them',
    sql: `ALTER TABLE calls ADD COLUMN depends_on TEXT;`,
  },
  {
    version: 19,
    description:
      "learned workflows counted again: a run's quality counts a failed call as worth nothing (one success among " +
      "eight calls made a run a success), so each scope's workflows are emptied and built again from its stored " +
      'executions the first time they are read or a run is recorded',
    sql: `DELETE FROM workflows;`,
  },
  {
    version: 20,
    description:
      "forgotten text leaves the file: each full-text index removes a deleted row's terms from its pages ('secure-" +
      "delete'; a plain delete only marked them deleted) and is merged once, dropping the terms of rows deleted before",
    sql: FTS_TABLES.map(
      (t) => `INSERT INTO ${t} (${t}, rank) VALUES ('secure-delete', 1); INSERT INTO ${t} (${t}) VALUES ('optimize');`,
    ).join('\n'),
  },
  {
    version: 21,
    description:
      'what forget removed of what was learned (tombstones: the instinct or skill, its file name, when): every ' +
      "machine sharing the store takes the forgotten item's file out of its project; learning it again clears it",
    sql: `
      CREATE TABLE IF NOT EXISTS forgotten (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('instinct', 'skill')),
        name TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (scope, id)
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS forgotten_name ON forgotten (scope, kind, name);
    `,
  },
  {
    version: 22,
    description:
      'the scopes whose learned workflows were built from their executions (a mark per scope): a scope ' +
      'without one is built again at first use, whatever its workflows table holds (after migration 19 ' +
      'emptied it, a run recorded by an older server still running made a scope look built, and its earlier ' +
      'runs were lost from its workflows)',
    sql: `
      CREATE TABLE IF NOT EXISTS workflow_builds (
        scope TEXT NOT NULL PRIMARY KEY,
        schema_version INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 23,
    description:
      "a forgotten Claude Code session's tombstone (kind 'session'): a turn of it still in another machine's spool " +
      'is dropped where it is learned, not learned again',
    sql: `
      DROP TABLE IF EXISTS forgotten_23;
      CREATE TABLE forgotten_23 (
        scope TEXT NOT NULL,
        id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('instinct', 'skill', 'session')),
        name TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (scope, id)
      ) WITHOUT ROWID;
      INSERT INTO forgotten_23 (scope, id, kind, name, at) SELECT scope, id, kind, name, at FROM forgotten;
      DROP TABLE forgotten;
      ALTER TABLE forgotten_23 RENAME TO forgotten;
      CREATE INDEX IF NOT EXISTS forgotten_name ON forgotten (scope, kind, name);
    `,
  },
  {
    version: 24,
    description:
      "the Claude Code session a shown row was shown for (the prompt hook's; none from other surfaces): " +
      "`forget <session>` takes its prompts out of the shown rows' queries, and a forgotten session's are not stored",
    // SQLite has no ADD COLUMN IF NOT EXISTS: the column is added when missing, so that running it again is harmless.
    sql: '',
    after: (db) => {
      const columns = db.prepare('PRAGMA table_info(shown)').all() as { name: string }[];
      if (!columns.some((c) => c.name === 'session')) db.prepare('ALTER TABLE shown ADD COLUMN session TEXT').run();
      db.prepare('CREATE INDEX IF NOT EXISTS shown_session ON shown (scope, session) WHERE session IS NOT NULL').run();
    },
  },
  {
    version: 25,
    description:
      'learned workflows counted again: a run left with a failure standing (a call failed and no later call of its ' +
      'tool did not: fetch ok then translate failed) is a failure, as execute_dag and PocketFlow runs are, where the ' +
      "mean of its calls' worth (0.5) made it a success; each scope's workflows are emptied and built again from " +
      'its stored executions the first time they are read or a run is recorded',
    sql: `DELETE FROM workflows; DELETE FROM workflow_builds;`,
  },
  {
    version: 26,
    description:
      'the edge types a run taught when it taught only some (execute_dag runs: their dependencies), so that ' +
      'forgetting it takes back exactly those: a run stored before, whose every call names what it waited for, is ' +
      'marked as execute_dag recorded it (dependencies only), which is how forget read such runs until now',
    sql: '',
    after: (db) => {
      const columns = db.prepare('PRAGMA table_info(executions)').all() as { name: string }[];
      if (!columns.some((c) => c.name === 'learned'))
        db.prepare('ALTER TABLE executions ADD COLUMN learned TEXT').run();
      db.prepare(LAYERED_RUNS_LEARNED_DEPENDENCIES).run();
    },
  },
  {
    version: 27,
    description:
      'whether an edge was declared by hand (edge add), so that forgetting the runs that confirmed it leaves the ' +
      'declaration, a template again; the edges still templates are marked declared',
    sql: '',
    after: (db) => {
      const columns = db.prepare('PRAGMA table_info(edges)').all() as { name: string }[];
      if (!columns.some((c) => c.name === 'declared'))
        db.prepare('ALTER TABLE edges ADD COLUMN declared INTEGER NOT NULL DEFAULT 0').run();
      db.prepare(TEMPLATES_DECLARED).run();
    },
  },
  {
    version: 28,
    description:
      'learned workflows counted again: a run that states its own confidence (a PocketFlow run, a record line with ' +
      '`confidence`) is a failure when a failure stands in it, whatever confidence it states (a stated 0.9 made ' +
      'it a success), and a failed call a fallback made good by waiting for it (`dependsOn`) is no longer ' +
      "standing (a call between them in the list left it standing); each scope's workflows are emptied and " +
      'built again from its stored executions the first time they are read or a run is recorded',
    sql: `DELETE FROM workflows; DELETE FROM workflow_builds;`,
  },
  {
    version: 29,
    description:
      "learned workflows counted again: a fallback makes good the failed call it follows and the same call's " +
      'earlier tries (the same tool given the same input: Grep for TODO failed twice, then search_files for TODO), ' +
      'where the first try stood and made the run a failure, and a call of a tool is a retry of its failed call ' +
      "only when it comes after it (an explicit DAG's sibling task is none); each scope's workflows are emptied " +
      'and built again from its stored executions the first time they are read or a run is recorded',
    sql: `DELETE FROM workflows; DELETE FROM workflow_builds;`,
  },
  {
    version: 30,
    description:
      'learned workflows keep when each of their latest intents last led to them (intents_at), so that a run ' +
      'recorded out of time order (a late record, a spooled hook turn) takes its place among the 5 latest intents ' +
      "as a rebuild gives it; each scope's workflows are emptied and built again from its stored executions the " +
      'first time they are read or a run is recorded',
    sql: `DELETE FROM workflows; DELETE FROM workflow_builds;`,
    after: (db) => {
      const columns = db.prepare('PRAGMA table_info(workflows)').all() as { name: string }[];
      if (!columns.some((c) => c.name === 'intents_at'))
        db.prepare("ALTER TABLE workflows ADD COLUMN intents_at TEXT NOT NULL DEFAULT '[]'").run();
    },
  },
]);

/**
 * Migration 26's mark of the runs stored before it whose every call has `depends_on` (execute_dag's); a restore of an
 * older dump sets it too (`deriveRestoredMarks`).
 */
export const LAYERED_RUNS_LEARNED_DEPENDENCIES = `
  UPDATE executions SET learned = '["dependency"]'
  WHERE learned IS NULL
    AND EXISTS (SELECT 1 FROM calls c WHERE c.scope = executions.scope AND c.execution_id = executions.id)
    AND NOT EXISTS (
      SELECT 1 FROM calls c
      WHERE c.scope = executions.scope AND c.execution_id = executions.id AND c.depends_on IS NULL
    )`;

/** Migration 27's mark of the edges still templates: declared by hand (and of the edges of an older dump restored). */
export const TEMPLATES_DECLARED = "UPDATE edges SET declared = 1 WHERE source = 'template'";

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
