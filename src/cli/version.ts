/**
 * @module cli/version
 * The version of the installed package (`credence --version`), read from its package.json only when asked. The file
 * is found from this module as tsc wrote it (dist/src/cli/, also from the CLI's bundle, which gives each module its
 * own URL) or as source under the tests (src/cli/), as the demo finds its data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { CredenceError } from '../core/errors.js';

export function packageVersion(moduleUrl: string | URL = import.meta.url): string {
  for (const rel of ['../../../package.json', '../../package.json']) {
    const url = new URL(rel, moduleUrl);
    if (!existsSync(url)) continue;
    const manifest = JSON.parse(readFileSync(url, 'utf8')) as { name?: unknown; version?: unknown };
    if (manifest.name === 'credence' && typeof manifest.version === 'string') return manifest.version;
  }
  throw new CredenceError('NOT_FOUND', "credence's package.json is missing from the package: reinstall credence");
}
