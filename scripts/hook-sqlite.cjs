// better-sqlite3 as the prompt bundle (dist/hook-prompt.cjs) gets it, in place of
// `require('better-sqlite3')`: the package's JavaScript is bundled, so it is compiled once with the
// bundle's V8 code cache instead of being resolved and compiled file by file (13 files, about 5 ms
// of every prompt), and its native addon is loaded straight from the installed package's
// build/Release folder (what the package's `bindings` lookup finds there first). Only when the
// installed package is the very version that was bundled (the JavaScript and the addon must
// match); in any other case, or if anything fails, the package is loaded the usual way.
'use strict';
const { readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const slot = require('credence-sqlite-addon');

/** The folder of better-sqlite3 as require() would find it from the bundle (node_modules upwards). */
function installedPackage() {
  for (let dir = __dirname; ; ) {
    const candidate = join(dir, 'node_modules', 'better-sqlite3');
    try {
      return JSON.parse(readFileSync(join(candidate, 'package.json'), 'utf8')).version === BUNDLED_SQLITE_VERSION
        ? candidate
        : undefined;
    } catch {
      // Not in this node_modules: one folder up.
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

function load() {
  const dir = installedPackage();
  if (dir !== undefined) {
    try {
      slot.addon = require(join(dir, 'build', 'Release', 'better_sqlite3.node'));
      return require('better-sqlite3/lib/index.js');
    } catch {
      slot.addon = undefined;
    }
  }
  return require('better-sqlite3');
}

module.exports = load();
