import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../test/helpers.js';
import { defaultWordTablePath, loadWordTable, parseWordTable, withStoredIndex } from './word-table.js';
import { sentenceEmbedding, wordVectorProvider } from './word-vectors.js';

/** A table file in the layout of scripts/build-word-vectors.mjs, from int8 rows. */
function tableBytes(words: string[], rows: number[][], extra: Record<string, unknown> = {}): Buffer {
  const dimension = rows[0]?.length ?? 0;
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const header = {
    format: 1,
    model: 'tiny-test',
    count: words.length,
    dimension,
    scale: 0.5,
    sourceWords: 1000,
    vocabBytes: vocab.length,
    quantisation: { scheme: 'int8, one global scale', cosineError: { mean: 0, p99: 0, max: 0 } },
    ...extra,
  };
  let json = Buffer.from(JSON.stringify(header), 'utf8');
  json = Buffer.concat([json, Buffer.alloc(Math.ceil((12 + json.length) / 4) * 4 - 12 - json.length, 0x20)]);
  const prefix = Buffer.alloc(12);
  prefix.write('CRDWVEC1', 0, 'latin1');
  prefix.writeUInt32LE(json.length, 8);
  return Buffer.concat([prefix, json, Buffer.from(Int8Array.from(rows.flat()).buffer), vocab]);
}

const words = ['the', 'hôtel', 'web', 'search', 'café', 'file'];
const rows = [
  [1, 1, 0],
  [0, 5, 0],
  [4, 0, 0],
  [0, 0, 3],
  [0, 2, 2],
  [-3, 0, 1],
];
const dir = mkdtempSync(join(tmpdir(), 'credence-wt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseWordTable', () => {
  it('finds every word, multi-byte UTF-8 ones too, at its own row', () => {
    const table = parseWordTable(tableBytes(words, rows), 'tiny.bin');
    expect(table).toMatchObject({ model: 'tiny-test', dimension: 3, count: 6 });
    words.forEach((word, row) => {
      expect(table.row(word)).toBe(row);
      expect(table.word(row)).toBe(word);
    });
    expect(Array.from(table.vectors.subarray(3, 6))).toEqual([0, 5, 0]);
    expect(table.row('hotel')).toBeUndefined();
    expect(table.row('cafés')).toBeUndefined();
    expect(table.row('a much longer word than any in the table')).toBeUndefined();
    expect(codeOf(() => table.word(6))).toBe('INVALID_INPUT');
  });

  it.each([
    ['a file without the signature', Buffer.from('hello world, not a table')],
    ['a truncated file', tableBytes(words, rows).subarray(0, 100)],
    [
      'a header that is not JSON',
      Buffer.concat([Buffer.from('CRDWVEC1'), Buffer.from([4, 0, 0, 0]), Buffer.from('{{{{')]),
    ],
    ['a vocabulary with fewer words than rows', tableBytes(words.slice(0, 5), rows, { count: 6 })],
    [
      'a common direction of the wrong length',
      tableBytes(words, rows, { commonDirection: { sifA: 0.001, vector: [1, 0] } }),
    ],
  ])('refuses %s with PROVIDER_UNAVAILABLE', (_, bytes) => {
    expect(codeOf(() => parseWordTable(bytes, 'bad.bin'))).toBe('PROVIDER_UNAVAILABLE');
  });

  it.each([
    ['format 2', { format: 2 }, 'format'],
    ['an empty model', { model: '' }, 'model'],
    ['a count that is not an integer', { count: 5.5 }, 'count'],
    ['a negative dimension', { dimension: -3 }, 'dimension'],
    ['a scale of zero', { scale: 0 }, 'scale'],
    ['no quantisation', { quantisation: undefined }, 'quantisation'],
    ['a cosine error without its p99', { quantisation: { scheme: 's', cosineError: { mean: 0, max: 0 } } }, 'p99'],
    ['a common direction with a string in it', { commonDirection: { sifA: 0.001, vector: [1, '0', 0] } }, 'vector'],
    ['an index of zero slots', { index: { slots: 0, maxBytes: 6 } }, 'index.slots'],
    ['a header that is an array', null, 'header'],
  ])('refuses a header with %s, naming the field', (_, extra, field) => {
    const bytes =
      extra === null
        ? Buffer.concat([Buffer.from('CRDWVEC1'), Buffer.from([4, 0, 0, 0]), Buffer.from('[1] ')])
        : tableBytes(words, rows, extra);
    let message = '';
    try {
      parseWordTable(bytes, 'bad.bin');
    } catch (error) {
      message = (error as Error).message;
      expect(codeOf(() => parseWordTable(bytes, 'bad.bin'))).toBe('PROVIDER_UNAVAILABLE');
    }
    expect(message).toContain('unreadable header');
    expect(message).toContain(field);
  });

  it('keeps the header fields it does not read', () => {
    const table = parseWordTable(tableBytes(words, rows, { builtBy: 'a test' }), 'tiny.bin');
    expect(table.header.builtBy).toBe('a test');
  });
});

describe('the hash index stored in the file (issue 20)', () => {
  const probes = [...words, 'hotel', 'cafés', 'a much longer word than any in the table', '', 'th', 'webs', 'fil'];
  const answers = (table: ReturnType<typeof parseWordTable>) =>
    probes.map((w) => table.row(w)).concat(words.map((_, row) => table.word(row)) as never[]);

  it('answers as the index built at load, with the same vectors, and is read instead of built', () => {
    const plain = tableBytes(words, rows);
    const indexed = withStoredIndex(plain, 'tiny.bin');
    const built = parseWordTable(plain, 'tiny.bin');
    const read = parseWordTable(indexed, 'tiny.bin');
    expect(read.header.index).toBeDefined();
    expect(answers(read)).toEqual(answers(built));
    expect(Array.from(read.vectors)).toEqual(Array.from(built.vectors));
    // Indexing an indexed table gives the same bytes; at an odd offset (no aligned view) the same answers.
    expect(withStoredIndex(indexed, 'tiny.bin').equals(indexed)).toBe(true);
    const odd = Buffer.concat([Buffer.alloc(1), indexed]).subarray(1);
    expect(answers(parseWordTable(odd, 'tiny.bin'))).toEqual(answers(built));
  });

  it('builds the index when the stored one is cut short; a damaged one misses words, never names a wrong row', () => {
    const indexed = withStoredIndex(tableBytes(words, rows), 'tiny.bin');
    const truncated = indexed.subarray(0, indexed.length - 4);
    expect(answers(parseWordTable(truncated, 'tiny.bin'))).toEqual(answers(parseWordTable(indexed, 'tiny.bin')));
    const slots = (parseWordTable(indexed, 'tiny.bin').header.index as { slots: number }).slots;
    // No empty slot left (every probe would go round), rows out of range, and every slot naming row 0.
    for (const fill of [0x7f, 0x00]) {
      const damaged = Buffer.from(indexed);
      damaged.fill(fill, damaged.length - 4 * slots);
      const table = parseWordTable(damaged, 'tiny.bin');
      for (const probe of probes) {
        const row = table.row(probe);
        expect(row === undefined || table.word(row) === probe).toBe(true);
      }
    }
  });

  it('a file with its index answers as its bytes do, its vectors read row by row and then whole', () => {
    // More rows than a table reads one at a time (2,048): the rows past it come from the vectors read whole.
    const n = 2600;
    const many = Array.from({ length: n }, (_, r) => `w${r}${r % 3 === 0 ? 'é' : ''}`);
    const vectors = Array.from({ length: n }, (_, r) => [r % 127, 56 - (r % 113), ((r * 7) % 255) - 127]);
    const bytes = withStoredIndex(tableBytes(many, vectors), 'many.bin');
    const path = join(dir, 'many.bin');
    writeFileSync(path, bytes);
    const whole = parseWordTable(bytes, 'many.bin');
    const file = loadWordTable(path);
    expect(file.header).toEqual(whole.header);
    for (let row = 0; row < n; row += 1) {
      expect(file.row(many[row] as string)).toBe(row);
      expect(Array.from(file.rowVector(row))).toEqual(vectors[row]);
    }
    expect(Array.from(file.vectors)).toEqual(Array.from(whole.vectors));
    expect(file.word(n - 1)).toBe(whole.word(n - 1));
    expect(codeOf(() => file.rowVector(n))).toBe('INVALID_INPUT');
    expect(sentenceEmbedding(file, 'w1 w2 w3é w2599')).toEqual(sentenceEmbedding(whole, 'w1 w2 w3é w2599'));
  });

  it('a file cut short after it was opened fails as an unavailable provider when a row is read', () => {
    const bytes = withStoredIndex(tableBytes(words, rows), 'cut.bin');
    const path = join(dir, 'cut.bin');
    writeFileSync(path, bytes);
    const table = loadWordTable(path);
    // The vectors come first: cutting the file at the header's end leaves none to read.
    writeFileSync(path, bytes.subarray(0, 12 + bytes.readUInt32LE(8)));
    expect(codeOf(() => table.rowVector(2))).toBe('PROVIDER_UNAVAILABLE');
  });

  it('the shipped table holds its index, and it finds each of its words at its row', () => {
    const table = loadWordTable(defaultWordTablePath());
    expect(table.header.index).toBeDefined();
    for (let row = 0; row < table.count; row += 997) expect(table.row(table.word(row))).toBe(row);
  });
});

describe('a word-vector provider over another table', () => {
  const path = join(dir, 'tiny.bin');
  writeFileSync(path, tableBytes(words, rows));

  it('takes its model and dimension from the table header', () => {
    const provider = wordVectorProvider({ path });
    expect(provider.model).toBe('tiny-test');
    expect(provider.dimension).toBe(3);
  });

  it('weighs each word by SIF, removes the common direction and normalises', () => {
    const table = loadWordTable(path);
    const rank = (row: number) => 1 / ((row + 1) * (Math.log(1000) + 0.5772156649015329));
    const weight = (row: number) => 1e-3 / (1e-3 + rank(row));
    const sum = [0, 1, 2].map((j) => weight(1) * (rows[1]?.[j] ?? 0) + weight(5) * (rows[5]?.[j] ?? 0));
    const c = [0, 1, 2].map((j) => rows.reduce((acc, row, r) => acc + weight(r) * rank(r) * (row[j] ?? 0), 0));
    const cn = Math.hypot(...c);
    const proj = sum.reduce((acc, x, j) => acc + (x * (c[j] ?? 0)) / cn, 0);
    const out = sum.map((x, j) => x - (proj * (c[j] ?? 0)) / cn);
    const n = Math.hypot(...out);
    const v = sentenceEmbedding(table, 'Hôtel FILE');
    out.forEach((x, j) => expect(v[j]).toBeCloseTo(x / n, 5));
  });
});
