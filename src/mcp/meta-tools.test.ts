import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../core/limits.js';
import { VERDICTS } from '../core/types.js';
import { type Credence, openCredence } from '../engine/engine.js';
import { openSqliteStore } from '../store/sqlite/index.js';
import { inputJsonSchema, META_TOOLS } from './meta-tools.js';
import { inProcessClient } from '../../test/mcp-helpers.js';

/** Every string schema in a JSON Schema, with where it is (object keys of a record are not values). */
function stringsOf(
  schema: unknown,
  where: string,
  out: { where: string; schema: Record<string, unknown> }[] = [],
): typeof out {
  if (Array.isArray(schema)) schema.forEach((s, i) => stringsOf(s, `${where}[${i}]`, out));
  else if (typeof schema === 'object' && schema !== null) {
    const node = schema as Record<string, unknown>;
    if (node.type === 'string' && node.enum === undefined && node.const === undefined)
      out.push({ where, schema: node });
    for (const [key, value] of Object.entries(node))
      if (key !== 'propertyNames') stringsOf(value, `${where}.${key}`, out);
  }
  return out;
}

describe('the meta-tools input schemas (issue 17, red-team 1)', () => {
  it('publish a maxLength on every free-text field, the engine limit of that field', () => {
    const unbounded: string[] = [];
    for (const tool of META_TOOLS) {
      for (const s of stringsOf(inputJsonSchema(tool), tool.name))
        if (typeof s.schema.maxLength !== 'number') unbounded.push(s.where);
    }
    expect(unbounded).toEqual([]);
    const props = (name: string) =>
      (inputJsonSchema(META_TOOLS.find((t) => t.name === name) as (typeof META_TOOLS)[number]).properties ??
        {}) as Record<string, { maxLength?: number }>;
    expect(props('search_tools').query?.maxLength).toBe(INPUT_LIMITS.query);
    expect(props('recall').query?.maxLength).toBe(INPUT_LIMITS.query);
    expect(props('execute_dag').intent?.maxLength).toBe(INPUT_LIMITS.intent);
    expect(props('record_execution').intent?.maxLength).toBe(INPUT_LIMITS.intent);
    expect(props('observe').observation?.maxLength).toBe(INPUT_LIMITS.observation);
    expect(props('suggest_next').tool?.maxLength).toBe(INPUT_LIMITS.toolName);
  });

  it('refuse an over-long query before any work: -32602, off the schema, naming the field and the limit', async () => {
    const credence = await openCredence({
      store: openSqliteStore({ path: ':memory:' }),
      scope: 'limits',
      now: '2026-03-01T09:00:00Z',
    });
    await credence.addTools([{ id: 'read_file', description: 'Read a file from disk' }]);
    const { client } = await inProcessClient(credence);
    try {
      const longest = 'read a file '.repeat(Math.ceil(INPUT_LIMITS.query / 12)).slice(0, INPUT_LIMITS.query);
      const atLimit = await client.callTool({ name: 'search_tools', arguments: { query: longest } });
      expect(atLimit.isError).toBeUndefined();
      const refused = await client.callTool({ name: 'search_tools', arguments: { query: `${longest}x` } }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(McpError);
      expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
      // The SDK's prefix once (walk 18, item 8: the server's message carried it, and the client added it again).
      expect((refused as McpError).message).toMatch(
        /^MCP error -32602: invalid arguments for search_tools: query: at most 4000 characters/,
      );
    } finally {
      await client.close();
      await credence.close();
    }
  });
});

describe('the feedback tool (issue 18: one verdict list)', () => {
  it('accepts exactly the core VERDICTS, in their order', () => {
    expect(VERDICTS).toEqual([
      'accepted',
      'rejected',
      'contradicts',
      'validated',
      'succeeded',
      'failed',
      'contradicted',
    ]);
    expect(Object.isFrozen(VERDICTS)).toBe(true);
    const feedback = META_TOOLS.find((t) => t.name === 'feedback') as (typeof META_TOOLS)[number];
    const verdict = (inputJsonSchema(feedback).properties as Record<string, { enum?: unknown }>).verdict;
    expect(verdict?.enum).toEqual([...VERDICTS]);
  });
});

/** An engine on a new in-memory store of scope `p` and an in-process MCP client of it, both closed after `body`. */
async function withClient(
  body: (client: Awaited<ReturnType<typeof inProcessClient>>['client'], credence: Credence) => Promise<void>,
): Promise<void> {
  const credence = await openCredence({
    store: openSqliteStore({ path: ':memory:' }),
    scope: 'p',
    now: '2026-03-01T09:00:00Z',
  });
  const { client } = await inProcessClient(credence);
  try {
    await body(client, credence);
  } finally {
    await client.close();
    await credence.close();
  }
}

// A review: record_execution refused `dependsOn`, which `credence record` and the library take, so an agent could not
// say that two calls of its workflow ran side by side (their order would link them).
describe('record_execution takes each call’s dependsOn', () => {
  it('learns the workflow over the dependencies, not over the order the calls came in', () =>
    withClient(async (client) => {
      const recorded = await client.callTool({
        name: 'record_execution',
        arguments: {
          intent: 'copy a file and stat another',
          calls: [
            { tool: 'read_file', status: 'success', dependsOn: [] },
            { tool: 'file_info', status: 'success', dependsOn: [] },
            { tool: 'write_file', status: 'success', dependsOn: [0] },
          ],
        },
      });
      expect(recorded.isError).toBeUndefined();
      const learned = await client.callTool({ name: 'list_workflows', arguments: {} });
      const { workflows } = learned.structuredContent as { workflows: { tools: string[]; edges: string[][] }[] };
      expect(workflows.map((w) => ({ tools: w.tools, edges: w.edges }))).toEqual([
        { tools: ['read_file', 'file_info', 'write_file'], edges: [['read_file', 'write_file']] },
      ]);
    }));
});

// Fix B.3: a blank intent was stored, a run recall could never find by what it was for.
describe('record_execution with a blank intent', () => {
  it('is refused naming intent, and nothing is stored', () =>
    withClient(async (client, credence) => {
      const refused = await client.callTool({
        name: 'record_execution',
        arguments: { intent: '  \t ', calls: [{ tool: 'read_file', status: 'success' }] },
      });
      expect(refused.isError).toBe(true);
      const body = JSON.parse((refused.content as { text: string }[])[0]?.text ?? '') as {
        error: string;
        code: string;
      };
      expect(body).toMatchObject({ code: 'INVALID_INPUT' });
      expect(body.error).toContain('intent: must not be blank');
      expect(await credence.runs()).toEqual([]);
    }));
});

// Walk 18: forget {"id": ""} answered NOT_FOUND, as if the store held no such id.
describe('forget with an empty id', () => {
  it('is INVALID_INPUT naming id, and nothing is forgotten', () =>
    withClient(async (client, credence) => {
      await credence.remember([{ title: 'kept', text: 'a memory already stored' }]);
      const refused = await client.callTool({ name: 'forget', arguments: { id: '' } });
      expect(refused.isError).toBe(true);
      const body = JSON.parse((refused.content as { text: string }[])[0]?.text ?? '') as { code: string };
      expect(body).toMatchObject({ code: 'INVALID_INPUT', error: expect.stringMatching(/^id is empty/) });
      expect((await credence.counts()).memories).toBe(1);
    }));
});

describe('record_execution with an id of the caller', () => {
  it('records the run once: a retry with the same id learns nothing and says it was already recorded', () =>
    withClient(async (client, credence) => {
      const args = {
        id: 'agent-run-17',
        intent: 'read then write',
        calls: [
          { tool: 'read_file', status: 'success' },
          { tool: 'write_file', status: 'success', consumes: [0] },
        ],
      };
      const first = await client.callTool({ name: 'record_execution', arguments: args });
      const second = await client.callTool({ name: 'record_execution', arguments: args });
      const a = first.structuredContent as { executionId: string; alreadyRecorded?: boolean; edges: unknown[] };
      const b = second.structuredContent as { executionId: string; alreadyRecorded?: boolean; edges: unknown[] };
      expect(a.alreadyRecorded).toBeUndefined();
      expect(a.edges.length).toBeGreaterThan(0);
      expect(b).toMatchObject({ executionId: a.executionId, alreadyRecorded: true, edges: [] });
      expect((await credence.runs()).length).toBe(1);
    }));
});

// Walk 4 (item 3): record_execution refused a call's `input` and `output`, which `credence record` takes, so a failed
// weather_api then a meteo_lookup on the same city taught an alternative edge through the CLI and none over MCP.
describe('record_execution takes each call’s input and output', () => {
  const execution = {
    intent: 'get the weather in paris',
    calls: [
      { tool: 'weather_api', status: 'failure' as const, input: '{"city":"Paris"}', output: 'HTTP 503' },
      { tool: 'meteo_lookup', status: 'success' as const, input: '{"q":"Paris"}', output: '{"temp":14}' },
    ],
  };
  const open = (scope: string) =>
    openCredence({ store: openSqliteStore({ path: ':memory:' }), scope, now: '2026-03-01T09:00:00Z' });
  const edgesOf = async (credence: Awaited<ReturnType<typeof open>>) =>
    (await credence.edges()).map((e) => `${e.type} ${e.from}->${e.to} ${e.confidence.toFixed(3)}`).sort();

  it('learns the same edges as recordExecutions, the alternative edge among them', async () => {
    const library = await open('p');
    const viaMcp = await open('p');
    const { client } = await inProcessClient(viaMcp);
    try {
      await library.recordExecutions([execution], { validate: true });
      const recorded = await client.callTool({ name: 'record_execution', arguments: execution });
      expect(recorded.isError).toBeUndefined();
      const expected = await edgesOf(library);
      expect(expected.some((e) => e.startsWith('alternative weather_api->meteo_lookup'))).toBe(true);
      expect(await edgesOf(viaMcp)).toEqual(expected);
    } finally {
      await client.close();
      await viaMcp.close();
      await library.close();
    }
  });

  it('refuses an input over the call-text limit as invalid arguments, naming the field', async () => {
    const credence = await open('p');
    const { client } = await inProcessClient(credence);
    try {
      const tooLong = 'x'.repeat(INPUT_LIMITS.callText + 1);
      const refused = await client
        .callTool({
          name: 'record_execution',
          arguments: { intent: 'too long', calls: [{ tool: 'a', status: 'success', input: tooLong }] },
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect((refused as McpError).code).toBe(ErrorCode.InvalidParams);
      expect((refused as McpError).message).toMatch(/calls\[0\]\.input: at most 100000 characters/);
      expect(await credence.edges()).toEqual([]);
    } finally {
      await client.close();
      await credence.close();
    }
  });
});

// Walk 18, item 7: execute_dag's and evolve's refusals carried no `code`, unlike the other tools' errors, so an agent
// branching on it could not tell an unknown tool or a cycle from anything else.
describe('execute_dag and evolve refusals carry the error code', () => {
  it('names UNKNOWN_TOOL, CYCLE and INVALID_INPUT as library.md lists them', () =>
    withClient(async (client) => {
      await client.callTool({
        name: 'record_execution',
        arguments: { intent: 'read then parse', calls: [{ tool: 'read_file', status: 'success' }] },
      });
      const codeOf = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args });
        expect(result.isError).toBe(true);
        return (result.structuredContent as { code?: string }).code;
      };
      expect(await codeOf('execute_dag', { workflow: { tasks: [{ id: 'a', tool: 'nope' }] } })).toBe('UNKNOWN_TOOL');
      const loop = [
        { id: 'a', tool: 'read_file', dependsOn: ['b'] },
        { id: 'b', tool: 'read_file', dependsOn: ['a'] },
      ];
      expect(await codeOf('execute_dag', { workflow: { tasks: loop } })).toBe('CYCLE');
      expect(await codeOf('execute_dag', {})).toBe('INVALID_INPUT');
      // A valid workflow on a server started without a gateway (walk 20, item 4).
      expect(await codeOf('execute_dag', { workflow: { tasks: [{ id: 'a', tool: 'read_file' }] } })).toBe('NO_GATEWAY');
      expect(await codeOf('evolve', { dry_run: true, min_confidence: 5 })).toBe('INVALID_INPUT');
    }));
});
