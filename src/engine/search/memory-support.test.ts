import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { openSqliteStore } from '../../store/sqlite/index.js';

const T0 = Date.parse('2026-11-01T00:00:00Z');

const TOOLS = [
  { id: 'read_file', description: 'Read the contents of a file from disk' },
  { id: 'write_file', description: 'Write text content to a file on disk' },
  { id: 'parse_json', description: 'Parse a JSON string into an object' },
  { id: 'validate_config', description: 'Validate a configuration object against its schema' },
  { id: 'http_get', description: 'Fetch a URL over HTTP and return the body' },
  { id: 'send_email', description: 'Send an email message to a recipient' },
  { id: 'list_dir', description: 'List the files in a directory' },
  { id: 'delete_file', description: 'Delete a file from disk' },
];

/** One tool after the other, each using the one before. */
const chain = (intent: string, tools: readonly string[], at: number) => ({
  intent,
  startedAt: at,
  calls: tools.map((tool, i) => ({ tool, status: 'success' as const, ...(i > 0 ? { consumes: [i - 1] } : {}) })),
});

/** A scope whose history is two tasks, each repeated word for word (walk 9: a developer's daily routine). */
async function engine(warm: boolean) {
  let n = 0;
  const cr = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'cw',
    now: T0,
    newId: () => `e${(n += 1)}`,
  });
  await cr.addTools(TOOLS);
  if (!warm) return cr;
  const config = ['read_file', 'parse_json', 'validate_config', 'write_file'];
  for (let i = 0; i < 20; i += 1)
    await cr.recordExecution(chain('update the config file', config, T0 - (40 - i) * 3.6e6));
  for (let i = 0; i < 10; i += 1)
    await cr.recordExecution(
      chain('download the report and email it', ['http_get', 'send_email'], T0 - (20 - i) * 3.6e6),
    );
  return cr;
}

const tasks = (dag: { dag: { tasks: { tool: string }[] } }) => dag.dag.tasks.map((t) => t.tool);

describe('the memory answers only for tasks like those it was measured on (walk 9: learning never worse)', () => {
  it('a task sharing only a word with the repeated ones ranks and builds as before anything was learned', async () => {
    const cold = await engine(false);
    const warm = await engine(true);
    for (const query of ['delete a file', 'list the files in a folder', 'fetch a web page']) {
      const before = await cold.searchTools(query, { track: false });
      const after = await warm.searchTools(query, { track: false });
      expect(after[0]?.tool).toBe(before[0]?.tool);
      expect(after[0]).not.toHaveProperty('memory');
    }
    const dag = await warm.suggestDag('delete the old config file', { track: false });
    expect(tasks(dag)).toContain('delete_file');
    expect(tasks(dag)).not.toContain('parse_json');
    expect(dag.way?.way).toBe('search');
    expect(dag.way?.why).toMatch(/less alike than any it was measured on \(strength 0\.\d\d; \d+ replays from 1\.00\)/);
    expect(dag.confidenceBasis).not.toBe('memory');
  });

  it('the repeated task and its rewordings still get what the memory learned', async () => {
    const warm = await engine(true);
    for (const intent of ['update the config file', 'update the config files', 'change the config file']) {
      const dag = await warm.suggestDag(intent, { track: false });
      expect(tasks(dag)).toEqual(['read_file', 'parse_json', 'validate_config', 'write_file']);
      expect(dag.way?.way).not.toBe('search');
    }
    const [top] = await warm.searchTools('update the config files', { track: false });
    expect(top?.memory?.weight).toBeGreaterThan(0.5);
  });
});
