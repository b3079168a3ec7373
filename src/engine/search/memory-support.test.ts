import { describe, expect, it } from 'vitest';
import { openCredence } from '../engine.js';
import { memoryCaveat } from '../explain.js';
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
async function warmEngine() {
  let n = 0;
  const cr = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'cw',
    now: T0,
    newId: () => `e${(n += 1)}`,
  });
  await cr.addTools(TOOLS);
  const config = ['read_file', 'parse_json', 'validate_config', 'write_file'];
  for (let i = 0; i < 20; i += 1)
    await cr.recordExecution(chain('update the config file', config, T0 - (40 - i) * 3.6e6));
  for (let i = 0; i < 10; i += 1)
    await cr.recordExecution(
      chain('download the report and email it', ['http_get', 'send_email'], T0 - (20 - i) * 3.6e6),
    );
  return cr;
}

describe('past runs less alike than any the memory was measured on are named, not trusted silently (walk 9)', () => {
  it("a search whose voters share one word with the query says so, and names the search's own first", async () => {
    const warm = await warmEngine();
    const results = await warm.searchTools('delete a file', { track: false });
    const unlike = results[0]?.memory?.unlike;
    expect(unlike?.measuredFrom).toBeCloseTo(1, 6);
    expect(unlike?.replays).toBe(30);
    expect(unlike?.strength).toBeLessThan(0.75);
    // The vote moved the search's near-exact match down: the warning names it with its own score.
    expect(results[0]?.tool).not.toBe('delete_file');
    expect(unlike?.searchFirst?.tool).toBe('delete_file');
    expect(memoryCaveat(results)).toMatch(
      new RegExp(
        String.raw`^the past runs that voted are less alike \(strength 0\.\d\d\) than any the memory was measured ` +
          String.raw`on \(30 replays from 1\.00\): their weight is an extrapolation; the search alone ranks ` +
          String.raw`delete_file first \(0\.9\d\d\)$`,
      ),
    );
    await warm.close();
  });

  it('the repeated task and its rewordings carry no warning', async () => {
    const warm = await warmEngine();
    for (const query of ['update the config file', 'update the config files', 'change the config file']) {
      const results = await warm.searchTools(query, { track: false });
      expect(results[0]?.memory?.vote).toBe(1);
      expect(memoryCaveat(results)).toBeUndefined();
      const dag = await warm.suggestDag(query, { track: false });
      expect(dag.memory?.backed).toBe(true);
      expect(dag.memory?.unlike).toBeUndefined();
      expect(dag.warning).toBeUndefined();
    }
    await warm.close();
  });

  it('a memory-backed DAG for a task unlike the history warns, naming what the search alone would use', async () => {
    const warm = await warmEngine();
    const dag = await warm.suggestDag('delete the old config file', { track: false });
    expect(dag.memory?.backed).toBe(true);
    expect(dag.memory?.unlike?.measuredFrom).toBeCloseTo(1, 6);
    expect(dag.warning).toMatch(
      new RegExp(
        String.raw`^the past runs behind this DAG are less alike \(strength 0\.\d\d\) than any the memory was ` +
          String.raw`measured on \(30 replays from 1\.00\): its confidence was measured on closer tasks; the ` +
          String.raw`search alone would use [a-z_, ]*delete_file`,
      ),
    );
    await warm.close();
  });
});
