import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ollamaProvider } from './ollama.js';
import { openAiEmbeddingsUrl, openAiProvider } from './openai.js';
import { rejection, thrown } from '../../test/helpers.js';
import type { CredenceError } from '../core/errors.js';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; input?: string[] };
}
type Reply = { status?: number; body: string } | 'hang';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((s) => {
      s.closeAllConnections();
      return new Promise<void>((done) => s.close(() => done()));
    }),
  );
});

/** A real HTTP server on 127.0.0.1 (port 0) answering every request with `reply(request)`. */
async function serve(reply: (seen: Seen) => Reply): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const request: Seen = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: raw.length > 0 ? (JSON.parse(raw) as Seen['body']) : {},
      };
      seen.push(request);
      const answer = reply(request);
      if (answer === 'hang') return;
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(answer.body);
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** The deterministic raw vector a fake server gives a text: [length, 1, 2]. */
const rawVector = (text: string): number[] => [text.length, 1, 2];
const ollamaAnswer = (seen: Seen): Reply => ({
  body: JSON.stringify({ model: seen.body.model, embeddings: (seen.body.input ?? []).map(rawVector) }),
});
const openAiAnswer = (seen: Seen): Reply => ({
  body: JSON.stringify({
    object: 'list',
    data: (seen.body.input ?? [])
      .map((t, index) => ({ object: 'embedding', index, embedding: rawVector(t) }))
      .reverse(),
  }),
});

const expectUnit = (v: Float32Array, raw: number[]) => {
  const n = Math.hypot(...raw);
  raw.forEach((x, j) => expect(v[j]).toBeCloseTo(x / n, 6));
};

describe('texts sent to a remote embeddings endpoint', () => {
  // Assembled at run time: the repository holds no token-shaped literal.
  const token = 'gh' + 'p_' + 'Qu3ryTok3nEXAMPLEEXAMPLEEXAMPLE0042';
  const query = `why does deploy fail with GH_TOKEN=${token}`;

  it('are scrubbed before they leave the machine, for both providers (a query is never stored first)', async () => {
    const ollama = await serve(ollamaAnswer);
    await ollamaProvider({ url: ollama.url, model: 'm' }).embed([query, 'plain words']);
    const openai = await serve(openAiAnswer);
    await openAiProvider({ url: `${openai.url}/v1`, model: 'm', apiKey: 'k' }).embed([query]);
    for (const seen of [...ollama.seen, ...openai.seen]) {
      expect(JSON.stringify(seen.body)).not.toContain(token);
      expect(seen.body.input?.[0]).toBe('why does deploy fail with GH_TOKEN=[REDACTED:github-token]');
    }
    expect(ollama.seen[0]?.body.input?.[1]).toBe('plain words');
  });
});

describe('ollamaProvider', () => {
  it('posts {model, input} to /api/embed and returns normalised vectors in order', async () => {
    const server = await serve(ollamaAnswer);
    const provider = ollamaProvider({ url: server.url, model: 'nomic-embed-text' });
    expect(provider.dimension).toBeUndefined();
    const vectors = await provider.embed(['alpha', 'be']);
    expect(server.seen).toMatchObject([
      { method: 'POST', path: '/api/embed', body: { model: 'nomic-embed-text', input: ['alpha', 'be'] } },
    ]);
    expectUnit(vectors[0] as Float32Array, rawVector('alpha'));
    expectUnit(vectors[1] as Float32Array, rawVector('be'));
    expect(provider.dimension).toBe(3);
    expect(provider.model).toBe('nomic-embed-text');
  });

  it('sends large inputs in batches and keeps the order', async () => {
    const server = await serve(ollamaAnswer);
    const texts = Array.from({ length: 150 }, (_, i) => 'x'.repeat(i + 1));
    const vectors = await ollamaProvider({ url: `${server.url}/`, model: 'm' }).embed(texts);
    expect(server.seen.map((s) => s.body.input?.length)).toEqual([64, 64, 22]);
    expect(server.seen.every((s) => s.path === '/api/embed')).toBe(true);
    vectors.forEach((v, i) => expectUnit(v, rawVector(texts[i] as string)));
  });

  it('gives blank texts zero vectors without sending them', async () => {
    const server = await serve(ollamaAnswer);
    const provider = ollamaProvider({ url: server.url, model: 'm', batchSize: 2 });
    const vectors = await provider.embed(['', 'one', '  ']);
    expect(server.seen.map((s) => s.body.input)).toEqual([['one']]);
    expect(Array.from(vectors[0] as Float32Array)).toEqual([0, 0, 0]);
    expect(Array.from(vectors[2] as Float32Array)).toEqual([0, 0, 0]);
  });

  it('learns the dimension with one probe when it is asked only blank texts first', async () => {
    const server = await serve(ollamaAnswer);
    const vectors = await ollamaProvider({ url: server.url, model: 'm' }).embed(['']);
    expect(server.seen).toHaveLength(1);
    expect(Array.from(vectors[0] as Float32Array)).toEqual([0, 0, 0]);
  });

  it('is PROVIDER_UNAVAILABLE naming the url and the server message on an error status', async () => {
    const server = await serve(() => ({
      status: 404,
      body: JSON.stringify({ error: 'model "m" not found, try pulling it first' }),
    }));
    const error = await rejection(ollamaProvider({ url: server.url, model: 'm' }).embed(['hi']));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.details?.where).toBe(`${server.url}/api/embed`);
    expect(error.message).toContain('not found');
  });

  it('is PROVIDER_UNAVAILABLE when nothing listens on the port (connection refused)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const error = await rejection(ollamaProvider({ url, model: 'm' }).embed(['hi']));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.details?.where).toBe(`${url}/api/embed`);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('is PROVIDER_UNAVAILABLE when the server does not answer within the timeout', async () => {
    const server = await serve(() => 'hang');
    expect((await rejection(ollamaProvider({ url: server.url, model: 'm', timeoutMs: 100 }).embed(['hi']))).code).toBe(
      'PROVIDER_UNAVAILABLE',
    );
  });

  it.each([
    ['a body that is not JSON', 'not json at all'],
    ['a body of the wrong shape', JSON.stringify({ embeddings: 'nope' })],
    ['too few embeddings', JSON.stringify({ embeddings: [[1, 2]] })],
    ['an empty embedding', JSON.stringify({ embeddings: [[], []] })],
    [
      'embeddings of two dimensions',
      JSON.stringify({
        embeddings: [
          [1, 2],
          [1, 2, 3],
        ],
      }),
    ],
  ])('is PROVIDER_UNAVAILABLE for %s', async (_, body) => {
    const server = await serve(() => ({ body }));
    expect((await rejection(ollamaProvider({ url: server.url, model: 'm' }).embed(['a', 'b']))).code).toBe(
      'PROVIDER_UNAVAILABLE',
    );
  });

  it('is PROVIDER_UNAVAILABLE when a later answer changes the dimension', async () => {
    let calls = 0;
    const server = await serve((seen) => ({
      body: JSON.stringify({ embeddings: (seen.body.input ?? []).map(() => (calls === 0 ? [1, 2, 3] : [1, 2])) }),
    }));
    const provider = ollamaProvider({ url: server.url, model: 'm' });
    await provider.embed(['a']);
    calls += 1;
    expect((await rejection(provider.embed(['b']))).code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('refuses a timeout or batch size that is not positive', () => {
    expect(() => ollamaProvider({ model: 'm', timeoutMs: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    expect(() => ollamaProvider({ model: 'm', batchSize: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});

describe('openAiProvider', () => {
  it('adds /v1/embeddings to a base url, without doubling a /v1 it already has', () => {
    expect(openAiEmbeddingsUrl('http://localhost:1234').url).toBe('http://localhost:1234/v1/embeddings');
    expect(openAiEmbeddingsUrl('http://localhost:1234/v1').url).toBe('http://localhost:1234/v1/embeddings');
    expect(openAiEmbeddingsUrl('https://api.example.com/v1/').url).toBe('https://api.example.com/v1/embeddings');
  });

  it('adds the path before a query of the base url, and shows the url with its secret query values hidden', () => {
    expect(openAiEmbeddingsUrl('http://h:9/v1?api_key=plainsecretvalue&v=2')).toEqual({
      url: 'http://h:9/v1/embeddings?api_key=plainsecretvalue&v=2',
      shown: 'http://h:9/v1/embeddings?api_key=***&v=2',
    });
  });

  it('sends a query of the base url, and no message names its secret values, even echoed by the server', async () => {
    const server = await serve((seen) => ({ status: 500, body: JSON.stringify({ error: `bad ${seen.path}` }) }));
    const error = await rejection(
      openAiProvider({ url: `${server.url}/v1?api_key=plainsecretvalue`, model: 'm' }).embed(['hi']),
    );
    expect(server.seen[0]?.path).toBe('/v1/embeddings?api_key=plainsecretvalue');
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toContain(`at ${server.url}/v1/embeddings?api_key=***: HTTP 500`);
    expect(`${error.message} ${JSON.stringify(error.details)}`).not.toContain('plainsecretvalue');
    const closed = `http://127.0.0.1:${await closedPort()}/v1?token=plainsecretvalue`;
    const refused = await rejection(ollamaProvider({ url: closed, model: 'm' }).embed(['hi']));
    expect(refused.code).toBe('PROVIDER_UNAVAILABLE');
    expect(`${refused.message} ${JSON.stringify(refused.details)}`).not.toContain('plainsecretvalue');
  });

  // Review C (walk 7): a token given as the user name, or a percent-encoded user:password, was printed whole.
  it('refuses a base url holding a user name, a password or both, naming it with the whole user part hidden', () => {
    for (const make of [
      () => openAiProvider({ url: 'http://alice:hunter2@127.0.0.1:9/v1', model: 'm' }),
      () => ollamaProvider({ url: 'http://alice:hunter2@127.0.0.1:9', model: 'm' }),
      () => openAiProvider({ url: 'https://ghp_hunter2@127.0.0.1:9/v1', model: 'm' }),
      () => openAiProvider({ url: 'http://alice%3Ahunter2@127.0.0.1:9/v1', model: 'm' }),
      () => ollamaProvider({ url: 'http://:hunter2@127.0.0.1:9', model: 'm' }),
    ]) {
      const error = thrown(make) as CredenceError;
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.message).toContain('url must not hold a user name or password');
      expect(error.message).toMatch(/http(s)?:\/\/\*\*\*@127\.0\.0\.1:9/);
      expect(`${error.message} ${JSON.stringify(error.details)}`).not.toMatch(/hunter2|alice/);
    }
  });

  it('sends no fragment and shows none, and hides every query value but a version or model', async () => {
    expect(openAiEmbeddingsUrl('http://h:9/v1?auth=plainsecret&api-version=2024&model=m#key=fragsecret')).toEqual({
      url: 'http://h:9/v1/embeddings?auth=plainsecret&api-version=2024&model=m',
      shown: 'http://h:9/v1/embeddings?auth=***&api-version=2024&model=m',
    });
    const closed = `http://127.0.0.1:${await closedPort()}/v1?sig=plainsecret#key=fragsecret`;
    const refused = await rejection(openAiProvider({ url: closed, model: 'm' }).embed(['hi']));
    expect(refused.code).toBe('PROVIDER_UNAVAILABLE');
    expect(refused.message).toContain('/v1/embeddings?sig=***:');
    expect(`${refused.message} ${JSON.stringify(refused.details)}`).not.toMatch(/plainsecret|fragsecret|#/);
  });

  it('posts {model, input} with the bearer key and puts the answer back in input order by index', async () => {
    const server = await serve(openAiAnswer);
    const provider = openAiProvider({
      url: `${server.url}/v1`,
      model: 'text-embedding-3-small',
      apiKey: 'sk-test-123',
    });
    const vectors = await provider.embed(['one', 'three', 'seventeen']);
    expect(server.seen).toMatchObject([
      {
        method: 'POST',
        path: '/v1/embeddings',
        body: { model: 'text-embedding-3-small', input: ['one', 'three', 'seventeen'] },
      },
    ]);
    expect(server.seen[0]?.headers.authorization).toBe('Bearer sk-test-123');
    vectors.forEach((v, i) => expectUnit(v, rawVector(['one', 'three', 'seventeen'][i] as string)));
    expect(provider.dimension).toBe(3);
  });

  it('sends no Authorization header without a key, and batches large inputs', async () => {
    const server = await serve(openAiAnswer);
    const texts = Array.from({ length: 70 }, (_, i) => `text ${i}`);
    const vectors = await openAiProvider({ url: server.url, model: 'm' }).embed(texts);
    expect(server.seen.map((s) => [s.path, s.headers.authorization, s.body.input?.length])).toEqual([
      ['/v1/embeddings', undefined, 64],
      ['/v1/embeddings', undefined, 6],
    ]);
    vectors.forEach((v, i) => expectUnit(v, rawVector(texts[i] as string)));
  });

  it('never puts the API key in an error message, even when the server echoes it', async () => {
    const server = await serve(() => ({
      status: 401,
      body: JSON.stringify({
        error: { message: 'Incorrect API key provided: sk-secret-42.', type: 'invalid_request_error' },
      }),
    }));
    const error = await rejection(
      openAiProvider({ url: server.url, model: 'm', apiKey: 'sk-secret-42' }).embed(['hi']),
    );
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toContain('401');
    expect(error.message).not.toContain('sk-secret-42');
    expect(JSON.stringify(error.details)).not.toContain('sk-secret-42');
  });

  it('is PROVIDER_UNAVAILABLE when nothing listens on the port', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const error = await rejection(openAiProvider({ url, model: 'm', apiKey: 'sk-secret-42' }).embed(['hi']));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.details?.where).toBe(`${url}/v1/embeddings`);
    expect(error.message).not.toContain('sk-secret-42');
  });

  it.each([
    ['a body that is not JSON', '<html>bad gateway</html>'],
    ['a body without data', JSON.stringify({ object: 'list' })],
    [
      'a repeated index',
      JSON.stringify({
        data: [
          { index: 0, embedding: [1] },
          { index: 0, embedding: [2] },
        ],
      }),
    ],
    [
      'an index out of range',
      JSON.stringify({
        data: [
          { index: 0, embedding: [1] },
          { index: 5, embedding: [2] },
        ],
      }),
    ],
    ['too few embeddings', JSON.stringify({ data: [{ index: 0, embedding: [1] }] })],
  ])('is PROVIDER_UNAVAILABLE for %s', async (_, body) => {
    const server = await serve(() => ({ body }));
    expect((await rejection(openAiProvider({ url: server.url, model: 'm' }).embed(['a', 'b']))).code).toBe(
      'PROVIDER_UNAVAILABLE',
    );
  });
});
