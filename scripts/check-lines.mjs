// Line length check for what the formatter cannot wrap (long strings, comments): no line of
// source over 120 characters. Lines that were already over on adoption are counted per file in
// scripts/long-lines.json; a file may not gain any, and the check says when a count can go down.
// Usage: node scripts/check-lines.mjs [--all] [--update]   (--all lists every long line)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX = 120;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'test', 'bench', 'eval', 'scripts', 'bin', 'examples', 'plugin'];
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const SKIP = new Set(['node_modules', 'dist', 'test-output']);
const BASELINE = join(ROOT, 'scripts', 'long-lines.json');

function* sources(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !SKIP.has(entry.name)) yield* sources(path);
    else if (entry.isFile() && SOURCE.test(entry.name)) yield path;
  }
}

/** Every line over MAX characters, per repository path (with forward slashes). */
function longLines() {
  const found = new Map();
  for (const folder of FOLDERS) {
    for (const path of sources(join(ROOT, folder))) {
      const lines = readFileSync(path, 'utf8').split('\n');
      const over = [];
      lines.forEach((line, i) => {
        if ([...line].length > MAX) over.push(i + 1);
      });
      if (over.length > 0) found.set(relative(ROOT, path).split('\\').join('/'), over);
    }
  }
  return found;
}

const args = new Set(process.argv.slice(2));
const found = longLines();
const total = [...found.values()].reduce((sum, lines) => sum + lines.length, 0);
if (args.has('--update')) {
  const counts = Object.fromEntries([...found].map(([file, lines]) => [file, lines.length]));
  writeFileSync(BASELINE, `${JSON.stringify(counts, null, 2)}\n`);
  console.log(`check-lines: ${total} lines over ${MAX} characters in ${found.size} files written to ${BASELINE}`);
  process.exit(0);
}

const baseline = JSON.parse(readFileSync(BASELINE, 'utf8'));
const failures = [];
for (const [file, lines] of found) {
  if (args.has('--all')) console.log(lines.map((line) => `${file}:${line}`).join('\n'));
  const allowed = baseline[file] ?? 0;
  if (lines.length > allowed) {
    failures.push(
      ...lines.map((line) => `${file}:${line}`),
      `  (${file}: ${lines.length} long lines, ${allowed} allowed)`,
    );
  }
}
if (failures.length > 0) {
  console.error(`check-lines: lines over ${MAX} characters (wrap them; strings can be split with +):`);
  console.error(failures.join('\n'));
  process.exit(1);
}
const allowedTotal = Object.values(baseline).reduce((sum, n) => sum + n, 0);
console.log(
  `check-lines: no new line over ${MAX} characters; ${total} older ones remain (scripts/long-lines.json allows ` +
    `${allowedTotal}${total < allowedTotal ? ': lower it with node scripts/check-lines.mjs --update' : ''})`,
);
