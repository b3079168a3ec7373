/**
 * Walk 7, item 9: a custom `embedder` answering wrongly gave a TypeError deep in search (one vector too few: reading
 * 'buffer'; number[] vectors: ERR_INVALID_ARG_TYPE), a string it threw came up bare, and vectors of another length than
 * the declared dimension were used silently. Each is now PROVIDER_UNAVAILABLE naming what is wrong.
 */
import { describe, expect, it } from 'vitest';
import { CredenceError, isCredenceError } from '../core/errors.js';
import { checkedEmbedder } from '../embed/checked.js';
import type { EmbeddingProvider } from '../embed/index.js';
import { openCredence } from './engine.js';

const D = 8;
const vector = (text: string): Float32Array => {
  const v = new Float32Array(D);
  for (const ch of text) v[ch.charCodeAt(0) % D] = (v[ch.charCodeAt(0) % D] ?? 0) + 1;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
};
const embedder = (embed: (texts: readonly string[]) => Promise<unknown>): EmbeddingProvider => ({
  provider: 'openai',
  model: 'custom',
  dimension: D,
  embed: embed as EmbeddingProvider['embed'],
});

/** What a search and a recall over an engine with `embed` reject with: code and message, or 'resolved'. */
async function failures(embed: (texts: readonly string[]) => Promise<unknown>): Promise<string[]> {
  const credence = await openCredence({ db: ':memory:', scope: 'e', embedder: embedder(embed) });
  await credence.addTools([{ id: 'search', description: 'search the web' }]);
  await credence.remember([{ title: 'Deploy', text: 'deploy target is eu-west-1' }]);
  const out: string[] = [];
  for (const call of [() => credence.searchTools('web page', { track: false }), () => credence.recall('deploy')]) {
    try {
      await call();
      out.push('resolved');
    } catch (error) {
      out.push(isCredenceError(error) ? `${error.code}: ${error.message}` : `${typeof error}: ${String(error)}`);
    }
  }
  await credence.close();
  return out;
}

describe('a custom embedder that answers wrongly', () => {
  it.each([
    ['one vector too few', async (t: readonly string[]) => t.slice(1).map(vector), /given 1 text\(s\) and returned 0/],
    [
      'number[] vectors',
      async (t: readonly string[]) => t.map((x) => Array.from(vector(x))),
      /vector 0 is an array, not a Float32Array/,
    ],
    [
      'vectors of 3 numbers from a provider declaring 8',
      async (t: readonly string[]) => t.map(() => new Float32Array(3).fill(0.5)),
      /vector 0 has 3 numbers, but the provider declares dimension 8/,
    ],
    [
      'NaN in a vector',
      async (t: readonly string[]) => t.map(() => new Float32Array(D).fill(Number.NaN)),
      /vector 0 holds a number that is not finite/,
    ],
    [
      'a string thrown',
      async () => {
        throw 'boom';
      },
      /embed failed: boom$/,
    ],
  ])('%s: PROVIDER_UNAVAILABLE naming the embedder and what is wrong', async (_, embed, reason) => {
    for (const failure of await failures(embed)) {
      expect(failure).toMatch(/^PROVIDER_UNAVAILABLE: openai embeddings unavailable at the embedder given to Credence/);
      expect(failure).toMatch(reason);
    }
  });

  // Review C (walk 7): a CredenceError it threw passed through, so NOT_FOUND from an embedder read as a missing record.
  it('a CredenceError it throws is PROVIDER_UNAVAILABLE too, the original kept as the cause', async () => {
    const gone = new CredenceError('NOT_FOUND', 'model file gone');
    for (const failure of await failures(async () => Promise.reject(gone))) {
      expect(failure).toMatch(/^PROVIDER_UNAVAILABLE: openai embeddings unavailable at the embedder given to Credence/);
      expect(failure).toMatch(/embed failed: model file gone \(NOT_FOUND\)$/);
    }
    const checked = checkedEmbedder(embedder(async () => Promise.reject(gone)));
    await expect(checked.embed(['x'])).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE', cause: gone });
  });

  it('with no declared dimension, a vector of another length than an earlier one', async () => {
    let length = D;
    const undeclared = checkedEmbedder({
      provider: 'openai',
      model: 'custom',
      dimension: undefined,
      embed: async (t) => t.map(() => new Float32Array(length).fill(0.5)),
    });
    expect((await undeclared.embed(['a'])).map((v) => v.length)).toEqual([D]);
    length = 3;
    await expect(undeclared.embed(['b'])).rejects.toMatchObject({
      code: 'PROVIDER_UNAVAILABLE',
      message: expect.stringMatching(/vector 0 has 3 numbers, but an earlier one had 8$/),
    });
  });

  it('one that answers rightly is used as it is', async () => {
    expect(await failures(async (t) => t.map(vector))).toEqual(['resolved', 'resolved']);
  });
});
