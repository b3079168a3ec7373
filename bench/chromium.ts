/**
 * @module bench/chromium
 * Where the headless Chromium of the dashboard's browser tests and bench is: `CREDENCE_CHROMIUM`,
 * else Debian's /usr/bin/chromium when it is installed (never a downloaded browser), and the
 * launch flags that work as root in a container.
 */
import { existsSync } from 'node:fs';

export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CREDENCE_CHROMIUM !== undefined && env.CREDENCE_CHROMIUM !== '') return env.CREDENCE_CHROMIUM;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

export const CHROMIUM_ARGS: readonly string[] = Object.freeze([
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

export const NO_CHROMIUM = 'no Chromium (set CREDENCE_CHROMIUM or apt-get install chromium)';
