/**
 * Docs a newcomer reads (issue 18, item 8): the README stays short (≤ 12 KB) and opens with the two
 * set-up commands; everything else lives under docs/, every guide is linked from the README, every
 * section the README had is a heading of a linked guide, and every relative link (file and #anchor)
 * leads somewhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../', import.meta.url));
const read = (path: string): string => readFileSync(join(repo, path), 'utf8');
const docs = readdirSync(join(repo, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);
const pages = ['README.md', ...docs];

/** The sections the 82 KB README had before the move: each must stay reachable from the README. */
const FORMER_README_SECTIONS = [
  'A short tour',
  'Command line',
  'Learning the tool graph',
  'Tool search and DAG suggestion',
  'Recall',
  'Continuous learning: observations, instincts, skills',
  'Workflow runs with PocketFlow',
  'Embeddings',
  'Claude Code',
  'MCP server and gateway',
  'Dashboard',
  'Library',
  'The confidence core',
  'Storage',
  'Teams: one store on PostgreSQL',
  'Moving a store: dump and restore',
  'Benchmarks',
  'Evaluation',
  'Development',
];

/** Markdown text outside fenced code blocks. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/** The headings of a page, as text. */
function headings(markdown: string): string[] {
  return [...prose(markdown).matchAll(/^#{1,6} +(.+?) *$/gm)].map((m) => m[1] as string);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The relative links of a page (web addresses left out), as [target file, anchor]. */
function relativeLinks(page: string): { target: string; hash: string }[] {
  const out: { target: string; hash: string }[] = [];
  for (const m of prose(read(page)).matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = m[1] as string;
    if (/^[a-z]+:/i.test(href)) continue;
    const [file = '', hash = ''] = href.split('#');
    out.push({ target: file === '' ? page : normalize(join(dirname(page), file)), hash });
  }
  return out;
}

describe('the README', () => {
  const readme = read('README.md');

  it('is at most 12 KB', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(12 * 1024);
  });

  it('opens with the two set-up commands, in its first code block', () => {
    const first = /```sh\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? '';
    const commands = first.split('\n').map((line) => line.replace(/ +#.*$/, ''));
    expect(commands).toEqual(['npm install && npx credence demo', 'npm install && npm test']);
  });

  it('links every guide under docs/', () => {
    const linked = new Set(relativeLinks('README.md').map((l) => l.target));
    expect(docs.filter((doc) => !linked.has(doc))).toEqual([]);
  });

  it('keeps every section it had reachable: each is a heading of the README or of a guide it links', () => {
    const reachable = new Set(['README.md', ...relativeLinks('README.md').map((l) => l.target)]);
    const found = new Set(
      [...reachable].filter((page) => existsSync(join(repo, page))).flatMap((page) => headings(read(page))),
    );
    expect(FORMER_README_SECTIONS.filter((section) => !found.has(section))).toEqual([]);
  });
});

describe('links between the README and the docs', () => {
  it.each(pages)('every relative link of %s leads to a file, and its #anchor to a heading there', (page) => {
    const broken: string[] = [];
    for (const { target, hash } of relativeLinks(page)) {
      if (!existsSync(join(repo, target))) broken.push(`${target} (no such file)`);
      else if (hash !== '' && target.endsWith('.md') && !headings(read(target)).map(anchor).includes(hash))
        broken.push(`${target}#${hash} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});

/** Every source module under src/ (tests left out), as a path relative to the repository. */
function sourceModules(dir = 'src'): string[] {
  return readdirSync(join(repo, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(repo, path)).isDirectory()) return sourceModules(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('module headers', () => {
  it('every module header under src is at most 10 lines', () => {
    const long: string[] = [];
    for (const path of sourceModules()) {
      const header = /^(?:#![^\n]*\n)?\s*(\/\*\*[\s\S]*?\*\/)/.exec(read(path))?.[1];
      const lines = header?.split('\n').length ?? 0;
      if (lines > 10) long.push(`${path} (${lines} lines)`);
    }
    expect(long).toEqual([]);
  });
});

/** Lines over 120 characters of prose (not a table row, not inside a code block) in a guide. */
function longProseLines(path: string): string[] {
  let code = false;
  return read(path)
    .split('\n')
    .flatMap((line, i) => {
      if (line.trimStart().startsWith('```')) code = !code;
      const row = line.trimStart().startsWith('|');
      return !code && !row && [...line].length > 120 ? [`${path}:${i + 1} (${[...line].length})`] : [];
    });
}

describe('guide prose', () => {
  it('operations.md and claude-code.md keep their prose lines at most 120 characters', () => {
    expect(['docs/operations.md', 'docs/claude-code.md'].flatMap(longProseLines)).toEqual([]);
  });
});
