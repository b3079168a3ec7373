import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExecutionInputSchema, ToolInputSchema } from '../schemas/index.js';
import { parseNestfulData, parseNestfulSpec, type NestfulExecution } from './nestful.js';
import { codeOf, sharedData } from '../../test/helpers.js';

const { dataDir, hasData } = sharedData('the tests on the public data sets');

// Shapes copied by hand from the three spec files (trimmed).
const executableApi = {
  name: 'SkyScrapperFlightSearch',
  description: 'Retrieves available flights for a given route using Skyscrapper API.',
  method: 'GET',
  host: 'sky-scrapper.p.rapidapi.com',
  query_parameters: {
    originSkyId: { type: 'string', description: 'The originSkyId code.', required: true },
    cabinClass: { type: 'string', description: 'Cabin class.', enum: ['economy', 'business'], required: false },
    adults: { type: 'number', description: 'Adults: 12+ years.', required: false },
  },
  output_parameters: { data: { type: 'object' } },
};
const oddlyTypedApi = {
  name: 'Real-Time_Product_Search_Search',
  description: 'Product search.',
  query_parameters: {
    sort_by: {
      type: 'Enum',
      description: 'Sort offers.',
      default: 'BEST_MATCH',
      allowed_values: ['BEST_MATCH', 'TOP_RATED'],
      required: false,
    },
    page: {
      type: 'Number',
      description: 'Results page to return.',
      default: 1,
      allowed_values: '1-100',
      required: false,
    },
    dt: { type: 'Date (yyyy-mm-dd)', description: 'Specific date.', required: false },
    amount: { type: 'Number', description: 'Minimum number.', optional: true },
  },
  path_parameters: { location: { type: 'String', description: 'ISO 3166-2 location code.', required: true } },
};
const glaiveApi = {
  name: 'search_recipes',
  description: 'Search for recipes based on ingredients',
  parameters: {
    ingredients: { type: 'array', required: true, items: { type: 'string' }, description: 'Ingredients to search for' },
  },
  output_parameters: { recipes: { type: 'array' } },
};
const sgdApi = {
  name: 'Buses.FindBus',
  description: 'Find a bus itinerary between cities for a given date',
  arguments: {
    origin: { description: 'Origin city for journey', required: true, allowed_values: [] },
    fare_type: {
      description: 'Type of fare',
      required: false,
      default_value: 'Economy',
      allowed_values: ['Economy', 'Flexible'],
    },
  },
  output_parameters: { origin: { description: 'Origin city', possible_values: [] } },
};

describe('parseNestfulSpec', () => {
  it('turns an executable API into a tool whose inputSchema lists its query parameters and the required ones', () => {
    const [tool] = parseNestfulSpec([executableApi], 'nestful:executable');
    expect(tool).toEqual({
      id: 'SkyScrapperFlightSearch',
      description: 'Retrieves available flights for a given route using Skyscrapper API.',
      origin: 'nestful:executable',
      inputSchema: {
        type: 'object',
        properties: {
          originSkyId: { type: 'string', description: 'The originSkyId code.' },
          cabinClass: { type: 'string', description: 'Cabin class.', enum: ['economy', 'business'] },
          adults: { type: 'number', description: 'Adults: 12+ years.' },
        },
        required: ['originSkyId'],
      },
    });
  });

  it('normalises type spellings, reads a range text as min and max, treats optional parameters as not required', () => {
    const [tool] = parseNestfulSpec([oddlyTypedApi]);
    expect(tool?.origin).toBe('nestful');
    expect(tool?.inputSchema).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'ISO 3166-2 location code.' },
        sort_by: {
          type: 'string',
          description: 'Sort offers.',
          enum: ['BEST_MATCH', 'TOP_RATED'],
          default: 'BEST_MATCH',
        },
        page: { type: 'number', minimum: 1, maximum: 100, description: 'Results page to return.', default: 1 },
        dt: { type: 'string', format: 'date', description: 'Specific date.' },
        amount: { type: 'number', description: 'Minimum number.' },
      },
      required: ['location'],
    });
  });

  it('reads glaive parameters with their items and untyped sgd arguments, taking default_value as the default', () => {
    const tools = parseNestfulSpec([glaiveApi, sgdApi]);
    expect(tools[0]?.inputSchema).toEqual({
      type: 'object',
      properties: {
        ingredients: { type: 'array', description: 'Ingredients to search for', items: { type: 'string' } },
      },
      required: ['ingredients'],
    });
    expect(tools[1]?.inputSchema).toEqual({
      type: 'object',
      properties: {
        origin: { description: 'Origin city for journey' },
        fare_type: { description: 'Type of fare', enum: ['Economy', 'Flexible'], default: 'Economy' },
      },
      required: ['origin'],
    });
  });

  it('keeps an API listed twice only once, the first time', () => {
    const tools = parseNestfulSpec([glaiveApi, { ...glaiveApi, description: 'again' }, sgdApi]);
    expect(tools.map((t) => [t.id, t.description])).toEqual([
      ['search_recipes', 'Search for recipes based on ingredients'],
      ['Buses.FindBus', 'Find a bus itinerary between cities for a given date'],
    ]);
  });

  it('leaves out required when no parameter is required', () => {
    const [tool] = parseNestfulSpec([{ name: 'get_random_joke', description: 'Get a random joke', parameters: {} }]);
    expect(tool?.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('raises INVALID_INPUT for a document that is not an array or an API without a name', () => {
    expect(codeOf(() => parseNestfulSpec({ name: 'x' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseNestfulSpec([executableApi, { description: 'no name' }]))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseNestfulSpec([{ name: 'x', query_parameters: { a: { required: 'yes' } } }]))).toBe(
      'INVALID_INPUT',
    );
  });
});

// A sample copied by hand from executable-data.json (sample 0).
const flightsAndHotels = {
  input: 'Find flights from New York to London and find hotels in London.',
  output: [
    { name: 'SkyScrapperSearchAirport', arguments: { query: 'New York' }, label: 'var1' },
    { name: 'SkyScrapperSearchAirport', arguments: { query: 'London' }, label: 'var2' },
    {
      name: 'SkyScrapperFlightSearch',
      arguments: {
        originSkyId: '$var1.skyId$',
        destinationSkyId: '$var2.skyId$',
        originEntityId: '$var1.entityId$',
        destinationEntityId: '$var2.entityId$',
        date: '2024-08-15',
      },
      label: 'var3',
    },
    { name: 'TripadvisorSearchLocation', arguments: { query: 'London' }, label: 'var4' },
    { name: 'TripadvisorSearchHotels', arguments: { geoId: '$var4.geoId$', checkIn: '2024-08-15' }, label: 'var5' },
    { name: 'var_result', arguments: { flights: '$var3$', hotels: '$var5$' } },
  ],
};

describe('parseNestfulData', () => {
  it('makes the input the intent, every call a success, and $varN.field$ references consumes of labelled calls', () => {
    const { executions, problems } = parseNestfulData([flightsAndHotels]);
    expect(problems).toEqual([]);
    expect(executions).toEqual([
      {
        sampleId: '0',
        intent: 'Find flights from New York to London and find hotels in London.',
        calls: [
          { tool: 'SkyScrapperSearchAirport', status: 'success', consumes: [] },
          { tool: 'SkyScrapperSearchAirport', status: 'success', consumes: [] },
          { tool: 'SkyScrapperFlightSearch', status: 'success', consumes: [0, 1] },
          { tool: 'TripadvisorSearchLocation', status: 'success', consumes: [] },
          { tool: 'TripadvisorSearchHotels', status: 'success', consumes: [3] },
        ],
      },
    ]);
  });

  it('drops the var_result pseudo-call and ignores its references, even to labels nobody carries', () => {
    const sample = {
      input: 'Get a joke',
      output: [
        { name: 'get_random_joke', arguments: {}, label: 'var1' },
        { name: 'var_result', arguments: { joke: '$var1$', missing: '$var4$' } },
      ],
    };
    const { executions, problems } = parseNestfulData([sample]);
    expect(executions[0]?.calls.map((c) => c.tool)).toEqual(['get_random_joke']);
    expect(problems).toEqual([]);
  });

  it('finds references inside text, in arrays and nested objects, with fields holding spaces or brackets', () => {
    const sample = {
      input: 'x',
      output: [
        { name: 'a', arguments: {}, label: 'var1' },
        { name: 'b', arguments: {}, label: 'var2' },
        { name: 'c', arguments: {}, label: 'var3' },
        {
          name: 'd',
          arguments: {
            expression: '5 * $var1.Exchange Rate$',
            list: ['plain', '$var3.results[0].id$'],
            nested: { deeper: [{ text: 'Meeting ID: $var2.event_id$ and $var1$' }] },
            price: '$100-$200',
            count: 3,
          },
          label: 'var4',
        },
      ],
    };
    const { executions, problems } = parseNestfulData([sample]);
    expect(problems).toEqual([]);
    expect(executions[0]?.calls[3]?.consumes).toEqual([0, 1, 2]);
  });

  it('gives consumes sorted and unique when a call reads the same calls many times in any order', () => {
    const sample = {
      input: 'x',
      output: [
        { name: 'a', arguments: {}, label: 'var1' },
        { name: 'b', arguments: {}, label: 'var2' },
        {
          name: 'c',
          arguments: { p: '$var2.x$', q: '$var1.y$', r: '$var2.z$', s: '$var1.localtime$ - $var2.localtime$' },
          label: 'var3',
        },
      ],
    };
    expect(parseNestfulData([sample]).executions[0]?.calls[2]?.consumes).toEqual([0, 1]);
  });

  it('resolves a label given twice to the nearest earlier call carrying it', () => {
    // non-executable-sgd-data.json sample 18: calls 1 and 2 are both labelled var2.
    const sample = {
      input: 'Find movie times and buy a ticket.',
      output: [
        { name: 'Movies.FindMovies', arguments: { location: 'San Francisco' }, label: 'var1' },
        { name: 'Movies.GetTimesForMovie', arguments: { movie_name: '$var1.movie_name$' }, label: 'var2' },
        {
          name: 'Movies.BuyMovieTickets',
          arguments: { movie_name: '$var1.movie_name$', show_time: '$var2.show_time$' },
          label: 'var2',
        },
        { name: 'var_result', arguments: { movie_times: '$var2$', movie_tickets: '$var3$' } },
      ],
    };
    const { executions, problems } = parseNestfulData([sample]);
    expect(problems).toEqual([]);
    expect(executions[0]?.calls.map((c) => c.consumes)).toEqual([[], [0], [0, 1]]);
  });

  it('reports a reference to an unknown label with the sample index and drops that consume', () => {
    const sample = {
      input: 'x',
      output: [
        { name: 'a', arguments: {}, label: 'var1' },
        { name: 'b', arguments: { p: '$var1.x$', q: '$var7.y$' }, label: 'var2' },
      ],
    };
    const { executions, problems } = parseNestfulData([flightsAndHotels, sample]);
    expect(executions[1]?.calls[1]?.consumes).toEqual([0]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.sample).toBe(1);
    expect(problems[0]?.reason).toContain('var7');
  });

  it('reports a reference to a later or its own label and drops that consume', () => {
    const sample = {
      input: 'x',
      output: [
        { name: 'a', arguments: { p: '$var2.x$' }, label: 'var1' },
        { name: 'b', arguments: { q: '$var2.y$' }, label: 'var2' },
      ],
    };
    const { executions, problems } = parseNestfulData([sample]);
    expect(executions[0]?.calls.map((c) => c.consumes)).toEqual([[], []]);
    expect(problems.map((p) => p.sample)).toEqual([0, 0]);
  });

  it('reads a whole value that lost its leading $ as a reference and reports the repair', () => {
    // executable-data.json sample 21 holds "var1.product_id$".
    const sample = {
      input: 'Get me details for a product.',
      output: [
        { name: 'Real-Time_Product_Search_Search', arguments: { q: 'shoes' }, label: 'var1' },
        {
          name: 'Real-Time_Product_Search_Product_Details',
          arguments: { product_id: 'var1.product_id$' },
          label: 'var2',
        },
      ],
    };
    const { executions, problems } = parseNestfulData([sample]);
    expect(executions[0]?.calls[1]?.consumes).toEqual([0]);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.sample).toBe(0);
  });

  it('skips a malformed sample, reports it, and parses the others', () => {
    const { executions, problems } = parseNestfulData([{ input: 'no output' }, flightsAndHotels], 'nestful-executable');
    expect(executions.map((e) => e.sampleId)).toEqual(['nestful-executable-1']);
    expect(problems.map((p) => p.sample)).toEqual([0]);
  });

  it('raises INVALID_INPUT for a document that is not an array', () => {
    expect(codeOf(() => parseNestfulData({ samples: [] }))).toBe('INVALID_INPUT');
    expect(codeOf(() => parseNestfulData(null))).toBe('INVALID_INPUT');
  });
});

const PARTS = ['executable', 'non-executable-glaive', 'non-executable-sgd'] as const;
const readJson = (name: string): unknown => JSON.parse(readFileSync(join(dataDir, 'nestful', name), 'utf8')) as unknown;

function consumesPair(executions: readonly NestfulExecution[], consumer: string, producer: string): boolean {
  return executions.some((e) =>
    e.calls.some((c) => c.tool === consumer && (c.consumes ?? []).some((j) => e.calls[j]?.tool === producer)),
  );
}

describe.skipIf(!hasData)('NESTFUL public data (../shared/data/nestful)', () => {
  const specs = hasData ? PARTS.map((part) => parseNestfulSpec(readJson(`${part}-spec.json`), `nestful:${part}`)) : [];
  const raw = hasData ? PARTS.map((part) => readJson(`${part}-data.json`) as unknown[]) : [];
  const parsed = hasData ? PARTS.map((part, i) => parseNestfulData(raw[i], `nestful-${part}`)) : [];
  const executions = parsed.flatMap((p) => p.executions);

  it('parses the three specs to tools with unique ids, also across specs', () => {
    const tools = specs.flat();
    expect(specs.map((s) => s.length)).toEqual([39, 64, 30]);
    expect(new Set(tools.map((t) => t.id)).size).toBe(tools.length);
    for (const tool of tools) expect(ToolInputSchema.safeParse(tool).success).toBe(true);
  });

  it('parses every data sample into an execution `credence record` accepts', () => {
    expect(parsed.map((p) => p.executions.length)).toEqual(raw.map((r) => r.length));
    expect(executions).toHaveLength(300);
    for (const { sampleId, ...execution } of executions)
      expect(ExecutionInputSchema.safeParse({ id: sampleId, ...execution }).success).toBe(true);
    expect(new Set(executions.map((e) => e.sampleId)).size).toBe(300);
  });

  it('leaves no var_result call anywhere', () => {
    expect(executions.some((e) => e.calls.some((c) => c.tool === 'var_result'))).toBe(false);
  });

  it('links consumes only to earlier calls, sorted and unique, and has some links', () => {
    let links = 0;
    for (const execution of executions) {
      execution.calls.forEach((call, i) => {
        const consumes = call.consumes ?? [];
        links += consumes.length;
        for (const j of consumes) expect(j).toBeLessThan(i);
        expect(consumes).toEqual([...new Set(consumes)].sort((a, b) => a - b));
      });
    }
    expect(links).toBeGreaterThan(0);
    expect(links).toBe(376);
  });

  it('has the flight search consume the airport search and the hotel search consume the location search', () => {
    expect(consumesPair(executions, 'SkyScrapperFlightSearch', 'SkyScrapperSearchAirport')).toBe(true);
    expect(consumesPair(executions, 'TripadvisorSearchHotels', 'TripadvisorSearchLocation')).toBe(true);
  });

  it('reports only the one upstream reference that lost its leading $ (executable sample 21)', () => {
    expect(parsed.map((p) => p.problems.map((q) => q.sample))).toEqual([[21], [], []]);
  });
});
