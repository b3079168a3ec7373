import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openCredence, type Credence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { inProcessClient } from '../../test/mcp-helpers.js';

let credence: Credence | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await credence?.close();
  client = credence = undefined;
});

async function connect(): Promise<{ credence: Credence; client: Client }> {
  credence = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'p',
    now: '2026-02-02T09:00:00Z',
  });
  ({ client } = await inProcessClient(credence));
  return { credence, client };
}

const textOf = (result: { messages: { role: string; content: { type: string; text?: string } }[] }): string => {
  expect(result.messages).toHaveLength(1);
  expect(result.messages[0]?.role).toBe('user');
  return result.messages[0]?.content.text ?? '';
};

describe('MCP prompts (issue 22)', () => {
  it('prompts/list gives recall, status and evolve, with recall needing a query', async () => {
    const { client } = await connect();
    expect(client.getServerCapabilities()?.prompts).toBeDefined();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['recall', 'status', 'evolve']);
    expect(prompts.find((p) => p.name === 'recall')?.arguments).toEqual([
      { name: 'query', description: 'what to remember, in words', required: true },
    ]);
  });

  it('recall puts the recalled memories, labelled, in the message; nothing relevant says so', async () => {
    const { credence, client } = await connect();
    await credence.remember([
      { title: 'JWT token refresh flow', text: 'Access tokens are refreshed by the auth middleware.', tags: ['auth'] },
    ]);
    const text = textOf(
      await client.getPrompt({ name: 'recall', arguments: { query: 'how are JWT tokens refreshed' } }),
    );
    expect(text).toMatch(/^Credence recalled this for "how are JWT tokens refreshed":/);
    expect(text).toMatch(/- \[(high|medium|low) \d\.\d\d\] \w+: JWT token refresh flow, 2026-02-02 #auth: /);
    // What was remembered, not only its title.
    expect(text).toContain('Access tokens are refreshed by the auth middleware.');
    // A turn's title is its speaker: the line says what they said and when.
    await credence.remember([{ speaker: 'alice', session: 's1', text: 'Our deploy region is eu-west-1.' }]);
    const turn = textOf(await client.getPrompt({ name: 'recall', arguments: { query: 'deploy region' } }));
    expect(turn).toMatch(/- \[(high|medium|low) \d\.\d\d\] turn: alice, 2026-02-02: Our deploy region is eu-west-1\./);
    const none = textOf(await client.getPrompt({ name: 'recall', arguments: { query: 'kubernetes ingress' } }));
    expect(none).toContain('Credence remembers nothing relevant to "kubernetes ingress"');
  });

  it('status gives the store, the scope and the counts the engine reports', async () => {
    const { credence, client } = await connect();
    await credence.addTools([{ id: 'read_file', description: 'Read a file from disk' }]);
    const status = await credence.status();
    const text = textOf(await client.getPrompt({ name: 'status' }));
    expect(text).toContain(`scope ${status.scope}`);
    expect(text).toContain(`tools ${status.counts.tools}`);
    expect(status.counts.tools).toBe(1);
  });

  it('evolve asks for the evolve tool and writes nothing itself', async () => {
    const { credence, client } = await connect();
    const before = await credence.status();
    const text = textOf(await client.getPrompt({ name: 'evolve', arguments: { dry_run: 'true' } }));
    expect(text).toContain("Call Credence's evolve tool with dry_run true");
    expect(textOf(await client.getPrompt({ name: 'evolve' }))).not.toContain('dry_run');
    expect((await credence.status()).counts).toEqual(before.counts);
  });

  it('an unknown prompt or a missing query is an invalid-params error naming it', async () => {
    const { client } = await connect();
    await expect(client.getPrompt({ name: 'forget' })).rejects.toThrow(/-32602.*unknown prompt "forget"/);
    await expect(client.getPrompt({ name: 'recall', arguments: { query: '  ' } })).rejects.toThrow(
      /-32602.*needs the argument "query"/,
    );
    await expect(client.getPrompt({ name: 'recall', arguments: { query: 'x'.repeat(100_000) } })).rejects.toThrow(
      /-32602.*prompt "recall": .*query/,
    );
  });
});
