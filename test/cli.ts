/**
 * The command line run in this process (src/cli/main), for the tests of what it prints and exits with: in `dir`,
 * with HOME there and `env` besides, its standard output and error collected.
 */
import { main } from '../src/cli/main.js';

export async function cliIn(
  dir: string,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main([...argv], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: { HOME: dir, ...env },
    cwd: dir,
  });
  return { code, stdout, stderr };
}
