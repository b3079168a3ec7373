import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  effectiveDependencies,
  parseReference,
  referencesIn,
  resolveArguments,
  type ToolResultLike,
} from './workflow-references.js';

const ids = new Set(['task_1', 'task-2', 'fetch']);
const text = (...texts: string[]): ToolResultLike => ({ content: texts.map((t) => ({ type: 'text', text: t })) });

describe('parseReference', () => {
  it('reads a task id and a dot-separated path', () => {
    expect(parseReference('$task_1', ids)).toEqual({ task: 'task_1', path: [], text: '$task_1' });
    expect(parseReference('$task-2.a.b.0', ids)).toEqual({
      task: 'task-2',
      path: ['a', 'b', '0'],
      text: '$task-2.a.b.0',
    });
    expect(parseReference('$fetch.file name.$x', ids)).toEqual({
      task: 'fetch',
      path: ['file name', '$x'],
      text: '$fetch.file name.$x',
    });
  });

  it('leaves as literals a $ later in the string, an escaped $$, an unknown id and an empty segment', () => {
    for (const literal of [
      'cost: $5',
      'x$task_1',
      '$$task_1',
      '$HOME',
      '$PATH.x',
      '$task_1.',
      '$task_1..a',
      '$',
      '$1',
      ' $task_1',
      '$task_1 ',
    ]) {
      expect(parseReference(literal, ids), literal).toBeUndefined();
    }
  });
});

describe('referencesIn', () => {
  it('finds references anywhere in nested arrays and objects, in document order, never in keys', () => {
    const args = { a: '$task_1', list: [1, { deep: '$task-2.x.0' }, '$HOME'], $task_1: 'plain', note: 'see $task_1' };
    expect(referencesIn(args, ids)).toEqual([
      { task: 'task_1', path: [], text: '$task_1' },
      { task: 'task-2', path: ['x', '0'], text: '$task-2.x.0' },
    ]);
  });

  it('finds a reference that is the whole argument value', () => {
    expect(referencesIn('$fetch.url', ids)).toEqual([{ task: 'fetch', path: ['url'], text: '$fetch.url' }]);
    expect(referencesIn(undefined, ids)).toEqual([]);
  });
});

describe('effectiveDependencies', () => {
  it('adds the referenced tasks to dependsOn without repeats, and ignores references to non-tasks', () => {
    const deps = effectiveDependencies([
      { id: 'a', tool: 't' },
      { id: 'b', tool: 't', arguments: { x: '$a', y: ['$a.path'], z: '$nope' } },
      { id: 'c', tool: 't', dependsOn: ['a', 'ghost'], arguments: { x: '$b', y: '$a' } },
    ]);
    expect(Object.fromEntries(deps)).toEqual({ a: [], b: ['a'], c: ['a', 'ghost', 'b'] });
  });

  it('lists a task that references itself among its own dependencies', () => {
    expect(effectiveDependencies([{ id: 'a', tool: 't', arguments: { again: '$a.next' } }]).get('a')).toEqual(['a']);
  });
});

describe('resolveArguments', () => {
  const results = new Map<string, ToolResultLike>([
    ['task_1', { ...text('{"path": "/tmp/x", "items": [{"n": 1}, {"n": 2}]}'), structuredContent: undefined }],
    [
      'task-2',
      { ...text('ignored'), structuredContent: { path: '/srv/y', nested: { list: [10, 20] }, zero: 0, nothing: null } },
    ],
    ['fetch', text('line one', 'line two')],
  ]);

  it('replaces a whole-task reference by the text content joined with newlines', () => {
    expect(resolveArguments({ body: '$fetch' }, results)).toEqual({ ok: true, value: { body: 'line one\nline two' } });
  });

  it('drops trailing line breaks of a whole-task reference like $(cat file), as echo writes them (issue 17)', () => {
    const read = (t: string) => resolveArguments({ path: '$task_1' }, new Map([['task_1', text(t)]]));
    expect(read('docs/notes.md\n')).toEqual({ ok: true, value: { path: 'docs/notes.md' } });
    expect(read('docs/notes.md\r\n\n')).toEqual({ ok: true, value: { path: 'docs/notes.md' } });
    // Only the final line breaks: spaces, leading and inner line breaks are the text's own.
    expect(read('\n a\nb \n')).toEqual({ ok: true, value: { path: '\n a\nb ' } });
    expect(read('\n')).toEqual({ ok: true, value: { path: '' } });
  });

  it('keeps a field read by path exactly as it is, final line break included', () => {
    expect(
      resolveArguments(
        { p: '$task_1.path' },
        new Map([['task_1', { ...text('x'), structuredContent: { path: 'a\n' } }]]),
      ),
    ).toEqual({ ok: true, value: { p: 'a\n' } });
  });

  it('reads a field path from structuredContent when present, substituting the value as it is', () => {
    const resolved = resolveArguments(
      { p: '$task-2.path', n: '$task-2.nested.list.1', o: '$task-2.nested', z: '$task-2.zero', nil: '$task-2.nothing' },
      results,
    );
    expect(resolved).toEqual({ ok: true, value: { p: '/srv/y', n: 20, o: { list: [10, 20] }, z: 0, nil: null } });
  });

  it('reads a field path from the text parsed as JSON when there is no structuredContent', () => {
    expect(resolveArguments(['$task_1.path', '$task_1.items.1.n', '$task_1.items'], results)).toEqual({
      ok: true,
      value: ['/tmp/x', 2, [{ n: 1 }, { n: 2 }]],
    });
  });

  it('copies a substituted object instead of sharing it with the result', () => {
    const resolved = resolveArguments({ o: '$task-2.nested' }, results);
    const o = resolved.ok ? (resolved.value as { o: { list: number[] } }).o : undefined;
    o?.list.push(30);
    expect(results.get('task-2')?.structuredContent).toMatchObject({ nested: { list: [10, 20] } });
  });

  it('undoes a $$ escape and leaves every other string alone', () => {
    const args = { home: '$$HOME', ref: '$$task_1', lone: '$$', env: '$HOME', mid: 'a $task_1', dot: '$task_1.' };
    expect(resolveArguments(args, results)).toEqual({
      ok: true,
      value: { home: '$HOME', ref: '$task_1', lone: '$', env: '$HOME', mid: 'a $task_1', dot: '$task_1.' },
    });
  });

  it('names a missing field with the path up to where it stops', () => {
    expect(resolveArguments({ a: '$task_1.nope' }, results)).toEqual({
      ok: false,
      message: `"$task_1.nope" cannot resolve: task_1's result has no field "nope"`,
    });
    expect(resolveArguments({ a: '$task-2.nested.list.5' }, results)).toEqual({
      ok: false,
      message: `"$task-2.nested.list.5" cannot resolve: task-2's result has no field "nested.list.5"`,
    });
    expect(resolveArguments({ a: '$task-2.nested.list.length' }, results)).toMatchObject({ ok: false });
    expect(resolveArguments({ a: '$task-2.toString' }, results)).toMatchObject({ ok: false });
  });

  it('fails on text that is not JSON, a result without text, a failed task and a task without a result', () => {
    const more = new Map<string, ToolResultLike>([
      ['fetch', text('not json')],
      ['task_1', { content: [{ type: 'image' }] }],
      ['task-2', { ...text('boom'), isError: true }],
    ]);
    expect(resolveArguments('$fetch.x', more)).toEqual({
      ok: false,
      message: `"$fetch.x" cannot resolve: fetch's result has no structuredContent and its text is not JSON`,
    });
    expect(resolveArguments('$task_1', more)).toEqual({
      ok: false,
      message: `"$task_1" cannot resolve: task_1's result has no text content`,
    });
    expect(resolveArguments('$task-2', more)).toEqual({
      ok: false,
      message: `"$task-2" cannot resolve: task-2 failed`,
    });
    expect(resolveArguments('$later', more, new Set(['later']))).toEqual({
      ok: false,
      message: `"$later" cannot resolve: later has no result (it has not run)`,
    });
  });

  it('does not modify the arguments it resolves', () => {
    const args = { a: ['$fetch', { b: '$$x' }] };
    const before = structuredClone(args);
    resolveArguments(args, results);
    expect(args).toEqual(before);
  });

  it('returns a value without $ strings unchanged', () => {
    const noDollar = fc.jsonValue().filter((v) => !JSON.stringify(v).includes('$'));
    fc.assert(
      fc.property(noDollar, (value) => {
        expect(resolveArguments(value, results)).toEqual({ ok: true, value });
        expect(referencesIn(value, ids)).toEqual([]);
      }),
    );
  });

  it('resolves a reference placed anywhere in a value to the same text', () => {
    const paths = fc.array(fc.oneof(fc.constantFrom('a', 'b'), fc.nat(2)), { maxLength: 4 });
    fc.assert(
      fc.property(
        paths,
        fc.string().map((s) => s.replaceAll('$', '')),
        (path, s) => {
          // Build a nest of arrays and objects with the reference at the bottom.
          const build = (leaf: unknown): unknown =>
            path.reduceRight<unknown>(
              (inner, key) =>
                typeof key === 'number' ? [...Array<null>(key).fill(null), inner] : { [key]: inner, other: s },
              leaf,
            );
          expect(resolveArguments(build('$fetch'), results)).toEqual({ ok: true, value: build('line one\nline two') });
        },
      ),
    );
  });
});
