/**
 * @module embed/ollama
 * Embeddings from an Ollama server: `POST {url}/api/embed {model, input: [texts]}` →
 * `{embeddings: number[][]}`, in batches, each vector L2-normalised.
 */
import { z } from 'zod';
import { batchedEmbedder } from './batch.js';
import { postJson, remoteUrl, resolveRemoteOptions, type RemoteOptions } from './http.js';
import type { EmbeddingProvider } from './types.js';

export const OLLAMA_DEFAULTS = Object.freeze({
  /** Where a local Ollama listens. */
  url: 'http://127.0.0.1:11434',
});

export const OllamaEmbedResponseSchema = z.object({ embeddings: z.array(z.array(z.number())) });

export interface OllamaOptions extends RemoteOptions {
  /** Base URL of the server. @default 'http://127.0.0.1:11434' */
  readonly url?: string;
  /** Model name as Ollama knows it, e.g. `nomic-embed-text`. */
  readonly model: string;
}

/** An Ollama provider; nothing is sent until the first `embed`. */
export function ollamaProvider(options: OllamaOptions): EmbeddingProvider {
  const { timeoutMs, batchSize } = resolveRemoteOptions(options);
  const url = remoteUrl(options.url ?? OLLAMA_DEFAULTS.url, 'url', (path) => `${path}/api/embed`);
  const { model } = options;
  const embedder = batchedEmbedder({
    provider: 'ollama',
    where: url.shown,
    batchSize,
    request: async (batch) =>
      (
        await postJson({
          provider: 'ollama',
          url,
          body: { model, input: batch },
          schema: OllamaEmbedResponseSchema,
          timeoutMs,
        })
      ).embeddings,
  });
  return {
    provider: 'ollama',
    model,
    get dimension() {
      return embedder.dimension();
    },
    embed: (texts) => embedder.embed(texts),
  };
}
