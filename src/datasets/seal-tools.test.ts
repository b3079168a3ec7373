import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecutionInputSchema, ToolInputSchema } from '../schemas/index.js';
import { readJsonLines } from './jsonl.js';
import { parseSealToolsQuery, parseSealToolsTool, type SealToolsExecution } from './seal-tools.js';
import { codeOf, sharedData } from '../../test/helpers.js';

const { dataDir, hasData } = sharedData('the tests on the public data sets');

// Lines copied by hand from tool.jsonl (trimmed).
const analyzeSubstance = {
  api_name: 'analyzeSubstance',
  api_description: 'Analyze a substance for forensic purposes',
  field: 'Chemical Engineering/Forensic engineering',
  parameters: {
    substance: { type: 'str', description: 'The substance to be analyzed (e.g., white powder, unknown liquid)' },
    priority: { type: 'int', description: 'The priority level for analysis (e.g., 1, 2, 3)' },
    battery_level: { type: 'float', description: 'The current battery level', example_values: '0.1, 0.5, 0.9' },
    require_special_char: { type: 'bool', description: 'Whether to add a special character', default: false },
    movement_type: { type: 'str', description: 'Specify the type of movement', choices: ['walk', 'run', 'lift'] },
    payment_method: { type: 'str', description: 'The payment method', examples: ['credit card', 'PayPal'] },
  },
  required: ['substance'],
  responses: { analysis_results: { type: 'str', description: 'The results of the analysis' } },
};

describe('parseSealToolsTool', () => {
  it('turns a tool line into a record: api_name as id, api_description as description and origin seal-tools', () => {
    const tool = parseSealToolsTool(analyzeSubstance);
    expect(tool.id).toBe('analyzeSubstance');
    expect(tool.description).toBe('Analyze a substance for forensic purposes');
    expect(tool.origin).toBe('seal-tools');
  });

  it('builds an inputSchema with JSON types for Python type names and carries choices, defaults and examples', () => {
    expect(parseSealToolsTool(analyzeSubstance).inputSchema).toEqual({
      type: 'object',
      properties: {
        substance: { type: 'string', description: 'The substance to be analyzed (e.g., white powder, unknown liquid)' },
        priority: { type: 'integer', description: 'The priority level for analysis (e.g., 1, 2, 3)' },
        battery_level: { type: 'number', description: 'The current battery level', examples: ['0.1, 0.5, 0.9'] },
        require_special_char: { type: 'boolean', description: 'Whether to add a special character', default: false },
        movement_type: { type: 'string', description: 'Specify the type of movement', enum: ['walk', 'run', 'lift'] },
        payment_method: { type: 'string', description: 'The payment method', examples: ['credit card', 'PayPal'] },
      },
      required: ['substance'],
    });
  });

  it('leaves out required when the tool requires nothing', () => {
    const tool = parseSealToolsTool({
      api_name: 'getTime',
      api_description: 'Get the time',
      parameters: {},
      required: [],
      responses: {},
    });
    expect(tool.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('raises INVALID_INPUT for a line without an api_name or with parameters that are not an object', () => {
    expect(codeOf(() => parseSealToolsTool({ api_description: 'nameless' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseSealToolsTool({ api_name: 'x', parameters: ['a'] }))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseSealToolsTool('analyzeSubstance'))).toBe('INVALID_INPUT');
  });
});

// Lines copied by hand from dev.jsonl and test_in_domain.jsonl (trimmed).
const easy = {
  id: 'dev-easy-0',
  query: 'Retrieve information about the number of nurses in a specific country.',
  calling: [
    {
      api: 'getHealthWorkforce',
      parameters: { location: 'country', occupation: 'nurses' },
      responses: ['API_call_0', 'API_call_1', 'API_call_2'],
    },
  ],
};
const difficult = {
  id: 'test_in_domain-difficult-237',
  query: "Create a new IT project called 'Project Nexus', add a task, and remove Michael Johnson from the project.",
  calling: [
    { api: 'createITProject', parameters: { name: 'Project Nexus', department: 'HR' }, responses: ['API_call_0'] },
    {
      api: 'addTask',
      parameters: { project_id: 'API_call_0', task_name: 'Clean the house' },
      responses: ['API_call_1'],
    },
    {
      api: 'removeProjectMember',
      parameters: { project_id: 'API_call_0', member_name: 'Michael Johnson' },
      responses: ['API_call_2'],
    },
  ],
};

describe('parseSealToolsQuery', () => {
  it('makes the query the intent, each calling entry a success, and keeps the id as queryId', () => {
    expect(parseSealToolsQuery(easy)).toEqual({
      queryId: 'dev-easy-0',
      intent: 'Retrieve information about the number of nurses in a specific country.',
      calls: [{ tool: 'getHealthWorkforce', status: 'success', consumes: [] }],
    });
  });

  it('makes a parameter whose value is "API_call_k" consume the call whose responses hold slot k', () => {
    const execution = parseSealToolsQuery(difficult);
    expect(execution.calls.map((c) => [c.tool, c.consumes])).toEqual([
      ['createITProject', []],
      ['addTask', [0]],
      ['removeProjectMember', [0]],
    ]);
  });

  it('numbers slots across the whole query, so a call producing several slots is found by any of them', () => {
    const query = {
      id: 'q',
      query: 'x',
      calling: [
        { api: 'a', parameters: {}, responses: ['API_call_0', 'API_call_1', 'API_call_2'] },
        { api: 'b', parameters: {}, responses: ['API_call_3', 'API_call_4'] },
        { api: 'c', parameters: { from_a: 'API_call_2', from_b: 'API_call_4' }, responses: ['API_call_5'] },
        { api: 'd', parameters: { p: 'API_call_1' }, responses: ['API_call_6'] },
      ],
    };
    expect(parseSealToolsQuery(query).calls.map((c) => c.consumes)).toEqual([[], [], [0, 1], [0]]);
  });

  it('finds references contained in text, in lists and nested objects, and ignores numbers and booleans', () => {
    // dev-difficult-207 writes "API_call_0 response".
    const query = {
      id: 'q',
      query: 'x',
      calling: [
        { api: 'a', parameters: {}, responses: ['API_call_0'] },
        { api: 'b', parameters: { n: 12, flag: true }, responses: ['API_call_1'] },
        {
          api: 'c',
          parameters: {
            text: 'API_call_0 response',
            ids: [1, 2, 'API_call_1'],
            deep: { x: [{ y: 'see API_call_1' }] },
          },
          responses: [],
        },
      ],
    };
    expect(parseSealToolsQuery(query).calls[2]?.consumes).toEqual([0, 1]);
  });

  it('gives consumes sorted and unique', () => {
    const query = {
      id: 'q',
      query: 'x',
      calling: [
        { api: 'a', parameters: {}, responses: ['API_call_0'] },
        { api: 'b', parameters: {}, responses: ['API_call_1'] },
        { api: 'c', parameters: { p: 'API_call_1', q: 'API_call_0', r: 'API_call_1 and API_call_0' }, responses: [] },
      ],
    };
    expect(parseSealToolsQuery(query).calls[2]?.consumes).toEqual([0, 1]);
  });

  it('drops a reference to a slot no earlier call produces: unknown, its own, or a later call', () => {
    const query = {
      id: 'q',
      query: 'x',
      calling: [
        { api: 'a', parameters: { later: 'API_call_1' }, responses: ['API_call_0'] },
        {
          api: 'b',
          parameters: { own: 'API_call_1', unknown: 'API_call_9', fine: 'API_call_0' },
          responses: ['API_call_1'],
        },
      ],
    };
    expect(parseSealToolsQuery(query).calls.map((c) => c.consumes)).toEqual([[], [0]]);
  });

  it('uses the 0-based line number as queryId when the line has no id', () => {
    const { id: _id, ...noId } = easy;
    expect(parseSealToolsQuery(noId, 41).queryId).toBe('41');
    expect(parseSealToolsQuery(easy, 41).queryId).toBe('dev-easy-0');
  });

  it('raises INVALID_INPUT for a malformed line, or one without id when no line number is given', () => {
    const { id: _id, ...noId } = easy;
    expect(codeOf(() => parseSealToolsQuery(noId))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseSealToolsQuery({ id: 'q', query: 'x' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseSealToolsQuery({ id: 'q', query: 'x', calling: [{ parameters: {} }] }))).toBe(
      'INVALID_INPUT',
    );
    expect(codeOf(() => parseSealToolsQuery(null, 0))).toBe('INVALID_INPUT');
  });
});

function readLines(name: string): { line: number; value: unknown }[] {
  const { values, errors } = readJsonLines(readFileSync(join(dataDir, 'seal-tools', name), 'utf8'));
  expect(errors).toEqual([]);
  return values;
}

function checkExecutions(executions: readonly SealToolsExecution[]): { links: number; single: number } {
  let links = 0;
  for (const execution of executions) {
    const { queryId, ...line } = execution;
    expect(ExecutionInputSchema.safeParse({ id: queryId, ...line }).success).toBe(true);
    execution.calls.forEach((call, i) => {
      const consumes = call.consumes ?? [];
      links += consumes.length;
      for (const j of consumes) expect(j).toBeLessThan(i);
      expect(consumes).toEqual([...new Set(consumes)].sort((a, b) => a - b));
    });
  }
  return { links, single: executions.filter((e) => e.calls.length === 1).length };
}

describe.skipIf(!hasData)('Seal-Tools public data (../shared/data/seal-tools)', () => {
  it('parses tool.jsonl to 4,076 tools with unique ids', () => {
    const tools = readLines('tool.jsonl').map(({ value }) => parseSealToolsTool(value));
    expect(tools).toHaveLength(4076);
    expect(new Set(tools.map((t) => t.id)).size).toBe(4076);
    for (const tool of tools) expect(ToolInputSchema.safeParse(tool).success).toBe(true);
  });

  for (const [file, prefix, links] of [
    ['dev.jsonl', 'dev-', 34],
    ['test_in_domain.jsonl', 'test_in_domain-', 38],
  ] as const) {
    it(`parses ${file} to 700 executions, 200 of them single-call, consuming only earlier calls`, () => {
      const executions = readLines(file).map(({ line, value }) => parseSealToolsQuery(value, line - 1));
      expect(executions).toHaveLength(700);
      expect(new Set(executions.map((e) => e.queryId)).size).toBe(700);
      expect(executions.every((e) => e.queryId.startsWith(prefix))).toBe(true);
      const stats = checkExecutions(executions);
      expect(stats.single).toBe(200);
      expect(stats.links).toBe(links);
    });
  }

  it('uses only tools the catalogue has', () => {
    const catalogue = new Set(readLines('tool.jsonl').map(({ value }) => parseSealToolsTool(value).id));
    for (const file of ['dev.jsonl', 'test_in_domain.jsonl']) {
      const executions = readLines(file).map(({ line, value }) => parseSealToolsQuery(value, line - 1));
      expect(executions.flatMap((e) => e.calls).filter((c) => !catalogue.has(c.tool))).toEqual([]);
    }
  });
});
