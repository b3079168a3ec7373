import { describe, expect, it } from 'vitest';
import { validateWorkflow } from './workflow.js';

const tools = new Set(['read_file', 'parse_json', 'write_file']);

describe('validateWorkflow', () => {
  it('returns the parallel layers of a valid workflow', () => {
    const check = validateWorkflow(
      [
        { id: 'a', tool: 'read_file' },
        { id: 'b', tool: 'read_file' },
        { id: 'c', tool: 'parse_json', dependsOn: ['a', 'b'] },
        { id: 'd', tool: 'write_file', dependsOn: ['c'] },
      ],
      tools,
    );
    expect(check).toEqual({ ok: true, layers: [['a', 'b'], ['c'], ['d']] });
  });

  it('names an unknown tool', () => {
    const check = validateWorkflow([{ id: 'a', tool: 'rm_rf' }], tools);
    expect(check).toMatchObject({ ok: false, problems: [{ kind: 'unknown-tool', task: 'a', tool: 'rm_rf' }] });
  });

  it('names a missing dependency and a duplicate id', () => {
    const check = validateWorkflow(
      [
        { id: 'a', tool: 'read_file', dependsOn: ['ghost'] },
        { id: 'a', tool: 'parse_json' },
      ],
      tools,
    );
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.problems.map((p) => p.kind).sort()).toEqual(['duplicate-id', 'missing-dependency']);
  });

  it('names the tasks on a cycle, including a self-dependency', () => {
    const check = validateWorkflow(
      [
        { id: 'a', tool: 'read_file', dependsOn: ['c'] },
        { id: 'b', tool: 'parse_json', dependsOn: ['a'] },
        { id: 'c', tool: 'write_file', dependsOn: ['b'] },
        { id: 'd', tool: 'write_file', dependsOn: ['a'] },
      ],
      tools,
    );
    expect(check.ok).toBe(false);
    if (!check.ok) {
      const cycle = check.problems.find((p) => p.kind === 'cycle');
      expect(cycle?.kind === 'cycle' && [...cycle.tasks].sort()).toEqual(['a', 'b', 'c']);
      expect(cycle?.message).toMatch(/cycle: . → . → . → ./);
    }
    const self = validateWorkflow([{ id: 'x', tool: 'read_file', dependsOn: ['x'] }], tools);
    expect(self).toMatchObject({ ok: false, problems: [{ kind: 'cycle', tasks: ['x'] }] });
  });

  it('counts a reference in the arguments as a dependency for the layers', () => {
    const check = validateWorkflow(
      [
        { id: 'task_1', tool: 'read_file' },
        { id: 'task_2', tool: 'parse_json', arguments: { text: '$task_1' } },
        { id: 'task_3', tool: 'write_file', arguments: { path: { at: ['$task_2.path'] } }, dependsOn: ['task_1'] },
      ],
      tools,
    );
    expect(check).toEqual({ ok: true, layers: [['task_1'], ['task_2'], ['task_3']] });
  });

  it('leaves a $name that is not a task as a literal: no problem, no dependency', () => {
    const check = validateWorkflow(
      [
        { id: 'a', tool: 'read_file', arguments: { path: '$HOME/x', env: '$ghost.path' } },
        { id: 'b', tool: 'read_file', arguments: { escaped: '$$a' } },
      ],
      tools,
    );
    expect(check).toEqual({ ok: true, layers: [['a', 'b']] });
  });

  it('finds a cycle made by references, including a task referencing itself', () => {
    const check = validateWorkflow(
      [
        { id: 'a', tool: 'read_file', arguments: { x: '$b.out' } },
        { id: 'b', tool: 'parse_json', dependsOn: ['a'] },
      ],
      tools,
    );
    expect(check.ok).toBe(false);
    if (!check.ok) {
      const cycle = check.problems.find((p) => p.kind === 'cycle');
      expect(cycle?.kind === 'cycle' && [...cycle.tasks].sort()).toEqual(['a', 'b']);
    }
    const self = validateWorkflow([{ id: 'x', tool: 'read_file', arguments: ['$x'] }], tools);
    expect(self).toMatchObject({ ok: false, problems: [{ kind: 'cycle', tasks: ['x'] }] });
  });
});
