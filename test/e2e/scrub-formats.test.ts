/**
 * Secrets in what a tool call carries never reach the store (issue 17, red-team 3): the formats the
 * red-team found uncovered and percent-encoded secrets, recorded with `credence record`, are absent
 * from `credence dump -`. Drives the real binary. Fake secrets are assembled at run time.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bin } from '../mcp-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'credence-scrub-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = {
  CREDENCE_DB: join(dir, 'credence.db'),
  CREDENCE_DATABASE_URL: '',
  CREDENCE_NOW: '',
  CREDENCE_SCOPE: 'scrub',
  HOME: dir,
};

function credence(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    ...(input === undefined ? {} : { input }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const tail = 'Q7' + 'x9Kp2LmN4vB8cR1tY6wZ3aS5dF0gH';
const secrets = {
  gitlab: 'gl' + 'pat-' + tail,
  huggingface: 'h' + 'f_' + 'AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh',
  dockerPassword: 'Dk' + tail,
  cookie: 'S3ss' + tail,
  encodedGithub: 'gh' + 'p_' + tail + 'Ab12Cd',
  netrc: 'Nr' + tail,
};

describe('secrets in recorded tool calls', () => {
  it('are absent from the dump, plain and percent-encoded', () => {
    const execution = {
      intent: 'deploy the app',
      calls: [
        {
          tool: 'Bash',
          status: 'success',
          input: JSON.stringify({ command: `docker login -u ada -p ${secrets.dockerPassword} registry.example.com` }),
          output: `Login Succeeded\nSet-Cookie: sid=${secrets.cookie}; Path=/`,
        },
        {
          tool: 'WebFetch',
          status: 'success',
          input: JSON.stringify({ url: `https://api.example.com/x?token%3D${secrets.encodedGithub}` }),
          output: `HF_TOKEN=${secrets.huggingface}`,
        },
        {
          tool: 'Read',
          status: 'success',
          input: JSON.stringify({ file_path: '/home/ada/.netrc' }),
          output: `machine gitlab.com login ada password ${secrets.netrc}\n# ${secrets.gitlab}`,
        },
      ],
    };
    const recorded = credence(['record', '--jsonl', '-'], `${JSON.stringify(execution)}\n`);
    expect(recorded.stderr).toBe('');
    expect(recorded.code).toBe(0);
    const dump = credence(['dump', '-']);
    expect(dump.code).toBe(0);
    expect(dump.stdout).toContain('deploy the app');
    // The calls' texts are stored (their frames are in the dump), only the secrets are not.
    for (const kept of [
      'registry.example.com',
      'Login Succeeded',
      'machine gitlab.com login ada password ',
      'token%3D',
    ])
      expect(dump.stdout).toContain(kept);
    expect(dump.stdout).toContain('[REDACTED:');
    for (const secret of Object.values(secrets)) expect(dump.stdout).not.toContain(secret);
  });
});
