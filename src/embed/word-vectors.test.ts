import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCredenceError } from '../core/errors.js';
import { cosine } from './vector.js';
import { defaultWordTablePath, loadWordTable } from './word-table.js';
import {
  commonDirection,
  computeCommonDirection,
  sentenceEmbedding,
  sifWeight,
  WORD_VECTOR_DIMENSION,
  WORD_VECTOR_MODEL,
  wordVectorProvider,
} from './word-vectors.js';

const provider = wordVectorProvider();
const embedOne = async (text: string): Promise<Float32Array> => (await provider.embed([text]))[0] as Float32Array;
const similarity = async (a: string, b: string): Promise<number> => cosine(await embedOne(a), await embedOne(b));
const norm = (v: Float32Array): number => Math.hypot(...v);

async function rejectionCode(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return isCredenceError(error) ? error.code : 'not a CredenceError';
  }
}

const dir = mkdtempSync(join(tmpdir(), 'credence-wv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the shipped word-vector table', () => {
  const table = loadWordTable();

  it('holds ~100k words of 100 dimensions in GloVe frequency order, under 12.5 MB with its hash index', () => {
    expect(table.model).toBe(WORD_VECTOR_MODEL);
    expect(table.dimension).toBe(WORD_VECTOR_DIMENSION);
    expect(table.count).toBeGreaterThanOrEqual(100_000);
    expect(table.count).toBeLessThan(101_000);
    expect([0, 1, 2, 3, 4].map((row) => table.word(row))).toEqual(['the', 'of', 'to', 'and', 'in']);
    // ~10.8 MB of vectors and words, ~1.4 MB of stored index (word starts, 2^18 slots: issue 20).
    expect(statSync(defaultWordTablePath()).size).toBeLessThan(12_500_000);
  });

  it('was quantised to int8 with a cosine error to the float vectors below 1e-3 on average and 5e-3 at worst', () => {
    const { cosineError } = table.header.quantisation;
    expect(cosineError.mean).toBeLessThan(1e-3);
    expect(cosineError.max).toBeLessThan(5e-3);
  });

  it('uses the whole int8 range under its one global scale', () => {
    let max = 0;
    for (const q of table.vectors) max = Math.max(max, Math.abs(q));
    expect(max).toBe(127);
  });

  it('finds every word at its own row, and no row for words it does not have', () => {
    for (let row = 0; row < table.count; row += 997) expect(table.row(table.word(row))).toBe(row);
    expect(table.row(table.word(table.count - 1))).toBe(table.count - 1);
    expect(table.row('xqzvjk')).toBeUndefined();
    expect(table.row('')).toBeUndefined();
    expect(table.row('Hotel')).toBeUndefined();
    expect(table.row('hotel')).toBeLessThan(5_000);
  });

  it('keeps computing words that rank below the top 100,000: json, sqlite', () => {
    expect(table.row('json')).toBeGreaterThanOrEqual(100_000);
    expect(table.row('sqlite')).toBeDefined();
  });

  it('stores the common direction the provider would compute from its rows', () => {
    const stored = table.header.commonDirection;
    expect(stored?.sifA).toBe(1e-3);
    const computed = computeCommonDirection(table);
    (stored?.vector ?? []).forEach((x, j) => expect(x).toBeCloseTo(computed[j] as number, 9));
    expect(commonDirection(table)).toEqual(Float64Array.from(stored?.vector ?? []));
  });

  it('is read once per process: a second load returns the same table', () => {
    expect(loadWordTable()).toBe(table);
  });
});

describe('sifWeight', () => {
  it('weighs frequent words down and rare words near 1 (a = 1e-3, Zipf p)', () => {
    const n = 341_479;
    expect(sifWeight(1, n)).toBeLessThan(0.02);
    expect(sifWeight(100, n)).toBeGreaterThan(0.5);
    expect(sifWeight(100, n)).toBeLessThan(0.65);
    expect(sifWeight(1_000, n)).toBeGreaterThan(0.9);
    expect(sifWeight(100_000, n)).toBeGreaterThan(0.999);
    for (let rank = 1; rank < 100_000; rank *= 3) expect(sifWeight(rank * 3, n)).toBeGreaterThan(sifWeight(rank, n));
  });
});

describe('wordVectorProvider', () => {
  it('knows its model and dimension before the first embed', () => {
    expect(provider.provider).toBe('word-vectors');
    expect(provider.model).toBe('glove-100d-int8-100k');
    expect(provider.dimension).toBe(100);
  });

  it('gives one unit-length vector per text, in the order of the texts', async () => {
    const texts = ['book a hotel room', 'read a file from disk', 'search flights to London'];
    const together = await provider.embed(texts);
    expect(together).toHaveLength(3);
    for (const [i, text] of texts.entries()) {
      expect(norm(together[i] as Float32Array)).toBeCloseTo(1, 5);
      expect(Array.from(together[i] as Float32Array)).toEqual(Array.from(await embedOne(text)));
    }
  });

  it('is deterministic across calls and provider instances', async () => {
    const again = await wordVectorProvider().embed(['Translate a document into French']);
    expect(Array.from(again[0] as Float32Array)).toEqual(
      Array.from(await embedOne('Translate a document into French')),
    );
  });

  it('gives the zero vector for an empty text, stop words only, and words it does not know', async () => {
    const vectors = await provider.embed(['', '   ', 'the of and', 'xqzvjk wqpfzz']);
    for (const v of vectors) {
      expect(v).toHaveLength(100);
      expect(norm(v)).toBe(0);
    }
  });

  it('skips unknown words and keeps the known ones', async () => {
    expect(Array.from(await embedOne('weather xqzvjk forecast'))).toEqual(
      Array.from(await embedOne('weather forecast')),
    );
  });

  it('splits tool ids into words: SkyScrapperSearchAirport is close to "search airport sky scanner"', async () => {
    const close = await similarity('SkyScrapperSearchAirport', 'search airport sky scanner');
    expect(close).toBeGreaterThan(0.6);
    expect(close).toBeGreaterThan(await similarity('SkyScrapperSearchAirport', 'read a file from disk'));
    expect(Array.from(await embedOne('filesystem:read_text_file'))).toEqual(
      Array.from(await embedOne('filesystem read text file')),
    );
    expect(Array.from(await embedOne('get-user.v2'))).toEqual(Array.from(await embedOne('get user v2')));
  });

  it('reads a word it does not know as a compound of two it knows: websearch is web search', async () => {
    expect(Array.from(await embedOne('websearch'))).toEqual(Array.from(await embedOne('web search')));
  });

  it('puts related sentences closer than unrelated ones', async () => {
    const related = await similarity('read a file from disk', 'load file contents');
    expect(related).toBeGreaterThan(await similarity('read a file from disk', 'book a hotel room'));
    expect(await similarity('find flights to London', 'search airline tickets')).toBeGreaterThan(
      await similarity('find flights to London', 'delete a git branch'),
    );
    expect(await similarity('filesystem:read_text_file', 'Read the deno.json file')).toBeGreaterThan(
      await similarity('filesystem:read_text_file', 'book a hotel room'),
    );
  });

  it('removes the common direction of running text from every embedding', () => {
    const table = loadWordTable();
    const c = commonDirection(table);
    expect(Math.hypot(...c)).toBeCloseTo(1, 9);
    const v = sentenceEmbedding(table, 'Retrieve the list of available hotel rooms');
    let projection = 0;
    for (let j = 0; j < v.length; j += 1) projection += (v[j] as number) * (c[j] as number);
    expect(Math.abs(projection)).toBeLessThan(1e-6);
  });

  it('fails with PROVIDER_UNAVAILABLE, not a zero vector, when its table file is missing', async () => {
    const missing = wordVectorProvider({ path: join(dir, 'no-such-table.bin') });
    expect(missing.dimension).toBeUndefined();
    expect(await rejectionCode(missing.embed(['hello']))).toBe('PROVIDER_UNAVAILABLE');
  });

  it('fails with PROVIDER_UNAVAILABLE naming the file when the file is not a table', async () => {
    const path = join(dir, 'garbage.bin');
    writeFileSync(path, 'CRDWVEC1 this is not a table');
    try {
      await wordVectorProvider({ path }).embed(['hello']);
      expect.unreachable();
    } catch (error) {
      expect(isCredenceError(error, 'PROVIDER_UNAVAILABLE')).toBe(true);
      expect((error as { details?: { where?: string } }).details?.where).toBe(path);
    }
  });

  it('refuses a SIF smoothing that is not a positive number', () => {
    expect(() => wordVectorProvider({ sifA: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
