#!/usr/bin/env node
// The `credence` executable: runs the compiled CLI (built by `npm install` through `prepare`).
// `credence hook claude-code` is handled here first, without the CLI around it: a hook runs on
// every tool call, so a PreToolUse loads nothing, and a tool event, a stop, a prompt or a session
// start loads one bundled file (dist/hook-fast.cjs, dist/hook-prompt.cjs, dist/hook-start.cjs)
// through require(), without the ES module loader. A stop and a session start hand their learning
// to a process of their own, `credence hook claude-code --learn <event>` (src/hooks/hand-off.ts),
// which runs from the CLI's bundle. The CLI's bundle, dist/cli.cjs, loads its others
// (dist/cli-engine.cjs and the like) when a command first uses them, through the loader set here.
'use strict';
const { existsSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const dist = join(__dirname, '..', 'dist');
const [, , first, second] = process.argv;

/**
 * A hook event, from stdin. Resolves true when the process may end at once with process.exit(), skipping Node's
 * teardown (a few ms): an event a bundle ran, its work done (the spool written, the learning handed off, a session
 * start's store closed) and its output, if any, gone straight to its descriptor. A prompt's connection is then left
 * to the system: read-only, or (the file new or a migration due) holding committed writes in the log, which the next
 * connection reads, as after a killed process (store/sqlite/exit-without-close).
 */
async function hook() {
  // Fail open: whatever happens, exit 0 with one line on stderr.
  process.exitCode = 0;
  let stdin = '';
  let event;
  try {
    stdin = readFileSync(0, 'utf8');
    event = JSON.parse(stdin)?.hook_event_name;
  } catch {
    event = undefined;
  }
  if (event === 'PreToolUse') return true;
  // A team store (CREDENCE_DATABASE_URL) needs the PostgreSQL driver, which the prompt and start bundles leave out.
  const team = (process.env.CREDENCE_DATABASE_URL ?? '') !== '';
  const bundle = ['PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'SessionEnd'].includes(event)
    ? 'hook-fast.cjs'
    : event === 'UserPromptSubmit' && !team
      ? 'hook-prompt.cjs'
      : event === 'SessionStart' && !team
        ? 'hook-start.cjs'
        : undefined;
  const fast = bundle !== undefined;
  const file = fast ? join(dist, bundle) : join(dist, 'src', 'hooks', 'claude-code.js');
  if (!existsSync(file)) {
    process.stderr.write(
      'credence hook: the compiled hook is missing (dist/); run `npm run build` in the package folder\n',
    );
    return;
  }
  const loaded = fast ? loadBundle(file) : { exports: await import(pathToFileURL(file).href) };
  await loaded.exports.main(stdin);
  process.exitCode = 0;
  loaded.keepCache?.();
  return bundle !== undefined && globalThis[Symbol.for('credence.cli.streamed')] !== true;
}

/**
 * Loads a bundle like require() does, with V8's code cache kept beside it (`<bundle>.cache`, made
 * on the first run and whenever Node rejects it): compiling the bundle is a good part of a hook's
 * start. `keepCache`, called once the hook has run, writes the cache then, so that it holds the
 * functions the hook ran (compiled lazily) as well as the top level. With a `key` (the command
 * line's command), each command has a cache of its own (`<bundle>.<key>.cache`): a cache holding
 * what every command ran would make `--help` read and load all of it. Nothing is cached where dist/
 * cannot be written.
 */
function loadBundle(file, key) {
  const vm = require('node:vm');
  const Module = require('node:module');
  const cacheFile = key === undefined ? `${file}.cache` : `${file}.${key}.cache`;
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, dist);
  const keepCache = () => {
    // Written aside and renamed into place: a hook starting meanwhile reads the old cache or the new one, never half of
    // one. The file is opened first: a read-only install spends no time making a cache it cannot keep.
    const fs = require('node:fs');
    const aside = `${cacheFile}.${process.pid}`;
    let fd;
    try {
      fd = fs.openSync(aside, 'w');
    } catch {
      return;
    }
    try {
      fs.writeFileSync(fd, script.createCachedData());
      fs.closeSync(fd);
      fd = undefined;
      fs.renameSync(aside, cacheFile);
    } catch {
      // No room, or something in the way: no cache.
      try {
        if (fd !== undefined) fs.closeSync(fd);
        fs.unlinkSync(aside);
      } catch {
        // Already gone.
      }
    }
  };
  return {
    exports: module.exports,
    keepCache: cachedData === undefined || script.cachedDataRejected ? keepCache : undefined,
  };
}

/**
 * The command line's other bundles (dist/cli-engine.cjs and the like: scripts/cli-chunks.mjs), loaded
 * when a command first uses what they hold, each once, with a code cache of its own for the command
 * (`key`). The entry is given as loaded. Returns what was loaded, whose caches to keep.
 */
function loadChunksWith(key, entryFile, entry) {
  const loaded = new Map([[entryFile, entry]]);
  globalThis[Symbol.for('credence.loadChunk')] = (file) => {
    let chunk = loaded.get(file);
    if (chunk === undefined) {
      chunk = loadBundle(file, key);
      loaded.set(file, chunk);
    }
    return chunk.exports;
  };
  return loaded;
}

/** Writes the code cache of each bundle loaded that has none yet. */
function keepCaches(loaded) {
  for (const chunk of loaded.values()) chunk.keepCache?.();
}

/** The global options that take a value (src/cli/main.ts). */
const VALUED = new Set(['--db', '--database-url', '--scope', '--now', '--format']);

/** The command a command line runs (`help` when none), as the code cache knows it. */
function commandOf(args) {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (VALUED.has(arg)) i += 1;
    else if (!arg.startsWith('-')) return /^[a-z-]{1,20}$/.test(arg) ? arg : 'help';
  }
  return 'help';
}

/**
 * Whether the command line answers a query and ends (recall, dag, next, tools search, status): its store writes only
 * what it showed, and may leave its SQLite connection open for the process's end (src/store/sqlite/exit-without-close).
 */
function isQuery(args) {
  const words = [];
  for (let i = 0; i < args.length && words.length < 2; i += 1) {
    if (VALUED.has(args[i])) i += 1;
    else if (!args[i].startsWith('-')) words.push(args[i]);
  }
  return ['recall', 'dag', 'next', 'status'].includes(words[0]) || (words[0] === 'tools' && words[1] === 'search');
}

/**
 * Ends a query's process at once when its store left the connection open, before Node's teardown would close it (a
 * checkpoint and two fsyncs): what it wrote stays in the write-ahead log for the next process. Output that went
 * through a stream (a pipe that would have blocked) is not cut: the process then ends as any other.
 */
function endQuery() {
  if (globalThis[Symbol.for('credence.sqlite.leftOpen')] !== true) return;
  if (globalThis[Symbol.for('credence.cli.streamed')] === true) return;
  process.exit();
}

/** Whether dist/cli.cjs is there and no older than the modules tsc wrote (none at all: a bundle alone). */
function cliBundleFresh() {
  const bundle = join(dist, 'cli.cjs');
  const entry = join(dist, 'src', 'cli', 'main.js');
  try {
    return statSync(bundle).mtimeMs >= statSync(entry).mtimeMs;
  } catch {
    return existsSync(bundle) && !existsSync(entry);
  }
}

/**
 * The command line: the bundles (dist/cli.cjs and those it loads, each with its code cache) unless tsc has written
 * dist/src since they were made (`tsc` run without the bundling step), then the modules themselves.
 */
async function cli() {
  const entry = join(dist, 'src', 'cli', 'main.js');
  const bundle = join(dist, 'cli.cjs');
  if (isQuery(process.argv.slice(2))) globalThis[Symbol.for('credence.sqlite.exitWithoutClose')] = true;
  if (cliBundleFresh()) {
    const key = commandOf(process.argv.slice(2));
    const loaded = loadBundle(bundle, key);
    const chunks = loadChunksWith(key, bundle, loaded);
    process.exitCode = await loaded.exports.run();
    // Only a command that ran: a mistyped one leaves no cache named after it.
    if (process.exitCode === 0) keepCaches(chunks);
    endQuery();
    return;
  }
  if (!existsSync(entry)) {
    process.stderr.write('credence: the compiled CLI is missing (dist/). Run `npm run build` in the package folder.\n');
    // `credence hook …` exits 0 whatever its command line (a hook fails open).
    process.exitCode = commandOf(process.argv.slice(2)) === 'hook' ? 0 : 1;
    return;
  }
  const { run } = await import(pathToFileURL(entry).href);
  process.exitCode = await run();
  endQuery();
}

/**
 * The learning process a stop or a session start hands off to: the event's learning, from the CLI's
 * bundle when it is there (the modules under dist/src otherwise). Its stderr is the hook's log.
 */
async function learn(event) {
  process.exitCode = 0;
  const bundle = join(dist, 'cli.cjs');
  const entry = join(dist, 'src', 'hooks', 'claude-code.js');
  const fresh = cliBundleFresh();
  const loaded = fresh ? loadBundle(bundle, 'hook-learn') : { exports: await import(pathToFileURL(entry).href) };
  const chunks = fresh ? loadChunksWith('hook-learn', bundle, loaded) : new Map();
  await loaded.exports.learnHookEvent(event);
  process.exitCode = 0;
  keepCaches(chunks);
}

if (first === 'hook' && second === 'claude-code' && process.argv[4] === '--learn' && process.argv.length === 6) {
  learn(process.argv[5]).catch((error) => {
    process.stderr.write(`credence hook: ${error?.message}\n`);
    process.exitCode = 0;
  });
} else if (first === 'hook' && second === 'claude-code' && process.argv.length === 4) {
  hook().then(
    (end) => {
      if (end === true) process.exit(0);
    },
    (error) => {
      process.stderr.write(`credence hook: ${error?.message}\n`);
      process.exitCode = 0;
    },
  );
} else {
  cli().catch((error) => {
    if (commandOf(process.argv.slice(2)) !== 'hook') throw error;
    process.stderr.write(`credence hook: ${error?.message}\n`);
    process.exitCode = 0;
  });
}
