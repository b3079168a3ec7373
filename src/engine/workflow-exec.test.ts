import { describe, expect, it } from 'vitest';
import { rejection } from '../../test/helpers.js';
import type { WorkflowTask } from '../core/workflow/workflow.js';
import type { ToolResultLike } from '../core/workflow/workflow-references.js';
import { runWorkflow, type ToolCaller } from './workflow-exec.js';

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  settled: () => boolean;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let done = false;
  const promise = new Promise<T>((r) => {
    resolve = (value) => {
      done = true;
      r(value);
    };
  });
  return { promise, resolve, settled: () => done };
}

const text = (t: string): ToolResultLike => ({ content: [{ type: 'text', text: t }] });

/** A clock that ticks by one on every read, so that every duration is known without timers. */
function ticking(): () => number {
  let t = 1000;
  return () => t++;
}

/** A fake `call` answering from a table by task id and recording what it was called with. */
function fake(answers: Record<string, ToolResultLike | Error>): {
  call: ToolCaller;
  calls: { id: string; tool: string; args: unknown }[];
} {
  const calls: { id: string; tool: string; args: unknown }[] = [];
  const call: ToolCaller = async (tool, args, task) => {
    calls.push({ id: task.id, tool, args });
    const answer = answers[task.id] ?? text(`${task.id} done`);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { call, calls };
}

describe('runWorkflow', () => {
  it('runs two independent tasks concurrently: both calls start before either resolves', async () => {
    const gates = { a: deferred<ToolResultLike>(), b: deferred<ToolResultLike>() };
    const started: string[] = [];
    const bothStarted = deferred<void>();
    const call: ToolCaller = (_tool, _args, task) => {
      started.push(task.id);
      expect(gates.a.settled() || gates.b.settled()).toBe(false);
      if (started.length === 2) bothStarted.resolve();
      return gates[task.id as 'a' | 'b'].promise;
    };
    const run = runWorkflow(
      [
        { id: 'a', tool: 'read' },
        { id: 'b', tool: 'read' },
      ],
      [['a', 'b']],
      call,
      { now: ticking() },
    );
    await bothStarted.promise;
    expect(started).toEqual(['a', 'b']);
    gates.b.resolve(text('B'));
    gates.a.resolve(text('A'));
    const done = await run;
    expect(done.ok).toBe(true);
    expect(done.tasks.map((t) => [t.id, t.status, t.layer])).toEqual([
      ['a', 'success', 0],
      ['b', 'success', 0],
    ]);
  });

  it('with concurrency 1 starts the second task of a layer only after the first has resolved', async () => {
    const first = deferred<ToolResultLike>();
    const seen: boolean[] = [];
    const call: ToolCaller = (_tool, _args, task) => {
      if (task.id === 'a') return first.promise;
      seen.push(first.settled());
      return Promise.resolve(text('B'));
    };
    const run = runWorkflow(
      [
        { id: 'a', tool: 'read' },
        { id: 'b', tool: 'read' },
      ],
      [['a', 'b']],
      call,
      { now: ticking(), concurrency: 1 },
    );
    first.resolve(text('A'));
    expect((await run).ok).toBe(true);
    expect(seen).toEqual([true]);
  });

  it('calls a dependant only after every task of the earlier layer has settled', async () => {
    const gates = { a: deferred<ToolResultLike>(), b: deferred<ToolResultLike>() };
    const seenByC: boolean[] = [];
    const bothStarted = deferred<void>();
    let startedCount = 0;
    const call: ToolCaller = (_tool, _args, task) => {
      if (task.id === 'c') {
        seenByC.push(gates.a.settled(), gates.b.settled());
        return Promise.resolve(text('C'));
      }
      if (++startedCount === 2) bothStarted.resolve();
      return gates[task.id as 'a' | 'b'].promise;
    };
    const run = runWorkflow(
      [
        { id: 'a', tool: 'read' },
        { id: 'b', tool: 'read' },
        { id: 'c', tool: 'merge', dependsOn: ['a'] },
      ],
      [['a', 'b'], ['c']],
      call,
      { now: ticking() },
    );
    await bothStarted.promise;
    gates.a.resolve(text('A'));
    gates.b.resolve(text('B'));
    const done = await run;
    expect(seenByC).toEqual([true, true]);
    expect(done.tasks.map((t) => t.id)).toEqual(['a', 'b', 'c']);
  });

  it('substitutes a whole-text reference and field references from structuredContent and from JSON text', async () => {
    const { call, calls } = fake({
      task_1: {
        content: [
          { type: 'text', text: 'hello' },
          { type: 'text', text: 'world' },
        ],
      },
      task_2: { ...text('ignored'), structuredContent: { path: '/srv/a', size: 3 } },
      task_3: text('{"path": "/tmp/b", "tags": ["x", "y"]}'),
    });
    const tasks: WorkflowTask[] = [
      { id: 'task_1', tool: 'read' },
      { id: 'task_2', tool: 'stat' },
      { id: 'task_3', tool: 'parse' },
      {
        id: 'task_4',
        tool: 'write',
        arguments: {
          body: '$task_1',
          to: ['$task_2.path', '$task_3.path'],
          size: '$task_2.size',
          tag: '$task_3.tags.1',
          home: '$$HOME',
          env: '$HOME',
        },
      },
    ];
    const done = await runWorkflow(tasks, [['task_1', 'task_2', 'task_3'], ['task_4']], call, { now: ticking() });
    const expected = { body: 'hello\nworld', to: ['/srv/a', '/tmp/b'], size: 3, tag: 'y', home: '$HOME', env: '$HOME' };
    expect(calls.find((c) => c.id === 'task_4')?.args).toEqual(expected);
    expect(done.tasks[3]).toMatchObject({
      id: 'task_4',
      status: 'success',
      arguments: expected,
      consumes: ['task_1', 'task_2', 'task_3'],
      layer: 1,
    });
  });

  it('skips the dependants of a failing task, transitively, but runs its siblings', async () => {
    const { call, calls } = fake({ a: new Error('disk on fire') });
    const tasks: WorkflowTask[] = [
      { id: 'a', tool: 'read' },
      { id: 'b', tool: 'read' },
      { id: 'c', tool: 'parse', arguments: { text: '$a' } },
      { id: 'd', tool: 'parse', dependsOn: ['b'] },
      { id: 'e', tool: 'write', dependsOn: ['c'] },
    ];
    const done = await runWorkflow(tasks, [['a', 'b'], ['c', 'd'], ['e']], call, { now: ticking() });
    expect(done.ok).toBe(false);
    expect(done.tasks.map((t) => [t.id, t.status, t.error])).toEqual([
      ['a', 'failure', 'disk on fire'],
      ['b', 'success', undefined],
      ['c', 'skipped', 'dependency "a" failed'],
      ['d', 'success', undefined],
      ['e', 'skipped', 'dependency "c" was skipped'],
    ]);
    expect(calls.map((c) => c.id).sort()).toEqual(['a', 'b', 'd']);
    expect(done.tasks.map((t) => t.called)).toEqual([true, true, false, true, false]);
    expect(done.tasks[2]).toMatchObject({ durationMs: 0, consumes: ['a'] });
    expect(done.tasks[2]?.arguments).toBeUndefined();
  });

  it('fails only the task with an unresolvable reference, naming the task, the reference and why', async () => {
    const { call, calls } = fake({ task_1: { ...text('{}'), structuredContent: { name: 'x' } } });
    const tasks: WorkflowTask[] = [
      { id: 'task_1', tool: 'stat' },
      { id: 'task_2', tool: 'read', arguments: { path: '$task_1.path' } },
      { id: 'task_3', tool: 'read', arguments: { name: '$task_1.name' } },
    ];
    const done = await runWorkflow(tasks, [['task_1'], ['task_2', 'task_3']], call, { now: ticking() });
    expect(done.tasks.map((t) => [t.id, t.status])).toEqual([
      ['task_1', 'success'],
      ['task_2', 'failure'],
      ['task_3', 'success'],
    ]);
    expect(done.tasks[1]?.error).toBe(
      `task "task_2": "$task_1.path" cannot resolve: task_1's result has no field "path"`,
    );
    expect(calls.map((c) => c.id)).toEqual(['task_1', 'task_3']);
    expect(done.tasks.map((t) => t.called)).toEqual([true, false, true]);
  });

  it('counts an isError result as a failure whose error is the result text', async () => {
    const refused = { ...text('permission denied'), isError: true };
    const { call } = fake({ a: refused });
    const done = await runWorkflow(
      [
        { id: 'a', tool: 'read', arguments: { path: '/root' } },
        { id: 'b', tool: 'parse', dependsOn: ['a'] },
      ],
      [['a'], ['b']],
      call,
      { now: ticking() },
    );
    expect(done.ok).toBe(false);
    expect(done.tasks[0]).toMatchObject({
      status: 'failure',
      error: 'permission denied',
      result: refused,
      arguments: { path: '/root' },
    });
    expect(done.tasks[1]).toMatchObject({ status: 'skipped', error: 'dependency "a" failed' });
  });

  it('times each task with the clock it is given', async () => {
    const { call } = fake({});
    const done = await runWorkflow([{ id: 'a', tool: 'read' }], [['a']], call, { now: ticking() });
    expect(done.tasks[0]).toMatchObject({ startedAt: 1000, durationMs: 1 });
  });

  it('returns the outcomes layer by layer, within a layer in the order of the tasks', async () => {
    const { call } = fake({});
    const tasks: WorkflowTask[] = [
      { id: 'task_10', tool: 't' },
      { id: 'task_2', tool: 't' },
      { id: 'z', tool: 't', dependsOn: ['task_2'] },
      { id: 'a', tool: 't', dependsOn: ['task_10'] },
    ];
    const done = await runWorkflow(tasks, [['task_10', 'task_2'].sort(), ['a', 'z']], call, { now: ticking() });
    expect(done.tasks.map((t) => t.id)).toEqual(['task_10', 'task_2', 'z', 'a']);
  });

  it('refuses layers that do not fit the tasks before calling anything', async () => {
    const { call, calls } = fake({});
    const tasks: WorkflowTask[] = [
      { id: 'a', tool: 't' },
      { id: 'b', tool: 't', arguments: '$a' },
    ];
    const now = ticking();
    expect((await rejection(runWorkflow(tasks, [['a', 'b']], call, { now }))).code).toBe('INVALID_INPUT');
    expect((await rejection(runWorkflow(tasks, [['a']], call, { now }))).code).toBe('INVALID_INPUT');
    expect((await rejection(runWorkflow(tasks, [['a'], ['b', 'ghost']], call, { now }))).code).toBe('INVALID_INPUT');
    expect((await rejection(runWorkflow(tasks, [['a'], ['b']], call, { now, concurrency: 0 }))).code).toBe(
      'INVALID_INPUT',
    );
    expect(calls).toEqual([]);
  });
});
