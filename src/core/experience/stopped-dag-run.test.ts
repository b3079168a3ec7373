import { describe, expect, it } from 'vitest';
import { isStoppedDagRun } from './stopped-dag-run.js';

// fetch -> read -> write, and stat alongside.
const dag = [
  { id: 'f', tool: 'fetch', dependsOn: [] },
  { id: 'r', tool: 'read', dependsOn: ['f'] },
  { id: 'w', tool: 'write', dependsOn: ['r'] },
  { id: 's', tool: 'stat', dependsOn: [] },
];

describe('isStoppedDagRun', () => {
  it('matches the tasks that ran before a failure, each with its own dependencies', () => {
    expect(isStoppedDagRun(dag, [{ tool: 'fetch', dependsOn: [] }])).toBe(true);
    const ran = [
      { tool: 'fetch', dependsOn: [] },
      { tool: 'stat', dependsOn: [] },
      { tool: 'read', dependsOn: [0] },
    ];
    expect(isStoppedDagRun(dag, ran)).toBe(true);
  });

  it('refuses a task run without its dependency, a call of no task, no dependencies recorded, all tasks', () => {
    expect(isStoppedDagRun(dag, [{ tool: 'read', dependsOn: [] }])).toBe(false);
    expect(isStoppedDagRun(dag, [{ tool: 'delete', dependsOn: [] }])).toBe(false);
    expect(isStoppedDagRun(dag, [{ tool: 'fetch' }])).toBe(false);
    expect(isStoppedDagRun(dag, [])).toBe(false);
    const all = [
      { tool: 'fetch', dependsOn: [] },
      { tool: 'stat', dependsOn: [] },
      { tool: 'read', dependsOn: [0] },
      { tool: 'write', dependsOn: [2] },
    ];
    expect(isStoppedDagRun(dag, all)).toBe(false);
    // read waited for stat, which it does not depend on in the DAG.
    expect(isStoppedDagRun(dag, [all[0]!, all[1]!, { tool: 'read', dependsOn: [0, 1] }])).toBe(false);
  });
});
