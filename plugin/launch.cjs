#!/usr/bin/env node
// The Claude Code plugin's launcher: what its hooks, MCP server and slash commands run. Claude Code
// copies an installed plugin into ~/.claude/plugins/cache/... and installs its dependencies there
// with `npm ci --ignore-scripts`: better-sqlite3's native addon is never built in that copy, nor is
// dist/ (the copy of a clone has none). So this file, which needs nothing but node:*, picks the
// first Credence that can open a store: the project's own install ($CLAUDE_PROJECT_DIR/node_modules/
// credence, or a parent folder's), then the plugin root's, then a `credence` on PATH, and runs its
// bin/credence.cjs in this process (require(), no second node: a hook keeps its cost). When none
// can, a hook exits 0 with one line on stderr naming the problem and the fix; anything else prints
// that line and exits 1.
'use strict';
const { existsSync, realpathSync, statSync } = require('node:fs');
const { delimiter, dirname, join } = require('node:path');

const pluginRoot = dirname(__dirname);

/** Where better-sqlite3's loader (the `bindings` package) looks for the addon, inside the package. */
const ADDON_PLACES = ['build/Release', 'build/Debug', 'build/default', 'out/Release', 'Release'];

/** The folder of the package `name` as Node would resolve it from `root`, or undefined. */
function packageDir(name, root) {
  try {
    return dirname(require.resolve(`${name}/package.json`, { paths: [root] }));
  } catch {
    return undefined;
  }
}

/**
 * Why the Credence installed at `root` cannot run, with the fix (one phrase), or undefined when it
 * can: its bin, the store's driver (better-sqlite3 with its native addon; a team store's driver is
 * plain JavaScript and needs no build) and its compiled CLI (dist/).
 */
function problemWith(root) {
  if (!existsSync(join(root, 'bin', 'credence.cjs'))) return `there is no bin/credence.cjs in ${root}`;
  const missing = [];
  const fixes = [];
  if ((process.env.CREDENCE_DATABASE_URL ?? '') === '') {
    const driver = packageDir('better-sqlite3', root);
    if (driver === undefined) {
      missing.push('better-sqlite3 is not installed');
      fixes.push('npm install');
    } else if (!ADDON_PLACES.some((place) => existsSync(join(driver, place, 'better_sqlite3.node')))) {
      missing.push("better-sqlite3's native addon is not built");
      fixes.push('npm rebuild better-sqlite3');
    }
  }
  if (!existsSync(join(root, 'dist', 'cli.cjs')) && !existsSync(join(root, 'dist', 'src', 'cli', 'main.js'))) {
    missing.push('Credence is not compiled (no dist/)');
    if (!fixes.includes('npm install')) fixes.push('npm run build');
  }
  return missing.length === 0 ? undefined : `${missing.join(' and ')} in ${root}: run \`${fixes.join(' && ')}\` there`;
}

/** The package folder of a `credence` executable on PATH (an npm bin link to bin/credence.cjs), or undefined. */
function credenceOnPath() {
  for (const folder of (process.env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    try {
      const bin = realpathSync(join(folder, 'credence'));
      if (statSync(bin).isFile() && bin.endsWith(join('bin', 'credence.cjs'))) return dirname(dirname(bin));
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The candidates in order, each once (by real path): [root, where it came from]. */
function candidates() {
  const found = [];
  const seen = new Set();
  const add = (root, from) => {
    if (root === undefined) return;
    let real;
    try {
      real = realpathSync(root);
    } catch {
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    found.push([real, from]);
  };
  // The project's install: in its node_modules or a parent folder's (a workspace), as Node would look.
  let folder = process.env.CLAUDE_PROJECT_DIR || process.cwd();
  for (;;) {
    const installed = join(folder, 'node_modules', 'credence');
    if (existsSync(installed)) {
      add(installed, 'project');
      break;
    }
    if (dirname(folder) === folder) break;
    folder = dirname(folder);
  }
  add(pluginRoot, 'plugin');
  add(credenceOnPath(), 'path');
  return found;
}

/** The global options that take a value (bin/credence.cjs VALUED, src/cli/main.ts). */
const VALUED = new Set(['--db', '--database-url', '--scope', '--now', '--format']);

/**
 * Whether the command line is a hook's (`hook …`, after any global options: `--db x hook claude-code`), by the rule of
 * bin/credence.cjs commandOf, written out here: the launcher runs when no Credence (and no bin) can.
 */
function isHook(args) {
  for (let i = 0; i < args.length; i += 1) {
    if (VALUED.has(args[i])) i += 1;
    else if (!args[i].startsWith('-')) return args[i] === 'hook';
  }
  return false;
}

function launch() {
  const problems = [];
  for (const [root, from] of candidates()) {
    const problem = problemWith(root);
    if (problem === undefined) {
      try {
        require(join(root, 'bin', 'credence.cjs'));
      } catch (error) {
        // A Credence that breaks as it loads (another version's bin, a corrupt install): a hook still fails open.
        const hook = isHook(process.argv.slice(2));
        process.stderr.write(`credence${hook ? ' hook' : ''}: the Credence in ${root} failed: ${error?.message}\n`);
        process.exitCode = hook ? 0 : 1;
      }
      return;
    }
    // Each candidate that cannot run says why: the plugin's own copy first of all.
    problems.push(
      from === 'plugin'
        ? `${problem} (Claude Code installs a plugin's dependencies with their scripts ignored)`
        : `the ${from === 'path' ? 'credence on PATH' : "project's install"}: ${problem}`,
    );
  }
  const hook = isHook(process.argv.slice(2));
  const line =
    `credence${hook ? ' hook' : ''}: no Credence here can open a store: ${problems.join('; ')}.` +
    ' Or install Credence in the project from its packed tarball (it is not on the npm registry):' +
    ' `npm pack` in a clone of Credence, then `npm install /path/to/credence-<version>.tgz` in the project.';
  process.stderr.write(`${line}\n`);
  process.exitCode = hook ? 0 : 1;
}

launch();
