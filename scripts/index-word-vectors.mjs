#!/usr/bin/env node
/**
 * Stores the hash index of data/word-vectors.bin after its vocabulary (header `index`), so a process reads it
 * instead of building it over 100,000 words at each start (issue 20). The vectors and the vocabulary stay the same
 * bytes; nothing is downloaded. Run after `npm run build` (it uses the reader's own code, dist/src/embed/word-table):
 *
 *     node scripts/index-word-vectors.mjs [table.bin]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const path = process.argv[2] ?? join(root, 'data', 'word-vectors.bin');
const { withStoredIndex } = await import(join(root, 'dist', 'src', 'embed', 'word-table.js'));
const before = readFileSync(path);
const after = withStoredIndex(before, path);
writeFileSync(path, after);
process.stdout.write(
  `${path}: ${before.length.toLocaleString('en-US')} -> ${after.length.toLocaleString('en-US')} bytes\n`,
);
