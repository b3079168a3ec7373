/**
 * @module embed/checked
 * A provider given from outside (`openCredence({ embedder })`) with what its `embed` gives checked, so that a
 * mistake in it is a CredenceError PROVIDER_UNAVAILABLE naming what is wrong, not a TypeError deep in search: a
 * throw of any value (a string, a CredenceError of another code too; kept as the cause), not an array, one vector
 * per text, Float32Arrays, the declared dimension (one length for all while none is declared), finite numbers.
 */
import { type CredenceError, isCredenceError } from '../core/errors.js';
import { describeError, providerUnavailable } from './errors.js';
import type { EmbeddingProvider } from './types.js';
import { shownValue } from '../schemas/format.js';

/** What a vector is, for a message: an object by its class (`a Float64Array`), else as shownValue shows it. */
const vectorKind = (value: unknown): string => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return shownValue(value);
  const name: string = value.constructor?.name ?? 'object';
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
};

/** `provider` with every `embed` answer checked; its name, model and dimension read through. */
export function checkedEmbedder(provider: EmbeddingProvider): EmbeddingProvider {
  const where = `the embedder given to Credence (model ${JSON.stringify(provider.model)})`;
  const wrong = (reason: string, cause?: unknown): CredenceError =>
    providerUnavailable(provider.provider, where, reason, cause);
  let seen: number | undefined;

  const check = (texts: readonly string[], vectors: unknown): Float32Array[] => {
    if (!Array.isArray(vectors))
      throw wrong(`embed must resolve to an array of Float32Array, got ${vectorKind(vectors)}`);
    if (vectors.length !== texts.length)
      throw wrong(`embed was given ${texts.length} text(s) and returned ${vectors.length} vector(s)`);
    const declared = provider.dimension;
    vectors.forEach((vector: unknown, i) => {
      if (!(vector instanceof Float32Array)) {
        throw wrong(`vector ${i} is ${vectorKind(vector)}, not a Float32Array (Float32Array.from(numbers) makes one)`);
      }
      const expected = declared ?? seen;
      if (expected !== undefined && vector.length !== expected) {
        const against = declared === undefined ? 'an earlier one had' : 'the provider declares dimension';
        throw wrong(`vector ${i} has ${vector.length} numbers, but ${against} ${expected}`);
      }
      if (!vector.every(Number.isFinite)) throw wrong(`vector ${i} holds a number that is not finite (NaN, Infinity)`);
      seen ??= vector.length;
    });
    return vectors as Float32Array[];
  };

  return {
    get provider() {
      return provider.provider;
    },
    get model() {
      return provider.model;
    },
    get dimension() {
      return provider.dimension;
    },
    async embed(texts) {
      let vectors: unknown;
      try {
        vectors = await provider.embed(texts);
      } catch (error) {
        // Its own CredenceError too (NOT_FOUND would read as a missing record): one of Credence's providers given as
        // the embedder already says PROVIDER_UNAVAILABLE, naming its URL.
        if (isCredenceError(error, 'PROVIDER_UNAVAILABLE')) throw error;
        throw wrong(`embed failed: ${describeError(error)}`, error);
      }
      return check(texts, vectors);
    },
  };
}
