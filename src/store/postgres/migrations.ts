/**
 * @module store/postgres/migrations
 * The PostgreSQL schema, as numbered migrations recorded in `credence_meta`. Versions follow SQLite's
 * (version 6 here holds what SQLite's 1–6 build), so a dump names one schema version whichever store
 * wrote it. Each migration runs in one transaction under an advisory lock: concurrent first opens
 * migrate once. Differences from SQLite, invisible through the Store interface: `fts` (tsvector of
 * FTS5-compatible tokens, GIN) and `fts_len` columns on the searched tables instead of FTS5 tables;
 * compared text `COLLATE "C"` (code-point order, as SQLite's BINARY); times as epoch milliseconds in
 * `double precision`, counters `bigint`, blobs `bytea`.
 */

export interface PgMigration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

const C = 'COLLATE "C"';

/** The tables whose rows `counts` reports, as migration 13 found them (as SQLite's migration 13). */
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
 * Migration 26's mark of the runs stored before it whose every call has `depends_on` (execute_dag's); a restore of an
 * older dump sets it too (`deriveRestoredMarks`).
 */
export const PG_LAYERED_RUNS_LEARNED_DEPENDENCIES = `
  UPDATE executions e SET learned = '["dependency"]'
  WHERE e.learned IS NULL
    AND EXISTS (SELECT 1 FROM calls c WHERE c.scope = e.scope AND c.execution_id = e.id)
    AND NOT EXISTS (
      SELECT 1 FROM calls c WHERE c.scope = e.scope AND c.execution_id = e.id AND c.depends_on IS NULL
    )`;

/** Migration 27's mark of the edges still templates: declared by hand (and of the edges of an older dump restored). */
export const PG_TEMPLATES_DECLARED = "UPDATE edges SET declared = 1 WHERE source = 'template'";

export const PG_MIGRATIONS: readonly PgMigration[] = Object.freeze([
  {
    version: 6,
    description:
      'the schema of SQLite version 6: tools, edges, executions and calls, observations, ' +
      'memories, instincts, skills, feedback, embeddings, shown results, hook queue; tsvector full-text columns',
    sql: `
      CREATE TABLE tools (
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        description text NOT NULL DEFAULT '',
        input_schema text,
        origin text,
        calls bigint NOT NULL DEFAULT 0,
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL,
        annotations text,
        PRIMARY KEY (scope, id)
      );

      CREATE TABLE tool_terms (
        rowid bigserial PRIMARY KEY,
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        words text NOT NULL,
        description text NOT NULL,
        fts tsvector NOT NULL,
        fts_len integer NOT NULL,
        UNIQUE (scope, id)
      );
      CREATE INDEX tool_terms_fts ON tool_terms USING gin (fts);

      CREATE TABLE edges (
        scope text ${C} NOT NULL,
        from_tool text ${C} NOT NULL,
        to_tool text ${C} NOT NULL,
        type text ${C} NOT NULL CHECK (type IN ('dependency','contains','alternative','sequence')),
        source text NOT NULL CHECK (source IN ('template','inferred','observed')),
        count bigint NOT NULL DEFAULT 0 CHECK (count >= 0),
        successes bigint NOT NULL DEFAULT 0 CHECK (successes >= 0),
        failures bigint NOT NULL DEFAULT 0 CHECK (failures >= 0),
        first_seen double precision,
        last_seen double precision,
        PRIMARY KEY (scope, from_tool, to_tool, type)
      );
      CREATE INDEX edges_to ON edges (scope, to_tool);

      CREATE TABLE executions (
        rowid bigserial PRIMARY KEY,
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        intent text NOT NULL,
        intent_kind text,
        started_at double precision NOT NULL,
        ended_at double precision,
        confidence double precision,
        summary text,
        fts tsvector NOT NULL,
        fts_len integer NOT NULL,
        UNIQUE (scope, id)
      );
      CREATE INDEX executions_scope_started ON executions (scope, started_at DESC);
      CREATE INDEX executions_fts ON executions USING gin (fts);

      CREATE TABLE calls (
        scope text ${C} NOT NULL,
        execution_id text ${C} NOT NULL,
        idx integer NOT NULL,
        tool text ${C} NOT NULL,
        status text NOT NULL CHECK (status IN ('success','failure','partial')),
        retries integer NOT NULL DEFAULT 0,
        duration_ms double precision,
        consumes text NOT NULL DEFAULT '[]',
        parent integer,
        at double precision,
        intent text,
        input text,
        output text,
        PRIMARY KEY (scope, execution_id, idx),
        FOREIGN KEY (scope, execution_id) REFERENCES executions (scope, id) ON DELETE CASCADE
      );

      CREATE TABLE observations (
        rowid bigserial PRIMARY KEY,
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        timestamp double precision NOT NULL,
        type text NOT NULL CHECK (type IN ('pattern','correction','preference','error','success')),
        context text NOT NULL DEFAULT '{}',
        observation text NOT NULL,
        evidence text NOT NULL DEFAULT '[]',
        confidence double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        tags text NOT NULL DEFAULT '[]',
        content_hash bytea NOT NULL,
        fts tsvector NOT NULL,
        fts_len integer NOT NULL,
        UNIQUE (scope, id),
        UNIQUE (scope, content_hash)
      );
      CREATE INDEX observations_scope_time ON observations (scope, timestamp);
      CREATE INDEX observations_fts ON observations USING gin (fts);

      CREATE TABLE memories (
        rowid bigserial PRIMARY KEY,
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        category text NOT NULL,
        title text NOT NULL,
        text text NOT NULL,
        tags text NOT NULL DEFAULT '',
        path text,
        confidence double precision,
        intent text,
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL,
        fts tsvector NOT NULL,
        fts_len integer NOT NULL,
        UNIQUE (scope, id)
      );
      CREATE INDEX memories_fts ON memories USING gin (fts);

      CREATE TABLE instincts (
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        slug text ${C} NOT NULL,
        text text NOT NULL,
        confidence double precision NOT NULL,
        status text NOT NULL CHECK (status IN ('active','promoted','retired')),
        evidence text NOT NULL DEFAULT '[]',
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL,
        PRIMARY KEY (scope, id),
        UNIQUE (scope, slug)
      );

      CREATE TABLE skills (
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        name text ${C} NOT NULL,
        description text NOT NULL,
        rules text NOT NULL DEFAULT '[]',
        confidence double precision NOT NULL,
        evidence text NOT NULL DEFAULT '[]',
        created_at double precision NOT NULL,
        updated_at double precision NOT NULL,
        PRIMARY KEY (scope, id),
        UNIQUE (scope, name)
      );

      CREATE TABLE feedback (
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        target_id text ${C} NOT NULL,
        kind text NOT NULL CHECK (kind IN ('explicit','validation','correction','contradiction')),
        note text,
        at double precision NOT NULL,
        PRIMARY KEY (scope, id)
      );
      CREATE INDEX feedback_target ON feedback (scope, target_id);

      CREATE TABLE embeddings (
        scope text ${C} NOT NULL,
        kind text ${C} NOT NULL CHECK (kind IN ('tool', 'execution', 'memory', 'observation')),
        ref_id text ${C} NOT NULL,
        model_key text NOT NULL,
        text_hash text NOT NULL,
        vector bytea NOT NULL,
        PRIMARY KEY (scope, kind, ref_id)
      );

      CREATE TABLE shown (
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        surface text ${C} NOT NULL CHECK (surface IN ('search', 'next', 'dag', 'recall')),
        target text ${C} NOT NULL,
        query text,
        at double precision NOT NULL,
        verdict text CHECK (verdict IN ('accepted', 'rejected')),
        verdict_at double precision,
        PRIMARY KEY (scope, id)
      );
      CREATE INDEX shown_target ON shown (scope, target);

      CREATE TABLE hook_events (
        seq bigserial PRIMARY KEY,
        scope text ${C} NOT NULL,
        session_id text ${C} NOT NULL,
        turn integer NOT NULL,
        kind text NOT NULL,
        at double precision NOT NULL,
        payload text NOT NULL,
        claimed_by text,
        claimed_at double precision,
        key text ${C} UNIQUE,
        done_at double precision
      );
      CREATE INDEX hook_events_session ON hook_events (scope, session_id, seq);

      CREATE TABLE hook_sessions (
        scope text ${C} NOT NULL,
        session_id text ${C} NOT NULL,
        turn integer NOT NULL DEFAULT 0,
        state text NOT NULL DEFAULT '{}',
        updated_at double precision NOT NULL,
        PRIMARY KEY (scope, session_id)
      );
    `,
  },
  {
    version: 7,
    description: 'learned workflows (issue 19), as SQLite version 7',
    sql: `
      CREATE TABLE workflows (
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        key text ${C} NOT NULL,
        tools text NOT NULL DEFAULT '[]',
        edges text NOT NULL DEFAULT '[]',
        intents text NOT NULL DEFAULT '[]',
        runs bigint NOT NULL DEFAULT 0 CHECK (runs >= 0),
        successes bigint NOT NULL DEFAULT 0 CHECK (successes >= 0),
        first_seen double precision NOT NULL,
        last_seen double precision NOT NULL,
        PRIMARY KEY (scope, id)
      );
      CREATE INDEX workflows_last_seen ON workflows (scope, last_seen);
    `,
  },
  {
    version: 8,
    description: 'incremental indexes (issue 20): revisions, the change log, persisted vector matrices, as SQLite 8',
    sql: `
      CREATE TABLE revisions (
        scope text ${C} PRIMARY KEY,
        revision bigint NOT NULL
      );
      CREATE TABLE changes (
        scope text ${C} NOT NULL,
        kind text ${C} NOT NULL CHECK (kind IN ('tool', 'execution', 'memory', 'observation')),
        id text ${C} NOT NULL,
        seq bigint NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        PRIMARY KEY (scope, kind, id)
      );
      CREATE INDEX changes_seq ON changes (scope, kind, seq);
      CREATE TABLE vector_index (
        scope text ${C} NOT NULL,
        name text ${C} NOT NULL,
        model_key text NOT NULL,
        revision bigint NOT NULL,
        dim integer NOT NULL,
        rows integer NOT NULL,
        chunks integer NOT NULL,
        PRIMARY KEY (scope, name)
      );
      CREATE TABLE vector_chunks (
        scope text ${C} NOT NULL,
        name text ${C} NOT NULL,
        chunk integer NOT NULL,
        ids text NOT NULL,
        hashes text NOT NULL,
        data bytea NOT NULL,
        PRIMARY KEY (scope, name, chunk)
      );
      -- Every write to an indexed row bumps its scope's revision and logs the row's id at it (a tombstone when
      -- deleted), whichever statement made it; an edge bumps the revision only. The revision row is locked until
      -- commit, so a scope's revisions are in commit order.
      CREATE FUNCTION credence_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        row_scope text;
        row_id text;
        rev bigint;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          row_scope := OLD.scope;
          row_id := OLD.id;
        ELSE
          row_scope := NEW.scope;
          row_id := NEW.id;
        END IF;
        INSERT INTO revisions (scope, revision) VALUES (row_scope, 1)
          ON CONFLICT (scope) DO UPDATE SET revision = revisions.revision + 1
          RETURNING revision INTO rev;
        INSERT INTO changes (scope, kind, id, seq, deleted)
          VALUES (row_scope, TG_ARGV[0], row_id, rev, TG_OP = 'DELETE')
          ON CONFLICT (scope, kind, id) DO UPDATE SET seq = excluded.seq, deleted = excluded.deleted;
        RETURN NULL;
      END $$;
      CREATE FUNCTION credence_bump_revision() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO revisions (scope, revision)
          VALUES (CASE WHEN TG_OP = 'DELETE' THEN OLD.scope ELSE NEW.scope END, 1)
          ON CONFLICT (scope) DO UPDATE SET revision = revisions.revision + 1;
        RETURN NULL;
      END $$;
      CREATE TRIGGER memories_rev AFTER INSERT OR UPDATE OR DELETE ON memories
        FOR EACH ROW EXECUTE FUNCTION credence_log_change('memory');
      CREATE TRIGGER observations_rev AFTER INSERT OR UPDATE OR DELETE ON observations
        FOR EACH ROW EXECUTE FUNCTION credence_log_change('observation');
      CREATE TRIGGER executions_rev AFTER INSERT OR UPDATE OR DELETE ON executions
        FOR EACH ROW EXECUTE FUNCTION credence_log_change('execution');
      CREATE TRIGGER tools_rev AFTER INSERT OR UPDATE OR DELETE ON tools
        FOR EACH ROW EXECUTE FUNCTION credence_log_change('tool');
      CREATE TRIGGER edges_rev AFTER INSERT OR UPDATE OR DELETE ON edges
        FOR EACH ROW EXECUTE FUNCTION credence_bump_revision();
    `,
  },
  {
    version: 9,
    description: 'fits measured on replayed past runs (issue 20), as SQLite version 9',
    sql: `
      CREATE TABLE fits (
        scope text ${C} NOT NULL,
        name text ${C} NOT NULL,
        runs bigint NOT NULL,
        tools bigint NOT NULL,
        revision bigint NOT NULL,
        value text NOT NULL,
        fitted_at double precision NOT NULL,
        PRIMARY KEY (scope, name)
      );
    `,
  },
  {
    version: 10,
    description:
      "SQLite version 10's narrow index of calls by scope has nothing to add here: the primary key's index " +
      "(scope first) holds no row's data, so it already counts a scope's calls",
    sql: '-- nothing to create',
  },
  {
    version: 11,
    description: "past runs as the DAG's memory reads them (issue 20), as SQLite version 11",
    sql: `
      CREATE TABLE past_runs (
        scope text ${C} NOT NULL PRIMARY KEY,
        revision bigint NOT NULL,
        data bytea NOT NULL
      );
    `,
  },
  {
    version: 12,
    description: 'the graph snapshot (issue 20), as SQLite version 12',
    sql: `
      CREATE TABLE graph_snapshots (
        scope text ${C} NOT NULL PRIMARY KEY,
        revision bigint NOT NULL,
        data bytea NOT NULL
      );
    `,
  },
  {
    version: 13,
    description:
      "each table's rows counted per scope as they are written (issue 20), as SQLite version 13: a statement's " +
      'rows counted once per statement and scope (triggers over its transition tables)',
    sql: `
      CREATE TABLE table_counts (
        scope text ${C} NOT NULL,
        name text ${C} NOT NULL,
        n bigint NOT NULL,
        PRIMARY KEY (scope, name)
      );
      -- One statement's rows counted per scope (a scope's row locked until commit, scopes in order); an update
      -- counts only the rows it moved to another scope.
      CREATE FUNCTION credence_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO table_counts (scope, name, n)
            SELECT scope, TG_TABLE_NAME, count(*) FROM new_rows GROUP BY scope ORDER BY scope
            ON CONFLICT (scope, name) DO UPDATE SET n = table_counts.n + excluded.n;
        ELSIF TG_OP = 'DELETE' THEN
          INSERT INTO table_counts (scope, name, n)
            SELECT scope, TG_TABLE_NAME, -count(*) FROM old_rows GROUP BY scope ORDER BY scope
            ON CONFLICT (scope, name) DO UPDATE SET n = table_counts.n + excluded.n;
        ELSE
          INSERT INTO table_counts (scope, name, n)
            SELECT scope, TG_TABLE_NAME, sum(k) FROM (
              SELECT scope, -1 AS k FROM old_rows UNION ALL SELECT scope, 1 AS k FROM new_rows
            ) moved GROUP BY scope HAVING sum(k) <> 0 ORDER BY scope
            ON CONFLICT (scope, name) DO UPDATE SET n = table_counts.n + excluded.n;
        END IF;
        RETURN NULL;
      END $$;
      ${COUNTED.map(
        (t) => `
      INSERT INTO table_counts (scope, name, n) SELECT scope, '${t}', count(*) FROM ${t} GROUP BY scope;
      CREATE TRIGGER ${t}_count_insert AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION credence_count_rows();
      CREATE TRIGGER ${t}_count_delete AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION credence_count_rows();
      CREATE TRIGGER ${t}_count_update AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION credence_count_rows();`,
      ).join('')}
    `,
  },
  {
    version: 14,
    description:
      "SQLite version 14's past runs in pieces have nothing to add here: a server sends the blob over the " +
      'connection whole either way, and a reader keeps the bytes it read',
    sql: '-- nothing to create',
  },
  {
    version: 15,
    description:
      "a memory's life (issue 23): when it was true, superseded by or in conflict with which memory and why, how " +
      'often it was remembered and from where, the turn of a conversation it is; one JSON column, NULL for a plain ' +
      'current memory',
    sql: `
      ALTER TABLE memories ADD COLUMN life text;
    `,
  },
  {
    version: 16,
    description:
      'what became of each shown claim (issue 24): the confidence it was shown with and its latest outcome on the ' +
      'shown row, which instincts and skills may have too (the surface check is widened); a verdict given before ' +
      'is its outcome',
    sql: `
      ALTER TABLE shown DROP CONSTRAINT shown_surface_check;
      ALTER TABLE shown ADD CONSTRAINT shown_surface_check
        CHECK (surface IN ('search', 'next', 'dag', 'recall', 'instinct', 'skill'));
      ALTER TABLE shown
        ADD COLUMN confidence double precision CHECK (confidence BETWEEN 0 AND 1),
        ADD COLUMN outcome text
          CHECK (outcome IN ('accepted', 'rejected', 'succeeded', 'failed', 'validated', 'contradicted')),
        ADD COLUMN outcome_at double precision;
      UPDATE shown SET outcome = verdict, outcome_at = verdict_at WHERE verdict IS NOT NULL;
      CREATE INDEX shown_outcomes ON shown (scope, outcome_at) WHERE outcome IS NOT NULL AND confidence IS NOT NULL;
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
    sql: `ALTER TABLE calls ADD COLUMN depends_on text;`,
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
      "as SQLite version 20 (forgotten text leaves the file: its full-text indexes' secure delete): " +
      'nothing to change here, where a deleted row stays in its pages until VACUUM (docs/security.md); ' +
      'the number keeps a dump of either store restorable into the other',
    sql: `SELECT 1;`,
  },
  {
    version: 21,
    description:
      'what forget removed of what was learned (tombstones: the instinct or skill, its file name, when): every ' +
      "machine sharing the store takes the forgotten item's file out of its project; learning it again clears it",
    sql: `
      CREATE TABLE IF NOT EXISTS forgotten (
        scope text ${C} NOT NULL,
        id text ${C} NOT NULL,
        kind text NOT NULL CHECK (kind IN ('instinct', 'skill')),
        name text ${C} NOT NULL,
        at double precision NOT NULL,
        PRIMARY KEY (scope, id)
      );
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
        scope text ${C} NOT NULL PRIMARY KEY,
        schema_version integer NOT NULL
      );
    `,
  },
  {
    version: 23,
    description:
      "a forgotten Claude Code session's tombstone (kind 'session'): a turn of it still in another machine's spool " +
      'is dropped where it is learned, not learned again',
    sql: `
      ALTER TABLE forgotten DROP CONSTRAINT IF EXISTS forgotten_kind_check;
      ALTER TABLE forgotten ADD CONSTRAINT forgotten_kind_check CHECK (kind IN ('instinct', 'skill', 'session'));
    `,
  },
  {
    version: 24,
    description:
      "the Claude Code session a shown row was shown for (the prompt hook's; none from other surfaces): " +
      "`forget <session>` takes its prompts out of the shown rows' queries, and a forgotten session's are not stored",
    sql: `
      ALTER TABLE shown ADD COLUMN IF NOT EXISTS session text ${C};
      CREATE INDEX IF NOT EXISTS shown_session ON shown (scope, session) WHERE session IS NOT NULL;
    `,
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
    sql: `
      ALTER TABLE executions ADD COLUMN IF NOT EXISTS learned text ${C};
      ${PG_LAYERED_RUNS_LEARNED_DEPENDENCIES};
    `,
  },
  {
    version: 27,
    description:
      'whether an edge was declared by hand (edge add), so that forgetting the runs that confirmed it leaves the ' +
      'declaration, a template again; the edges still templates are marked declared',
    sql: `
      ALTER TABLE edges ADD COLUMN IF NOT EXISTS declared integer NOT NULL DEFAULT 0;
      ${PG_TEMPLATES_DECLARED};
    `,
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
    sql: `
      ALTER TABLE workflows ADD COLUMN IF NOT EXISTS intents_at text NOT NULL DEFAULT '[]';
      DELETE FROM workflows;
      DELETE FROM workflow_builds;
    `,
  },
]);

export const PG_LATEST_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]?.version ?? 0;
