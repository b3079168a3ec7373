import { describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../../test/helpers.js';
import { CredenceError } from '../core/errors.js';
import { createEmbeddingProvider, embeddingKey, resolveEmbeddingConfig, resolveEmbeddingKey } from './config.js';
import type { EmbeddingProvider } from './types.js';

/** The field a config error names (its `details` key). */
function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof CredenceError && error.code === 'INVALID_INPUT') return Object.keys(error.details ?? {})[0];
    throw error;
  }
  return undefined;
}

describe('resolveEmbeddingConfig', () => {
  it('defaults to the offline word vectors', () => {
    expect(resolveEmbeddingConfig({})).toEqual({ provider: 'word-vectors' });
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'word-vectors' }, {})).toEqual({ provider: 'word-vectors' });
  });

  it('reads ollama:<model> and the server URL from the environment', () => {
    expect(
      resolveEmbeddingConfig({
        CREDENCE_EMBEDDINGS: 'ollama:nomic-embed-text',
        CREDENCE_EMBEDDINGS_URL: 'http://gpu-box:11434',
      }),
    ).toEqual({
      provider: 'ollama',
      model: 'nomic-embed-text',
      url: 'http://gpu-box:11434',
    });
  });

  it('keeps everything after the first colon: a model tag, a folder', () => {
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama:bge-m3:latest' }).model).toBe('bge-m3:latest');
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'transformers:/models/all-MiniLM-L6-v2' })).toEqual({
      provider: 'transformers',
      folder: '/models/all-MiniLM-L6-v2',
    });
  });

  it('takes the openai key from CREDENCE_EMBEDDINGS_KEY, then the file, then OPENAI_API_KEY', () => {
    const spec = { CREDENCE_EMBEDDINGS: 'openai:text-embedding-3-small' };
    const file = { embeddings: { provider: 'openai', model: 'x', apiKey: 'from-file' } };
    expect(resolveEmbeddingConfig({ ...spec, OPENAI_API_KEY: 'from-openai' }).apiKey).toBe('from-openai');
    expect(resolveEmbeddingConfig({ ...spec, OPENAI_API_KEY: 'from-openai' }, file).apiKey).toBe('from-file');
    expect(
      resolveEmbeddingConfig({ ...spec, OPENAI_API_KEY: 'from-openai', CREDENCE_EMBEDDINGS_KEY: 'from-credence' }, file)
        .apiKey,
    ).toBe('from-credence');
    expect(
      resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama:m', OPENAI_API_KEY: 'from-openai' }).apiKey,
    ).toBeUndefined();
  });

  it('reads the config file when the environment names no provider, the environment URL and key still winning', () => {
    const file = {
      store: { path: 'x.db' },
      embeddings: { provider: 'openai', model: 'bge', url: 'http://file-host/v1', apiKey: 'k1' },
    };
    expect(resolveEmbeddingConfig({}, file)).toEqual({
      provider: 'openai',
      model: 'bge',
      url: 'http://file-host/v1',
      apiKey: 'k1',
    });
    expect(
      resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS_URL: 'http://env-host', CREDENCE_EMBEDDINGS_KEY: 'k2' }, file),
    ).toEqual({
      provider: 'openai',
      model: 'bge',
      url: 'http://env-host',
      apiKey: 'k2',
    });
  });

  it('lets the environment provider win over the file, keeping the file settings only for the same provider', () => {
    const file = { embeddings: { provider: 'ollama', model: 'from-file', url: 'http://file-host:11434' } };
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama:from-env' }, file)).toEqual({
      provider: 'ollama',
      model: 'from-env',
      url: 'http://file-host:11434',
    });
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama' }, file)).toEqual({
      provider: 'ollama',
      model: 'from-file',
      url: 'http://file-host:11434',
    });
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'openai:small' }, file)).toEqual({
      provider: 'openai',
      model: 'small',
    });
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'word-vectors' }, file)).toEqual({ provider: 'word-vectors' });
  });

  it('refuses bad configuration with INVALID_INPUT naming the variable or field', () => {
    expect(fieldOf(() => resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'bert:base' }))).toBe('CREDENCE_EMBEDDINGS');
    expect(fieldOf(() => resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama' }))).toBe('CREDENCE_EMBEDDINGS');
    expect(fieldOf(() => resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'transformers' }))).toBe('CREDENCE_EMBEDDINGS');
    expect(fieldOf(() => resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'word-vectors:big' }))).toBe(
      'CREDENCE_EMBEDDINGS',
    );
    expect(
      fieldOf(() => resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama:m', CREDENCE_EMBEDDINGS_URL: 'ftp://host' })),
    ).toBe('CREDENCE_EMBEDDINGS_URL');
    expect(fieldOf(() => resolveEmbeddingConfig({}, { embeddings: { provider: 'bert' } }))).toBe('embeddings.provider');
    expect(
      fieldOf(() => resolveEmbeddingConfig({}, { embeddings: { provider: 'ollama', url: 'not a url', model: 'm' } })),
    ).toBe('embeddings.url');
    expect(fieldOf(() => resolveEmbeddingConfig({}, { embeddings: { provider: 'ollama', modle: 'm' } }))).toBe(
      'embeddings',
    );
    expect(fieldOf(() => resolveEmbeddingConfig({}, { embeddings: { provider: 'ollama' } }))).toBe('embeddings.model');
    expect(fieldOf(() => resolveEmbeddingConfig({}, { embeddings: { provider: 'transformers' } }))).toBe(
      'embeddings.folder',
    );
    expect(fieldOf(() => resolveEmbeddingConfig({}, 'embeddings: ollama'))).toBe('config file');
    expect(fieldOf(() => resolveEmbeddingConfig({}, ['embeddings']))).toBe('config file');
    expect(fieldOf(() => resolveEmbeddingConfig({}, 0))).toBe('config file');
    expect(fieldOf(() => resolveEmbeddingConfig({}, { embeddings: null }))).toBe('embeddings');
  });

  it('refuses a URL holding a user name or password, from the environment or a file, never printing it', () => {
    const messages = [
      () =>
        resolveEmbeddingConfig({
          CREDENCE_EMBEDDINGS: 'openai:m',
          CREDENCE_EMBEDDINGS_URL: 'http://alice:hunter2@127.0.0.1:9/v1',
        }),
      () =>
        resolveEmbeddingConfig({}, { embeddings: { provider: 'openai', model: 'm', url: 'http://al:hunter2@h/v1' } }),
      () => resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama:m', CREDENCE_EMBEDDINGS_URL: 'ftp://u:hunter2@h' }),
      // Review C (walk 7): a token as the user name, and a percent-encoded user:password, were printed whole.
      () =>
        resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'openai:m', CREDENCE_EMBEDDINGS_URL: 'https://hunter2@h/v1' }),
      () =>
        resolveEmbeddingConfig({}, { embeddings: { provider: 'openai', model: 'm', url: 'http://a%3Ahunter2@h/v1' } }),
    ].map((fn) => {
      expect(fieldOf(fn)).toMatch(/^(CREDENCE_EMBEDDINGS_URL|embeddings\.url)$/);
      const error = thrown(fn) as CredenceError;
      return `${error.message} ${JSON.stringify(error.details)}`;
    });
    expect(messages[0]).toContain('must not hold a user name or password');
    expect(messages[0]).toContain('http://***@127.0.0.1:9/v1');
    expect(messages[3]).toContain('https://***@h/v1');
    for (const message of messages) expect(message).not.toMatch(/hunter2|alice/);
  });

  it('takes a config file without an embeddings section as the default, other keys and all', () => {
    expect(resolveEmbeddingConfig({}, { scope: 'x', hooks: { stop: false } })).toEqual({ provider: 'word-vectors' });
    expect(resolveEmbeddingConfig({}, { embeddings: undefined })).toEqual({ provider: 'word-vectors' });
    expect(resolveEmbeddingConfig({ CREDENCE_EMBEDDINGS: 'ollama:m' }, { other: 1 })).toEqual({
      provider: 'ollama',
      model: 'm',
    });
  });

  it('never prints an API key in a configuration error', () => {
    try {
      resolveEmbeddingConfig(
        {},
        { embeddings: { provider: 'openai', model: 'm', apiKey: 'sk-secret-42', colour: 'blue' } },
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(CredenceError);
      expect(JSON.stringify([(error as CredenceError).message, (error as CredenceError).details])).not.toContain(
        'sk-secret-42',
      );
    }
  });
});

describe('createEmbeddingProvider', () => {
  it('makes the provider the configuration names, contacting nothing yet', () => {
    expect(createEmbeddingProvider({ provider: 'word-vectors' })).toMatchObject({
      provider: 'word-vectors',
      model: 'glove-100d-int8-100k',
      dimension: 100,
    });
    expect(createEmbeddingProvider({ provider: 'ollama', model: 'nomic-embed-text' })).toMatchObject({
      provider: 'ollama',
      model: 'nomic-embed-text',
      dimension: undefined,
    });
    expect(createEmbeddingProvider({ provider: 'openai', model: 'text-embedding-3-small', apiKey: 'k' })).toMatchObject(
      { provider: 'openai', model: 'text-embedding-3-small' },
    );
    expect(createEmbeddingProvider({ provider: 'transformers', folder: '/models/all-MiniLM-L6-v2' })).toMatchObject({
      provider: 'transformers',
      model: 'all-MiniLM-L6-v2',
    });
  });

  it('refuses a configuration missing what its provider needs', () => {
    expect(codeOf(() => createEmbeddingProvider({ provider: 'ollama' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => createEmbeddingProvider({ provider: 'transformers' }))).toBe('INVALID_INPUT');
  });
});

describe('embeddingKey', () => {
  it('is provider:model:dimension', () => {
    expect(embeddingKey(createEmbeddingProvider({ provider: 'word-vectors' }))).toBe(
      'word-vectors:glove-100d-int8-100k:100',
    );
  });

  it('is not made up before a remote provider has told its dimension; resolveEmbeddingKey asks once', async () => {
    let dimension: number | undefined;
    const asked: string[][] = [];
    const fake: EmbeddingProvider = {
      provider: 'ollama',
      model: 'm',
      get dimension() {
        return dimension;
      },
      async embed(texts) {
        asked.push([...texts]);
        dimension = 4;
        return texts.map(() => new Float32Array(4));
      },
    };
    expect(codeOf(() => embeddingKey(fake))).toBe('PROVIDER_UNAVAILABLE');
    expect(await resolveEmbeddingKey(fake)).toBe('ollama:m:4');
    expect(await resolveEmbeddingKey(fake)).toBe('ollama:m:4');
    expect(asked).toHaveLength(1);
  });
});
