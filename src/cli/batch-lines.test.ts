import { describe, expect, it } from 'vitest';
import { ExecuteDagInput } from '../mcp/execute-dag.js';
import { workflow } from './batch-lines.js';

// Walk 16, item 12: `dag --validate` called valid a workflow whose task `arguments` was not an object, which
// execute_dag then refused as a protocol error. What one accepts, the other must.
describe('dag --validate and execute_dag take one workflow shape', () => {
  const accepts = (task: Record<string, unknown>) => {
    const doc = { tasks: [task] };
    let cli = true;
    try {
      workflow(doc);
    } catch {
      cli = false;
    }
    return { cli, mcp: ExecuteDagInput.safeParse({ workflow: doc }).success };
  };

  it.each([
    ['a string', 'x'],
    ['a number', 5],
    ['an array', [1, 2]],
    ['null', null],
  ])('refuses arguments that are %s, as execute_dag does', (_, value) => {
    expect(accepts({ id: 'a', tool: 'load', arguments: value })).toEqual({ cli: false, mcp: false });
    expect(() => workflow({ tasks: [{ id: 'a', tool: 'load', arguments: value }] })).toThrow(
      /invalid workflow: tasks\[0\]\.arguments: must be an object, got /,
    );
  });

  it('accepts arguments given as an object, or none, as execute_dag does', () => {
    expect(accepts({ id: 'a', tool: 'load', arguments: { path: 'x' } })).toEqual({ cli: true, mcp: true });
    expect(accepts({ id: 'a', tool: 'load' })).toEqual({ cli: true, mcp: true });
  });

  it('refuses an id over the limit execute_dag sets', () => {
    expect(accepts({ id: 'a'.repeat(100_000), tool: 'load' })).toEqual({ cli: false, mcp: false });
  });
});
