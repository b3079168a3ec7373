/**
 * @module embed/batch
 * The `embed` of a model-backed provider (transformers, Ollama, OpenAI-compatible) around a function
 * that embeds one batch: batches sent one after another, every vector checked (count, finite numbers,
 * one dimension for the provider's lifetime) and L2-normalised, blank texts given zero vectors
 * without asking the model (when no dimension is known yet, one probe request learns it).
 */
import { providerUnavailable } from './errors.js';
import type { EmbeddingProviderName } from './types.js';
import { l2Normalize } from './vector.js';

/** A text that embeds to the zero vector without asking the provider. */
export const isBlank = (text: string): boolean => text.trim().length === 0;

const PROBE_TEXT = 'dimension probe';

export interface BatchedEmbedder {
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** The dimension of every vector so far; undefined before the first answer. */
  dimension(): number | undefined;
}

/**
 * @param input.where the url or folder, for error messages.
 * @param input.request embeds one batch of non-blank texts; raw vectors in order.
 */
export function batchedEmbedder(input: {
  provider: EmbeddingProviderName;
  where: string;
  batchSize: number;
  request: (batch: readonly string[]) => Promise<readonly ArrayLike<number>[]>;
}): BatchedEmbedder {
  const { provider, where, batchSize, request } = input;
  let dimension: number | undefined;

  const checked = async (batch: readonly string[]): Promise<Float32Array[]> => {
    const raw = await request(batch);
    if (raw.length !== batch.length)
      throw providerUnavailable(provider, where, `asked for ${batch.length} embeddings, got ${raw.length}`);
    return raw.map((vector, i) => {
      if (vector.length === 0) throw providerUnavailable(provider, where, `embedding ${i} of the batch is empty`);
      if (dimension !== undefined && vector.length !== dimension) {
        throw providerUnavailable(
          provider,
          where,
          `inconsistent dimension: expected ${dimension}, got ${vector.length} (embedding ${i} of the batch)`,
        );
      }
      const out = Float32Array.from(vector);
      if (!out.every((x) => Number.isFinite(x)))
        throw providerUnavailable(provider, where, `embedding ${i} of the batch has a non-finite number`);
      dimension = vector.length;
      return l2Normalize(out);
    });
  };

  return {
    dimension: () => dimension,
    async embed(texts: readonly string[]): Promise<Float32Array[]> {
      const wanted = texts.map((text, i) => ({ text, i })).filter(({ text }) => !isBlank(text));
      const out = new Array<Float32Array | undefined>(texts.length);
      for (let start = 0; start < wanted.length; start += batchSize) {
        const slice = wanted.slice(start, start + batchSize);
        const vectors = await checked(slice.map(({ text }) => text));
        slice.forEach(({ i }, k) => (out[i] = vectors[k]));
      }
      if (wanted.length < texts.length && dimension === undefined) await checked([PROBE_TEXT]);
      return Array.from(out, (v) => v ?? new Float32Array(dimension ?? 0));
    },
  };
}
