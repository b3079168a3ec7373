import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { engineStore, openCredence } from './engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { restoreDump, writeDump } from '../store/dump.js';
import type { Store } from '../store/types.js';
import { ingest, sessionLabel, turnRunId } from '../hooks/ingest.js';
import { spoolDirFor, spoolEvent } from '../hooks/spool.js';

const base = mkdtempSync(join(tmpdir(), 'credence-forget-runs-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const AT = Date.parse('2026-06-01T00:00:00Z');
const SESSION = '5f0c2d3e-9a41-4b7e-8c55-0d1e2f3a4b5c';

async function engine() {
  const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
  const store = engineStore(credence);
  // As the hooks store a turn (appendCalls under `cc-<session>-<turn>`) and a recorder its run: ids kept as given.
  const turn = (id: string, intent: string) =>
    store.insertExecution('p', {
      id,
      intent,
      startedAt: AT,
      calls: [{ tool: 'Bash', status: 'success', retries: 0, consumes: [] }],
    });
  await turn(`cc-${SESSION}-1`, 'deploy the staging api with the release notes');
  await turn(`cc-${SESSION}-2`, 'check the staging api deploy logs');
  await turn(`cc-${SESSION}1-1`, 'another session whose id starts alike');
  await turn('run-7', 'rebuild the search index for staging');
  await store.setHookSessionState('p', SESSION, { intent: 'check the staging api deploy logs' }, AT);
  return { credence, store };
}

describe('forget a run or a Claude Code session', () => {
  it('a run id deletes the run, its calls and its full text; recall no longer finds it', async () => {
    const { credence, store } = await engine();
    expect((await credence.recall('rebuild search index')).map((r) => r.id)).toContain('run-7');
    expect(await credence.forget('run-7')).toMatchObject({ id: 'run-7', kind: 'run', runsForgotten: ['run-7'] });
    expect(await store.getExecution('p', 'run-7')).toBeUndefined();
    expect(await store.searchExecutions('p', '"rebuild"')).toEqual([]);
    expect((await credence.recall('rebuild search index')).map((r) => r.id)).not.toContain('run-7');
    await credence.close();
  });

  it('a run takes what it taught with it: forgotten and recorded again, it counts once (walk 14, item 1)', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    const run = {
      id: 'job-42',
      intent: 'read the config and rewrite it',
      calls: [
        { tool: 'read_file', status: 'success' as const },
        { tool: 'parse_json', status: 'success' as const, consumes: [0] },
      ],
    };
    const [id] = (await credence.recordExecutions([run])).executions.map((e) => e.id);
    for (let again = 0; again < 2; again += 1) {
      await credence.forget(id as string);
      await credence.recordExecutions([run]);
    }
    const edges = async () => (await credence.edges()).map((e) => `${e.type} ${e.source} ${e.count}/${e.failures}`);
    expect(await edges()).toEqual(['dependency inferred 1/0', 'sequence inferred 1/0']);
    expect((await credence.workflows()).map((w) => [w.runs, w.successes, w.intents])).toEqual([
      [1, 1, ['read the config and rewrite it']],
    ]);
    // Its last run gone, nothing it taught is left: no edge, no workflow, no call counted.
    await credence.forget(id as string);
    expect(await edges()).toEqual([]);
    expect(await credence.workflows()).toEqual([]);
    expect(await engineStore(credence).calledTools('p')).toEqual(new Map());
    await credence.close();
  });

  it("an appended run takes back what it counted, not another run's confirmation (review E, 2)", async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    const ok = (tool: string) => ({ tool, status: 'success' as const });
    await credence.recordExecutions([{ id: 'x', intent: 'translate the page', calls: [ok('fetch'), ok('translate')] }]);
    // Run y, as a live session appends it: translate fails first, then succeeds.
    const head = { id: 'y', intent: 'translate another page', startedAt: AT };
    await credence.appendCalls(head, [ok('fetch'), { tool: 'translate', status: 'failure' }]);
    await credence.appendCalls(head, [ok('fetch'), ok('translate')]);
    const counts = async () =>
      (await credence.edges())
        .filter((e) => e.type === 'sequence' && e.from === 'fetch')
        .map((e) => `${e.count} ${e.successes}/${e.failures}`);
    // Counted as recorded whole: a success of each run (it was x's success, y's failure: 1/1).
    expect(await counts()).toEqual(['2 2/0']);
    // Forgetting y takes back its success alone (it took x's success and left y's failure: 0/1).
    await credence.forget('y');
    expect(await counts()).toEqual(['1 1/0']);
    await credence.close();
  });

  it('a run with dependsOn takes back its sequences; one that learned dependencies only, those alone', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    const fanOut = (id: string) => ({
      id,
      intent: 'fan out the load',
      calls: [
        { tool: 'load', status: 'success' as const, dependsOn: [] },
        { tool: 'branch_a', status: 'success' as const, dependsOn: [0], consumes: [0] },
        { tool: 'branch_b', status: 'success' as const, dependsOn: [0] },
      ],
    });
    const edges = async () => (await credence.edges()).map((e) => `${e.type} ${e.from}->${e.to} ${e.count}`).sort();
    // By hand (review E, 6): it taught sequences along dependsOn, and its forget takes them back.
    const [byHand] = (await credence.recordExecutions([fanOut('r1')])).executions.map((e) => e.id);
    // As execute_dag records a run: its dependencies alone.
    const [gateway] = (await credence.recordExecutions([fanOut('r2')], { learn: ['dependency'] })).executions.map(
      (e) => e.id,
    );
    expect(await edges()).toEqual([
      'dependency load->branch_a 2',
      'sequence load->branch_a 1',
      'sequence load->branch_b 1',
    ]);
    await credence.forget(byHand as string);
    expect(await edges()).toEqual(['dependency load->branch_a 1']);
    await credence.recordExecutions([fanOut('r3')]);
    await credence.forget(gateway as string);
    expect(await edges()).toEqual([
      'dependency load->branch_a 1',
      'sequence load->branch_a 1',
      'sequence load->branch_b 1',
    ]);
    await credence.close();
  });

  it('forgetting the run that confirmed a declared edge leaves the declaration (review E, 7)', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    await credence.declareEdge({ from: 'read_file', to: 'parse_json', type: 'dependency' });
    const declared = async () =>
      (await credence.edges()).filter((e) => e.type === 'dependency').map((e) => `${e.source} ${e.count}`);
    const parse = (status: 'success' | 'failure') => ({
      intent: 'parse the config',
      calls: [
        { tool: 'read_file', status: 'success' as const },
        { tool: 'parse_json', status, consumes: [0] },
      ],
    });
    const ids = (await credence.recordExecutions([parse('success'), parse('failure')])).executions.map((e) => e.id);
    expect(await declared()).toEqual(['inferred 1']);
    await credence.forget(ids[0] as string);
    // The user's declaration is no run's to take back: a template again, with the failure still standing.
    expect(await declared()).toEqual(['template 0']);
    expect((await credence.edges()).find((e) => e.type === 'dependency')?.failures).toBe(1);
    // A learned edge that no one declared still goes with its last run.
    await credence.forget(ids[1] as string);
    expect(await declared()).toEqual(['template 0']);
    expect((await credence.edges()).map((e) => e.type)).toEqual(['dependency']);
    await credence.close();
  });

  it('a learned workflow id forgets its runs, and the workflow goes with them; other runs stay', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    const run = (intent: string, tools: string[]) => ({
      intent,
      calls: tools.map((tool, i) => ({ tool, status: 'success' as const, ...(i > 0 ? { consumes: [i - 1] } : {}) })),
    });
    await credence.recordExecutions([
      run('translate the weather report for Paris', ['fetch_weather', 'translate_text']),
      run('translate the weather report for Rome', ['fetch_weather', 'translate_text']),
      run('email the weather report', ['fetch_weather', 'send_email']),
    ]);
    const [translate, email] = (await credence.workflows()).sort((a, b) => b.runs - a.runs);
    const result = await credence.forget(translate?.id as string);
    expect(result).toMatchObject({ kind: 'workflow', id: translate?.id });
    expect(result.runsForgotten).toHaveLength(2);
    expect((await credence.workflows()).map((w) => w.id)).toEqual([email?.id]);
    expect((await credence.runs()).map((r) => r.intent)).toEqual(['email the weather report']);
    expect((await credence.edges()).map((e) => `${e.type} ${e.from}->${e.to} ${e.count}`).sort()).toEqual([
      'dependency fetch_weather->send_email 1',
      'sequence fetch_weather->send_email 1',
    ]);
    await expect(credence.forget(translate?.id as string)).rejects.toThrow(/nothing has the id/);
    await credence.close();
  });

  /** An engine holding two runs of one workflow (fetch the weather, translate it), and how to make another. */
  const twoTranslations = async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    const run = (intent: string) => ({
      intent,
      calls: [
        { tool: 'fetch_weather', status: 'success' as const },
        { tool: 'translate_text', status: 'success' as const, consumes: [0] },
      ],
    });
    await credence.recordExecutions([run('translate the weather'), run('translate the forecast')]);
    return { credence, run };
  };

  // Walk 16, item 14: two forgets of one workflow (or run) arriving together both said they forgot its runs.
  it('two forgets of one workflow or run at once: one forgets the runs, the other finds nothing', async () => {
    const { credence, run } = await twoTranslations();
    const [workflow] = await credence.workflows();
    const outcomes = async (id: string) =>
      (await Promise.allSettled([credence.forget(id), credence.forget(id)])).map((o) =>
        o.status === 'fulfilled' ? o.value.runsForgotten : (o.reason as Error).message,
      );
    const ids = (await credence.runs()).map((r) => r.id).sort();
    expect(await outcomes(workflow?.id as string)).toEqual([ids, expect.stringMatching(/nothing has the id/)]);
    await credence.recordExecutions([run('translate the weather again')]);
    const [r3] = (await credence.runs()).map((r) => r.id);
    expect(await outcomes(r3 as string)).toEqual([[r3], expect.stringMatching(/nothing has the id/)]);
    await credence.close();
  });

  // Review F, 12: a run and its workflow (or a turn and its session) forgotten together both reported the shared run.
  it('a run and its workflow, or a turn and its session, forgotten at once: each reports what it deleted', async () => {
    const { credence, run } = await twoTranslations();
    const [workflow] = await credence.workflows();
    const ids = (await credence.runs()).map((r) => r.id).sort();
    const reported = async (a: string, b: string) =>
      (await Promise.allSettled([credence.forget(a), credence.forget(b)])).flatMap((o) =>
        o.status === 'fulfilled' ? o.value.runsForgotten : [],
      );
    expect((await reported(ids[0] as string, workflow?.id as string)).sort()).toEqual(ids);
    await credence.close();
    const { credence: hooked } = await engine();
    const turns = [`cc-${SESSION}-1`, `cc-${SESSION}-2`];
    const both = await Promise.allSettled([hooked.forget(SESSION), hooked.forget(turns[1] as string)]);
    expect(both.flatMap((o) => (o.status === 'fulfilled' ? o.value.runsForgotten : [])).sort()).toEqual(turns);
    await hooked.close();
  });

  it("a session id deletes its turns' runs and its hook state, not another session's", async () => {
    const { credence, store } = await engine();
    const result = await credence.forget(SESSION);
    expect(result).toMatchObject({ kind: 'session', runsForgotten: [`cc-${SESSION}-1`, `cc-${SESSION}-2`] });
    expect((await store.listExecutions('p')).map((r) => r.id).sort()).toEqual([`cc-${SESSION}1-1`, 'run-7']);
    expect(await store.searchExecutions('p', '"deploy"')).toEqual([]);
    expect(await store.hookSession('p', SESSION)).toEqual({ turn: 0, state: {} });
    await expect(credence.forget(SESSION)).rejects.toThrow(
      /nothing has the id .*run, learned workflow or Claude Code session/,
    );
    await credence.close();
  });

  it('a session id over 240 characters finds the runs the hooks named for it (one sessionLabel for both)', async () => {
    const { credence, store } = await engine();
    const long = `${'s'.repeat(70)}-${'9'.repeat(179)}`; // 250: over 240, within forget's 256
    // The hooks' own run id for its turn (turnRunId: the hashed label), not one written here.
    await store.insertExecution('p', {
      id: turnRunId(long, 1),
      intent: 'tidy the long session workspace',
      startedAt: AT,
      calls: [{ tool: 'Bash', status: 'success', retries: 0, consumes: [] }],
    });
    expect(turnRunId(long, 1).length).toBeLessThanOrEqual(256);
    expect(await credence.forget(long)).toMatchObject({ kind: 'session', runsForgotten: [turnRunId(long, 1)] });
    expect(await store.getExecution('p', turnRunId(long, 1))).toBeUndefined();
    await credence.close();
  });

  it("a turn's run id takes its prompt out of the session's hook state too, other turns' stay", async () => {
    const { credence, store } = await engine();
    const intents = { '1': 'deploy the staging api with the release notes', '2': 'check the staging api deploy logs' };
    await store.setHookSessionState('p', SESSION, { intents, other: 1 }, AT);
    expect(await credence.forget(`cc-${SESSION}-1`)).toMatchObject({ kind: 'run' });
    expect((await store.hookSession('p', SESSION)).state).toEqual({ intents: { '2': intents['2'] }, other: 1 });
    await credence.close();
  });

  it("a session says which observations learned from its prompts it kept (the hooks' corrections)", async () => {
    const { credence, store } = await engine();
    const obs = (id: string, observation: string, tags: string[]) => ({
      id,
      timestamp: AT,
      type: 'correction' as const,
      context: {},
      observation,
      evidence: [],
      confidence: 0.7,
      tags,
    });
    await store.insertObservations('p', [
      obs('obs-from-prompt', 'deploy the staging api', ['hook', 'correction', 'no', 'claude-code']),
      obs('obs-elsewhere', 'use pnpm, not npm', ['hook', 'correction', 'no', 'claude-code']),
    ]);
    const result = await credence.forget(SESSION);
    expect(result).toMatchObject({ kind: 'session', observationsLeft: ['obs-from-prompt'] });
    expect((await store.listObservations('p')).map((o) => o.id).sort()).toEqual(['obs-elsewhere', 'obs-from-prompt']);
    await credence.close();
  });

  // Walk 11, item 6: three sessions said the same correction; `forget` of one listed all three as kept "from its
  // prompts", matched by sentence, and following its advice (forget each by its id) deleted the others' too.
  it("a session lists as kept only the corrections tagged with it, not another's of the same words", async () => {
    const { credence, store } = await engine();
    const words = 'No, use pnpm instead of npm for running tests.';
    await store.insertExecution('p', {
      id: 'cc-sA-1',
      intent: words,
      startedAt: AT,
      calls: [{ tool: 'Bash', status: 'success', retries: 0, consumes: [] }],
    });
    const obs = (id: string, tags: string[]) => ({
      id,
      timestamp: AT,
      type: 'correction' as const,
      context: {},
      observation: words,
      evidence: [],
      confidence: 0.7,
      tags: ['hook', 'correction', 'no', 'claude-code', ...tags],
    });
    await store.insertObservations('p', [
      obs('obs-a', ['session:sA']),
      obs('obs-b', ['session:sB']),
      obs('obs-c', ['session:sC']),
      obs('obs-untagged', []), // from before the hooks tagged a session: found by its sentence
    ]);
    const result = await credence.forget('sA');
    expect(result).toMatchObject({ kind: 'session', runsForgotten: ['cc-sA-1'] });
    expect(result.observationsLeft).toEqual(['obs-a', 'obs-untagged']);
    await credence.close();
  });

  /** Learns a session as the hooks do (hooks/ingest): a prompt with a correction, a failed Bash call, a failed test. */
  async function learned(
    store: Store,
    session: string,
    at: number,
    secret: string,
    tool = 'pnpm',
    command = 'redis-cli -h cache.acme.io ping',
  ) {
    const cwd = join(base, 'proj');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    const failed = (command: string, error: string, t: number) => ({
      session,
      turn: 'current' as const,
      kind: 'PostToolUseFailure',
      at: t,
      payload: { tool: 'Bash', status: 'failure', input: JSON.stringify({ command }), error },
    });
    await store.enqueueHookEvents('p', [
      { session, turn: 'next', kind: 'prompt', at, payload: { prompt: `no, use ${tool} not npm` } },
      failed(command, `Error: NOAUTH for ${secret} (customer 4471 Jane Roe)`, at + 1),
      failed('npm test', 'FAIL src/a.test.ts', at + 2),
    ]);
    const lines: string[] = [];
    await ingest(store, 'p', { cwd, now: at + 10, env: {}, claimer: 'me', session }, (l) => lines.push(l));
    expect(lines).toEqual([]);
  }
  const texts = async (store: Store) => (await store.listObservations('p')).map((o) => o.observation).join('\n');

  it("a session forgets the observations learned from its calls (a failed call's error), not another's", async () => {
    // Before: they stayed (the error text, a customer's name in it) and observationsLeft said nothing was left.
    const { credence, store } = await engine();
    await learned(store, 'sess-a', AT + 100, 'Kestrel-Mango-42');
    await learned(store, 'sess-b', AT + 200, 'Other-Session-7', 'yarn');
    expect(await texts(store)).toContain('Kestrel-Mango-42');
    const before = await store.listObservations('p');
    const correction = before.find((o) => o.type === 'correction' && o.timestamp === AT + 100)?.id;
    const result = await credence.forget('sess-a');
    expect(result).toMatchObject({ kind: 'session', runsForgotten: ['cc-sess-a-1'], observationsLeft: [correction] });
    expect(result.observationsForgotten).toHaveLength(2);
    const left = await store.listObservations('p');
    expect(await texts(store)).not.toContain('Kestrel-Mango-42');
    expect(left.filter((o) => o.timestamp > AT + 100 && o.timestamp < AT + 200)).toEqual([]);
    // The other session's, and this one's correction (the user's words, listed), stay.
    expect(await texts(store)).toContain('Other-Session-7');
    expect(left.map((o) => o.id)).toContain(correction);
    expect(left).toHaveLength(before.length - 2);
    await credence.close();
  });

  it("two sessions' failed calls in one millisecond: forgetting one keeps the other's, the user's", async () => {
    // Before: matched on time and tool only, sess-b's error and a note the user typed were forgotten with sess-a.
    const { credence, store } = await engine();
    await learned(store, 'sess-a', AT + 100, 'Kestrel-Mango-42');
    await learned(store, 'sess-b', AT + 100, 'Other-Session-7', 'yarn');
    const typed = { timestamp: new Date(AT + 101).toISOString(), type: 'error' as const, confidence: 0.7 };
    await credence.observe([
      { ...typed, observation: 'my own note about Bash', tags: ['hook', 'claude-code', 'Bash'] },
    ]);
    const result = await credence.forget('sess-a');
    expect(result.observationsForgotten).toHaveLength(2);
    const left = await texts(store);
    expect(left).not.toContain('Kestrel-Mango-42');
    expect(left).toContain('Other-Session-7');
    expect(left).toContain('my own note about Bash');
    expect(left.match(/tests failed: npm test/g)).toHaveLength(1);
    await credence.close();
  });

  it('an observation stored before the session tag is taken only when text it quotes is in the call', async () => {
    const { credence, store } = await engine();
    await learned(store, 'sess-a', AT + 100, 'Kestrel-Mango-42');
    await learned(store, 'sess-b', AT + 100, 'Other-Session-7', 'yarn', 'redis-cli -h queue.acme.io ping');
    // As older hooks stored them: no `session:` tag.
    const all = await store.listObservations('p');
    await store.deleteObservations(
      'p',
      all.map((o) => o.id),
    );
    await store.insertObservations(
      'p',
      all.map((o) => ({ ...o, tags: o.tags.filter((t) => !t.startsWith('session:')) })),
    );
    const result = await credence.forget('sess-a');
    const left = await texts(store);
    expect(left).not.toContain('Kestrel-Mango-42');
    expect(left).toContain('Other-Session-7');
    // Its error (the command is in its call) goes, and the test run (`npm test` at that time: one without the tag).
    expect(result.observationsForgotten).toHaveLength(2);
    await credence.close();
  });

  it("a session over 240 characters forgotten by its label: its whole id's hook state and spool go", async () => {
    // Before: the runs went, but the state under the whole id kept the prompt, and so did the spooled events.
    const db = join(base, 'label.db');
    const store = openSqliteStore({ path: db });
    const credence = await openCredence({ store, scope: 'p', now: () => AT + 1000 });
    const long = `${'s'.repeat(70)}-${'9'.repeat(179)}`;
    const other = `${'s'.repeat(70)}-${'8'.repeat(179)}`;
    const cwd = join(base, 'proj');
    mkdirSync(join(cwd, '.git'), { recursive: true });
    for (const session of [long, other]) {
      await store.enqueueHookEvents('p', [
        {
          session,
          turn: 'next',
          kind: 'prompt',
          at: AT,
          payload: { prompt: `deploy with token ${session.at(-1)}-Kestrel` },
        },
        { session, turn: 'current', kind: 'PostToolUse', at: AT + 1, payload: { tool: 'Bash', status: 'success' } },
      ]);
      await ingest(store, 'p', { cwd, now: AT + 10, env: {}, claimer: 'me', session }, () => {});
      spoolEvent(db, {
        cwd,
        session,
        turn: 'current',
        kind: 'PostToolUse',
        at: AT + 20,
        payload: { tool: 'Bash', input: session.at(-1) },
      });
    }
    const result = await credence.forget(sessionLabel(long), { hookFiles: db });
    expect(result).toMatchObject({ kind: 'session', runsForgotten: [turnRunId(long, 1)], spooledEventsForgotten: 1 });
    expect(JSON.stringify((await store.hookSession('p', long)).state)).not.toContain('Kestrel');
    expect(JSON.stringify((await store.hookSession('p', other)).state)).toContain('8-Kestrel');
    const spooled = readdirSync(spoolDirFor(db)).filter((n) => !n.startsWith('.'));
    expect(spooled.map((n) => JSON.parse(readFileSync(join(spoolDirFor(db), n), 'utf8')).session)).toEqual([other]);
    await credence.close();
  });

  it("only the hooks' own observations of a call go: hook, claude-code, a hooks source, no correction", async () => {
    const { credence, store } = await engine();
    await learned(store, 'sess-a', AT + 100, 'Kestrel-Mango-42');
    const hooks = ['hook', 'claude-code', 'Bash', 'source:tool-output', 'session:sess-a'];
    const variants: [string, string[]][] = [
      ['obs-all', hooks],
      ['obs-no-hook', hooks.filter((t) => t !== 'hook')],
      ['obs-no-claude-code', hooks.filter((t) => t !== 'claude-code')],
      ['obs-correction', [...hooks, 'correction']],
      ['obs-no-source', hooks.filter((t) => t !== 'source:tool-output')],
      ['obs-user-source', [...hooks.filter((t) => t !== 'source:tool-output'), 'source:user']],
      ['obs-other-session', [...hooks.filter((t) => t !== 'session:sess-a'), 'session:sess-b']],
    ];
    const at = { timestamp: AT + 101, type: 'error' as const, context: {}, evidence: [], confidence: 0.6 };
    await store.insertObservations(
      'p',
      variants.map(([id, tags]) => ({ ...at, id, observation: `note ${id}`, tags })),
    );
    const result = await credence.forget('sess-a');
    expect(result.observationsForgotten).toContain('obs-all');
    const left = (await store.listObservations('p')).map((o) => o.id);
    for (const [id] of variants.slice(1)) expect(left).toContain(id);
    await credence.close();
  });

  it("a run's forget reads the files it would change first: broken markers refuse it, nothing goes", async () => {
    const cwd = mkdtempSync(join(base, 'broken-'));
    const store = openSqliteStore({ path: ':memory:' });
    const credence = await openCredence({ store, scope: 'p', now: () => AT + 1000, cwd });
    await learned(store, 'sess-a', AT + 100, 'Kestrel-Mango-42');
    const fromCall = (await store.listObservations('p')).find((o) => o.timestamp === AT + 101);
    expect(fromCall).toBeDefined();
    const skill = { id: 'skill-redis', name: 'redis', description: 'redis', rules: ['auth first'], confidence: 0.8 };
    await store.upsertSkill('p', { ...skill, evidence: [fromCall?.id as string], createdAt: AT, updatedAt: AT });
    mkdirSync(join(cwd, '.credence/skills/redis'), { recursive: true });
    writeFileSync(join(cwd, '.credence/skills/redis/SKILL.md'), '# Redis\n<!-- credence:begin (x) -->\n- auth first\n');
    await expect(credence.forget('cc-sess-a-1')).rejects.toThrow(/credence:end markers/);
    expect(await store.getExecution('p', 'cc-sess-a-1')).toBeDefined();
    expect((await store.listObservations('p')).map((o) => o.id)).toContain(fromCall?.id);
    await credence.close();
  });

  it("a turn's run id forgets the observations learned from its calls", async () => {
    const { credence, store } = await engine();
    await learned(store, 'sess-a', AT + 100, 'Kestrel-Mango-42');
    const result = await credence.forget('cc-sess-a-1');
    expect(result).toMatchObject({ kind: 'run', runsForgotten: ['cc-sess-a-1'] });
    expect(result.observationsForgotten).toHaveLength(2);
    expect(await texts(store)).not.toContain('Kestrel-Mango-42');
    await credence.close();
  });

  it("a turn's run id of a session over 240 characters takes its prompt out of the session's hook state", async () => {
    // Before: the run id names the session by its label (a hash), the state is under the whole id: the prompt stayed.
    const { credence, store } = await engine();
    const long = `${'s'.repeat(70)}-${'9'.repeat(179)}`;
    await learned(store, long, AT + 100, 'Kestrel-Mango-42');
    await store.setHookSessionState('p', `${long}x`, { intents: { '1': 'no, use pnpm not npm' } }, AT);
    expect((await store.hookSession('p', long)).state.intents).toEqual({ '1': 'no, use pnpm not npm' });
    expect(await credence.forget(turnRunId(long, 1))).toMatchObject({
      kind: 'run',
      runsForgotten: [turnRunId(long, 1)],
    });
    expect((await store.hookSession('p', long)).state.intents).toEqual({});
    // Another long session starting alike (another label) keeps its own.
    expect((await store.hookSession('p', `${long}x`)).state.intents).toEqual({ '1': 'no, use pnpm not npm' });
    // The whole session's forget takes the roots the hooks keep under its label too.
    await store.setHookSessionState('p', sessionLabel(long), { roots: ['/work/acme-customer'] }, AT);
    await credence.forget(long);
    expect(await store.hookSession('p', sessionLabel(long))).toEqual({ turn: 0, state: {} });
    await credence.close();
  });
});

// Review E, item 9: the rows from before schema 24 (no session) were taken by their words alone, so a teammate's own
// `credence recall` (no session, ever) or another session's old row with the words of one of the session's prompts
// lost its query. Only a row shown in the time of that turn's prompt is taken now.
describe("forget <session> and shown rows that are not the session's", () => {
  it("takes an old row of the session's prompt, and keeps a recall of the same words at another time", async () => {
    let now = AT;
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => now });
    const store = engineStore(credence);
    const prompt = 'how do we deploy the staging api?';
    await credence.remember([{ title: 'Deploy', text: 'The staging api deploys with make deploy-staging.' }]);
    await store.insertExecution('p', {
      id: `cc-${SESSION}-1`,
      intent: prompt,
      startedAt: AT + 60_000,
      calls: [{ tool: 'Bash', status: 'success', retries: 0, consumes: [] }],
    });
    // The prompt hook's row from before schema 24: no session, shown at the prompt, before the turn's first call.
    const old = { id: 'sh-old', surface: 'recall' as const, target: 'memory:x', query: prompt, at: AT + 30_000 };
    await store.recordShown('p', [old, { ...old, id: 'sh-other-day', at: AT - 86_400_000 }]);
    // A teammate asks the same through `credence recall` a day later: surface recall, no session.
    now = AT + 86_400_000;
    const [shown] = await credence.recall(prompt);
    const id = shown?.shownId as string;
    await credence.forget(SESSION);
    expect((await store.getShown('p', id))?.query).toBe(prompt);
    expect((await store.getShown('p', 'sh-other-day'))?.query).toBe(prompt);
    expect((await store.getShown('p', 'sh-old'))?.query).toBeUndefined();
    await credence.close();
  });
});

describe('forget <session> and the old shown row of a turn that used no tool (review F, 5)', () => {
  it("takes the prompt's words, known from the hook state, and keeps a recall of them after the session", async () => {
    let now = AT + 60_000;
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => now });
    const store = engineStore(credence);
    const prompt = 'my salary is 95k, draft my raise request';
    // The prompt hook's row from before rows held their session; turn 1 used no tool (no run), turn 2 did.
    const old = { id: 'sh-1', surface: 'recall' as const, target: 'memory:m1', query: prompt, at: AT };
    await store.recordShown('p', [old, { ...old, id: 'sh-later', at: AT + 86_400_000 }]);
    await store.setHookSessionState('p', SESSION, { intents: { '1': prompt, '2': 'run the tests' } }, AT);
    await store.insertExecution('p', {
      id: `cc-${SESSION}-2`,
      intent: 'run the tests',
      startedAt: AT + 30_000,
      calls: [{ tool: 'Bash', status: 'success', retries: 0, consumes: [], at: AT + 30_000 }],
    });
    now = AT + 2 * 86_400_000;
    await credence.forget(SESSION);
    expect((await store.getShown('p', 'sh-1'))?.query).toBeUndefined();
    // Turn 1 came before turn 2's run: a row of the same words a day later is another's.
    expect((await store.getShown('p', 'sh-later'))?.query).toBe(prompt);
    await credence.close();
  });
});

describe('a dump written before schema 26 restored: its runs forget as the same store upgraded (review F, 4)', () => {
  const fanOut = (id: string, layered = true) => ({
    id,
    intent: 'fan out the load',
    calls: [
      { tool: 'load', status: 'success' as const, ...(layered && { dependsOn: [] }) },
      { tool: 'branch_a', status: 'success' as const, consumes: [0], ...(layered && { dependsOn: [0] }) },
    ],
  });
  /** The engine's store dumped as schema 25 wrote it (no `learned` / `declared`), restored into a new engine. */
  async function restoredAs25(store: Store) {
    let text = '';
    await writeDump(store, (chunk) => {
      text += chunk;
    });
    const lines = text.split('\n').map((line) => {
      if (line.trim() === '') return line;
      const value = JSON.parse(line);
      if (typeof value.schemaVersion === 'number') value.schemaVersion = 25;
      if (value.r !== undefined) for (const mark of ['learned', 'declared']) delete value.r[mark];
      return JSON.stringify(value);
    });
    expect(text).toContain('"declared"');
    expect(lines.join('\n')).not.toContain('"declared"');
    const copy = openSqliteStore({ path: ':memory:' });
    await restoreDump(copy, async function* () {
      yield* lines;
    });
    return openCredence({ store: copy, scope: 'p', now: () => AT });
  }
  const edges = async (c: Awaited<ReturnType<typeof openCredence>>) =>
    (await c.edges()).map((e) => `${e.type} ${e.from}->${e.to} ${e.source} ${e.count}`).sort();

  it("forgetting an execute_dag run takes back its dependencies only, not another run's sequence", async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    await credence.recordExecutions([fanOut('byhand')]);
    const recorded = await credence.recordExecutions([fanOut('gateway')], { learn: ['dependency'] }); // execute_dag's
    const gateway = recorded.executions[0]?.id as string;
    const copy = await restoredAs25(engineStore(credence));
    for (const c of [credence, copy]) await c.forget(gateway);
    expect(await edges(copy)).toEqual(await edges(credence));
    expect(await edges(copy)).toContain('sequence load->branch_a inferred 1');
    await copy.close();
    await credence.close();
  });

  it('a hand-declared edge stays declared when the run confirming it is forgotten', async () => {
    const credence = await openCredence({ store: openSqliteStore({ path: ':memory:' }), scope: 'p', now: () => AT });
    await credence.declareEdge({ from: 'load', to: 'branch_a', type: 'sequence' });
    const copy = await restoredAs25(engineStore(credence));
    for (const c of [credence, copy]) {
      const recorded = await c.recordExecutions([fanOut('r1', false)]);
      await c.forget(recorded.executions[0]?.id as string);
    }
    expect(await edges(copy)).toEqual(['sequence load->branch_a template 0']);
    expect(await edges(credence)).toEqual(await edges(copy));
    await copy.close();
    await credence.close();
  });
});
