/**
 * @module embed/openai
 * Embeddings from any OpenAI-compatible server (OpenAI, LM Studio, vLLM, llama.cpp, LocalAI, …):
 * `POST {url}/v1/embeddings {model, input: [texts]}` with `Authorization: Bearer <key>` when a key is
 * given → `{data: [{embedding, index}]}`, put back in input order by `index`. A url that already
 * ends in `/v1` is not doubled. The key never appears in an error message.
 */
import { z } from 'zod';
import { providerUnavailable } from './errors.js';
import { batchedEmbedder } from './batch.js';
import { postJson, remoteUrl, resolveRemoteOptions, type RemoteOptions, type RemoteUrl } from './http.js';
import type { EmbeddingProvider } from './types.js';

export const OPENAI_DEFAULTS = Object.freeze({
  /** OpenAI's own API. */
  url: 'https://api.openai.com/v1',
});

export const OpenAiEmbeddingsResponseSchema = z.object({
  data: z.array(z.object({ embedding: z.array(z.number()), index: z.number().int().nonnegative() })),
});

export interface OpenAiOptions extends RemoteOptions {
  /** Base URL, with or without the trailing `/v1`. @default 'https://api.openai.com/v1' */
  readonly url?: string;
  /** Model name, e.g. `text-embedding-3-small`. */
  readonly model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given. */
  readonly apiKey?: string;
}

/**
 * `{base}/v1/embeddings`, without doubling a `/v1` the base already has; a query of the base is kept after the path.
 * @throws CredenceError INVALID_INPUT naming `url`: not an http(s) URL, or one holding a user name or password.
 */
export function openAiEmbeddingsUrl(base: string): RemoteUrl {
  return remoteUrl(base, 'url', (path) => (/\/v1$/.test(path) ? `${path}/embeddings` : `${path}/v1/embeddings`));
}

/** An OpenAI-compatible provider; nothing is sent until the first `embed`. */
export function openAiProvider(options: OpenAiOptions): EmbeddingProvider {
  const { timeoutMs, batchSize } = resolveRemoteOptions(options);
  const url = openAiEmbeddingsUrl(options.url ?? OPENAI_DEFAULTS.url);
  const { model, apiKey } = options;
  const embedder = batchedEmbedder({
    provider: 'openai',
    where: url.shown,
    batchSize,
    request: async (batch) => {
      const { data } = await postJson({
        provider: 'openai',
        url,
        body: { model, input: batch },
        schema: OpenAiEmbeddingsResponseSchema,
        apiKey,
        timeoutMs,
      });
      const byIndex = new Array<readonly number[] | undefined>(batch.length);
      for (const item of data) {
        if (item.index >= batch.length || byIndex[item.index] !== undefined) {
          throw providerUnavailable(
            'openai',
            url.shown,
            `embedding index ${item.index} is out of range or repeated for a batch of ${batch.length}`,
          );
        }
        byIndex[item.index] = item.embedding;
      }
      if (data.length !== batch.length) return data.map((item) => item.embedding);
      return byIndex.map((v) => v ?? []);
    },
  });
  return {
    provider: 'openai',
    model,
    get dimension() {
      return embedder.dimension();
    },
    embed: (texts) => embedder.embed(texts),
  };
}
