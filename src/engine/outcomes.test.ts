import { describe, expect, it } from 'vitest';
import { isCredenceError } from '../core/errors.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { openCredence } from './engine.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');

async function withRuns() {
  let n = 0;
  const store = openSqliteStore({ path: ':memory:' });
  const clock = { now: T0 };
  const credence = await openCredence({ store, scope: 'lib', now: () => clock.now, newId: () => `e${(n += 1)}` });
  await credence.addTools([
    { id: 'read_file', description: 'read a file from disk' },
    { id: 'parse_json', description: 'parse json text' },
  ]);
  for (let i = 0; i < 3; i += 1)
    await credence.recordExecution({
      intent: 'read the config file and parse its json',
      startedAt: T0 - (i + 1) * 60_000,
      calls: [
        { tool: 'read_file', status: 'success' },
        { tool: 'parse_json', status: 'success', consumes: [0] },
      ],
    });
  return { credence, store, clock };
}

const fail = async (run: () => Promise<unknown>): Promise<unknown> =>
  run().then(
    () => undefined,
    (e: unknown) => e,
  );

describe('outcomes of shown claims (issue 24)', () => {
  it('every surface records the confidence it showed; an outcome makes it a calibration point', async () => {
    const { credence, clock } = await withRuns();
    const [hit] = await credence.searchTools('parse json', { limit: 1 });
    const [next] = await credence.suggestNext('read_file');
    await credence.remember([{ category: 'decision', title: 'config', text: 'the config file is json' }]);
    const [memory] = await credence.recall('config json');
    expect([hit?.shownId, next?.shownId, memory?.shownId].every((id) => id?.startsWith('sh-'))).toBe(true);
    clock.now = T0 + 7;
    await credence.recordOutcome(hit?.shownId as string, 'succeeded', { at: T0 + 5 });
    await credence.recordOutcome(next?.shownId as string, 'failed', { at: T0 + 6 });
    await credence.recordOutcome(memory?.shownId as string, 'accepted', { at: T0 + 7 });
    expect(await credence.listOutcomes()).toEqual([
      expect.objectContaining({ kind: 'search', target: hit?.tool, confidence: hit?.score, outcome: 'succeeded' }),
      expect.objectContaining({ kind: 'next', target: next?.tool, confidence: next?.confidence, outcome: 'failed' }),
      expect.objectContaining({ kind: 'recall', confidence: memory?.score, outcome: 'accepted', outcomeAt: T0 + 7 }),
    ]);
    expect((await credence.listOutcomes({ kind: 'next' })).map((o) => o.id)).toEqual([next?.shownId]);
    // Accepted is a verdict too: the metrics' precision counts it.
    const recall = (await credence.metrics()).suggestions.bySurface.find((s) => s.surface === 'recall');
    expect(recall).toMatchObject({ accepted: 1 });
    await credence.close();
  });

  it('names an unknown shown id, outcome, kind or time', async () => {
    const { credence } = await withRuns();
    const [hit] = await credence.searchTools('parse json', { limit: 1 });
    const unknown = await fail(() => credence.recordOutcome('sh-nope', 'succeeded'));
    expect(isCredenceError(unknown, 'NOT_FOUND') && unknown.message).toContain('"sh-nope"');
    const bad = await fail(() => credence.recordOutcome(hit?.shownId as string, 'maybe' as 'failed'));
    expect(isCredenceError(bad, 'INVALID_INPUT') && bad.message).toContain('"maybe" is not an outcome');
    const at = await fail(() => credence.recordOutcome(hit?.shownId as string, 'failed', { at: Number.NaN }));
    expect(isCredenceError(at, 'INVALID_INPUT')).toBe(true);
    const kind = await fail(() => credence.listOutcomes({ kind: 'tool' as 'dag' }));
    expect(isCredenceError(kind, 'INVALID_INPUT') && kind.message).toContain('"tool" is not a kind of claim');
    const limit = await fail(() => credence.listOutcomes({ limit: -1 }));
    expect(isCredenceError(limit, 'INVALID_INPUT')).toBe(true);
    expect(await credence.listOutcomes()).toEqual([]);
    await credence.close();
  });

  it('refuses an outcome dated before 1970, before the claim was shown or a day after now, saying why', async () => {
    const { credence } = await withRuns();
    const [next] = await credence.suggestNext('read_file');
    const id = next?.shownId as string;
    const cases: [number, RegExp][] = [
      [-5, /^at -5 \(1969-12-31T23:59:59\.995Z\) is before 1970/],
      [
        Date.parse('2020-01-01'),
        /^at 1577836800000 \(2020-01-01T00:00:00\.000Z\) is before the claim was shown \(2026/,
      ],
      [T0 + 86_400_001, /is after the clock now\(\) gives \(2026-03-01T00:00:00\.000Z\): calibration counts/],
      [1e20, /^at 100000000000000000000 is after the clock now\(\) gives/],
    ];
    for (const [at, message] of cases)
      await expect(credence.recordOutcome(id, 'succeeded', { at })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        message: expect.stringMatching(message),
      });
    expect(await credence.listOutcomes()).toEqual([]);
    // From when it was shown to now, it is taken.
    expect((await credence.recordOutcome(id, 'succeeded', { at: T0 })).at).toBe(T0);
    // A little after now is taken, as every other time given is (a day of slack): the hooks' learner reads its clock
    // once, then follows events spooled after that reading, each outcome at its event's time (review G, item 3).
    expect((await credence.recordOutcome(id, 'accepted', { at: T0 + 50, inferred: true })).at).toBe(T0 + 50);
    await credence.close();
  });

  it('feedback words are outcomes: a shown result used and how it went, an instinct contradicted', async () => {
    const { credence, store } = await withRuns();
    const [hit] = await credence.searchTools('read a file', { limit: 1 });
    const id = hit?.shownId as string;
    expect(await credence.feedback(id, 'failed')).toMatchObject({ on: 'shown', outcome: { id, outcome: 'failed' } });
    // Succeeded / failed are no verdict and no event: tool search reads nothing back from them.
    expect((await store.getShown('lib', id))?.verdict).toBeUndefined();
    expect(await store.listFeedback('lib', id)).toEqual([]);
    expect(await credence.feedback(id, 'succeeded')).toMatchObject({ outcome: { outcome: 'succeeded' } });
    await store.upsertInstinct('lib', {
      id: 'in-1',
      slug: 'json-configs',
      text: 'configs are json',
      confidence: 0.6,
      status: 'active',
      evidence: ['e1'],
      createdAt: T0,
      updatedAt: T0,
    });
    const contradicted = await credence.feedback('in-1', 'contradicts', { eventId: 'ev-1' });
    expect(contradicted).toMatchObject({
      on: 'instinct',
      event: { recorded: true },
      outcome: { outcome: 'contradicted' },
    });
    // The same event again records no second outcome.
    expect((await credence.feedback('in-1', 'contradicts', { eventId: 'ev-1' })).outcome).toBeUndefined();
    // Both at the engine's fixed now: by id then (the search result was shown first).
    const outcomes = await credence.listOutcomes();
    expect(outcomes.map((o) => [o.kind, o.target, o.confidence, o.outcome])).toEqual([
      ['search', hit?.tool, hit?.score, 'succeeded'],
      ['instinct', 'instinct:in-1', 0.6, 'contradicted'],
    ]);
    await credence.close();
  });
});
