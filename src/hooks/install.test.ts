import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf, thrown } from '../../test/helpers.js';
import { isCredenceError, type CredenceError } from '../core/errors.js';
import {
  CLAUDE_CODE_HOOKS,
  DEFAULT_OBSERVE_CONFIG,
  INSTALL_DEFAULTS,
  isCredenceHookCommand,
  launchCommands,
  leadingAssignments,
  mergeHookSettings,
  mergeMcpConfig,
  PACKAGE_BIN,
  removeHookSettings,
  removeMcpConfig,
  resolveProjectDir,
  setUpClaudeCode,
  teamStoreLaunch,
} from './install.js';

const EVENTS = CLAUDE_CODE_HOOKS.map((h) => h.event);
const NODE_COMMAND = 'node /opt/credence/bin/credence.cjs hook claude-code';
const parse = (text: string): Record<string, any> => JSON.parse(text);

const USER_SETTINGS = {
  permissions: { allow: ['Bash(npm test)'] },
  hooks: {
    PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'prettier --write "$FILE"' }] }],
    Stop: [{ hooks: [{ type: 'command', command: './notify.sh', timeout: 3 }] }],
    Notification: [{ hooks: [{ type: 'command', command: 'say done' }] }],
  },
  model: 'opus',
};

const tempDirs: string[] = [];
afterAll(() => tempDirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'credence-install-'));
  tempDirs.push(dir);
  return dir;
}

describe('mergeHookSettings', () => {
  it("writes the eight events in Claude Code's format into an empty file, matchers on tool events only", () => {
    const { text, change, changed } = mergeHookSettings(undefined);
    expect(changed).toBe(true);
    expect(change.added).toEqual(EVENTS);
    const hooks = parse(text).hooks;
    expect(Object.keys(hooks)).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'PostToolUse',
      'PostToolUseFailure',
      'Stop',
      'SubagentStop',
      'SessionEnd',
    ]);
    const command = INSTALL_DEFAULTS.command;
    expect(hooks.PostToolUse).toEqual([
      { matcher: '*', hooks: [{ type: 'command', command, timeout: 5, async: true }] },
    ]);
    expect(hooks.UserPromptSubmit).toEqual([{ hooks: [{ type: 'command', command, timeout: 5 }] }]);
    expect(hooks.SessionStart).toEqual([{ hooks: [{ type: 'command', command, timeout: 10 }] }]);
    expect(hooks.PreToolUse[0]).toEqual({ matcher: '*', hooks: [{ type: 'command', command, timeout: 2 }] });
    expect(hooks.PostToolUseFailure[0].hooks[0]).toMatchObject({ timeout: 5, async: true });
    expect(hooks.Stop[0]).toEqual({ hooks: [{ type: 'command', command, timeout: 10 }] });
    expect(hooks.SubagentStop[0]).toEqual({ hooks: [{ type: 'command', command, timeout: 10 }] });
    expect(hooks.SessionEnd[0].hooks[0]).toMatchObject({ timeout: 10, async: true });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "hooks": {\n    "SessionStart"');
  });

  it("keeps the user's own hooks for the same events, other events and other keys, in their order", () => {
    const { text } = mergeHookSettings(JSON.stringify(USER_SETTINGS));
    const settings = parse(text);
    expect(Object.keys(settings)).toEqual(['permissions', 'hooks', 'model']);
    expect(settings.permissions).toEqual(USER_SETTINGS.permissions);
    expect(Object.keys(settings.hooks).slice(0, 3)).toEqual(['PostToolUse', 'Stop', 'Notification']);
    expect(settings.hooks.PostToolUse[0]).toEqual(USER_SETTINGS.hooks.PostToolUse[0]);
    expect(settings.hooks.PostToolUse[1].hooks[0].command).toBe(INSTALL_DEFAULTS.command);
    expect(settings.hooks.Stop).toHaveLength(2);
    expect(settings.hooks.Notification).toEqual(USER_SETTINGS.hooks.Notification);
  });

  it('is idempotent: a second run returns the same bytes and reports nothing changed', () => {
    const first = mergeHookSettings(JSON.stringify(USER_SETTINGS));
    const second = mergeHookSettings(first.text);
    expect(second.text).toBe(first.text);
    expect(second.changed).toBe(false);
    expect(second.change).toEqual({ added: [], updated: [], removed: [] });
  });

  it("leaves an already installed file's own formatting alone", () => {
    const fourSpaces = JSON.stringify(parse(mergeHookSettings(undefined).text), null, 4);
    expect(mergeHookSettings(fourSpaces).text).toBe(fourSpaces);
  });

  it('replaces its entries when run with another command, instead of adding a second set', () => {
    const npx = mergeHookSettings(JSON.stringify(USER_SETTINGS)).text;
    const node = mergeHookSettings(npx, { command: NODE_COMMAND });
    expect(node.change.updated).toEqual(EVENTS);
    const commands = Object.values(parse(node.text).hooks).flatMap((groups: any) =>
      groups.flatMap((g: any) => g.hooks.map((h: any) => h.command)),
    );
    expect(commands.filter(isCredenceHookCommand)).toEqual(EVENTS.map(() => NODE_COMMAND));
    expect(parse(node.text).hooks.Stop[0]).toEqual(USER_SETTINGS.hooks.Stop[0]);
  });

  it('collapses duplicate Credence entries and moves one sitting under the wrong matcher', () => {
    const messy = {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'npx credence hook claude-code' },
              { type: 'command', command: 'lint' },
            ],
          },
        ],
        Stop: [
          { hooks: [{ type: 'command', command: 'npx credence hook claude-code' }] },
          { hooks: [{ type: 'command', command: 'npx credence hook claude-code' }] },
        ],
      },
    };
    const hooks = parse(mergeHookSettings(JSON.stringify(messy)).text).hooks;
    expect(hooks.PreToolUse).toEqual([
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'lint' }] },
      { matcher: '*', hooks: [{ type: 'command', command: INSTALL_DEFAULTS.command, timeout: 2 }] },
    ]);
    expect(hooks.Stop).toEqual([{ hooks: [{ type: 'command', command: INSTALL_DEFAULTS.command, timeout: 10 }] }]);
  });

  // Walk 11, item 5: init run again (as after an upgrade) put back Credence's timeouts over the user's and dropped a
  // matcher the user set on Credence's own group, while the docs promised that running it again changes nothing.
  it("keeps the timeout and matcher a user set on Credence's own entries; only the command is rewritten", () => {
    const first = parse(mergeHookSettings(undefined).text);
    first.hooks.SessionStart[0].hooks[0].timeout = 30;
    first.hooks.SessionStart[0].matcher = 'startup';
    first.hooks.UserPromptSubmit[0].hooks[0].timeout = 15;
    first.hooks.UserPromptSubmit[0].hooks[0].statusMessage = 'recalling';
    const tuned = `${JSON.stringify(first, null, 2)}\n`;
    const again = mergeHookSettings(tuned);
    expect(again.change).toEqual({ added: [], updated: [], removed: [] });
    expect(parse(again.text)).toEqual(first);
    // An older install's command is replaced; what the user tuned stays.
    const old = tuned.replaceAll(JSON.stringify(INSTALL_DEFAULTS.command), JSON.stringify(NODE_COMMAND));
    const upgraded = mergeHookSettings(old);
    expect(upgraded.change.updated).toContain('SessionStart');
    expect(parse(upgraded.text)).toEqual(first);
    // A timeout that is no positive number is Credence's.
    first.hooks.Stop[0].hooks[0].timeout = 'long';
    expect(parse(mergeHookSettings(JSON.stringify(first)).text).hooks.Stop[0].hooks[0].timeout).toBe(10);
  });

  it('takes Credence entries off events it no longer uses', () => {
    const old = {
      hooks: { Notification: [{ hooks: [{ type: 'command', command: 'npx credence hook claude-code' }] }] },
    };
    const result = mergeHookSettings(JSON.stringify(old));
    expect(result.change.removed).toEqual(['Notification']);
    expect(parse(result.text).hooks.Notification).toBeUndefined();
  });

  it('refuses a hook command it would not recognise as its own afterwards', () => {
    expect(codeOf(() => mergeHookSettings(undefined, { command: 'my-hook.sh' }))).toBe('INVALID_INPUT');
    expect(isCredenceHookCommand(NODE_COMMAND)).toBe(true);
    expect(isCredenceHookCommand('"/path with space/credence.js" hook claude-code')).toBe(true);
    expect(isCredenceHookCommand('credence hook claude-codex')).toBe(false);
  });

  it('refuses text that is not a JSON object, or hooks of the wrong shape', () => {
    expect(codeOf(() => mergeHookSettings('{"hooks": {', { file: '/p/.claude/settings.json' }))).toBe('INVALID_INPUT');
    expect(codeOf(() => mergeHookSettings('[]'))).toBe('INVALID_INPUT');
    expect(codeOf(() => mergeHookSettings('{"hooks": []}'))).toBe('INVALID_INPUT');
    expect(codeOf(() => mergeHookSettings('{"hooks": {"Stop": {}}}'))).toBe('INVALID_INPUT');
  });

  it('treats a blank file as an empty object', () => {
    expect(parse(mergeHookSettings('  \n').text).hooks.Stop).toHaveLength(1);
  });

  it("reads a settings file saved with a byte order mark, keeping the user's keys", () => {
    const merged = parse(mergeHookSettings('\uFEFF{"model": "opus"}\n').text);
    expect(merged.model).toBe('opus');
    expect(merged.hooks.Stop).toHaveLength(1);
  });
});

describe('removeHookSettings', () => {
  it("is the exact inverse of install on the user's settings", () => {
    const original = JSON.stringify(USER_SETTINGS);
    const installed = mergeHookSettings(original, { command: NODE_COMMAND }).text;
    const removed = removeHookSettings(installed);
    expect([...removed.change.removed].sort()).toEqual([...EVENTS].sort());
    expect(parse(removed.text)).toEqual(USER_SETTINGS);
    expect(Object.keys(parse(removed.text).hooks)).toEqual(['PostToolUse', 'Stop', 'Notification']);
  });

  it('drops the hooks key only when removing empties it', () => {
    expect(parse(removeHookSettings(mergeHookSettings('{"model": "opus"}').text).text)).toEqual({ model: 'opus' });
    const { text, changed } = removeHookSettings('{"hooks": {"Stop": []}}');
    expect(changed).toBe(false);
    expect(text).toBe('{"hooks": {"Stop": []}}');
  });

  it("keeps a group that still holds the user's hooks after Credence's entry leaves it", () => {
    const shared = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command: './notify.sh' },
              { type: 'command', command: 'npx credence hook claude-code', timeout: 10 },
            ],
          },
        ],
      },
    };
    expect(parse(removeHookSettings(JSON.stringify(shared)).text)).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] },
    });
  });

  it('is a no-op that says so when nothing is installed', () => {
    const text = JSON.stringify(USER_SETTINGS, null, 4);
    const result = removeHookSettings(text);
    expect(result).toEqual({ text, changed: false, change: { added: [], updated: [], removed: [] } });
  });

  it('install then remove returns a deep-equal object for random user settings (property)', () => {
    const command = fc.constantFrom('npx credence hook claude-code', NODE_COMMAND);
    const userHook = fc.record(
      { type: fc.constant('command'), command: fc.string().filter((c) => !isCredenceHookCommand(c)) },
      { requiredKeys: ['type', 'command'] },
    );
    const group = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          {
            matcher: fc.constantFrom('*', 'Bash', 'Edit|Write', ''),
            hooks: fc.array(userHook, { minLength: 1, maxLength: 3 }),
          },
          { requiredKeys: ['hooks'] },
        ),
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    );
    const eventName = fc.oneof(fc.constantFrom(...EVENTS, 'Notification', 'PreCompact'), fc.string({ minLength: 1 }));
    const hooks = fc.dictionary(eventName, fc.array(group, { minLength: 1, maxLength: 3 }), { minKeys: 1, maxKeys: 6 });
    const others = fc.dictionary(
      fc.string().filter((k) => k !== 'hooks'),
      fc.jsonValue({ maxDepth: 3 }),
      { maxKeys: 5 },
    );
    const settings = fc
      .tuple(others, fc.option(hooks, { nil: undefined }))
      .map(([rest, h]) => (h === undefined ? rest : { ...rest, hooks: h }));
    fc.assert(
      fc.property(settings, command, (user, cmd) => {
        const original = JSON.stringify(user);
        const installed = mergeHookSettings(original, { command: cmd }).text;
        expect(mergeHookSettings(installed, { command: cmd }).text).toBe(installed);
        expect(parse(removeHookSettings(installed).text)).toEqual(parse(original));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the .mcp.json entry', () => {
  it("adds the credence server beside the user's servers and is idempotent", () => {
    const user = { mcpServers: { github: { command: 'gh-mcp' } }, other: 1 };
    const first = mergeMcpConfig(JSON.stringify(user));
    expect(first.change).toBe('added');
    expect(parse(first.text)).toEqual({
      mcpServers: {
        github: { command: 'gh-mcp' },
        credence: { command: 'node', args: [PACKAGE_BIN, 'serve', '--stdio'] },
      },
      other: 1,
    });
    const second = mergeMcpConfig(first.text);
    expect(second).toEqual({ text: first.text, changed: false, change: 'unchanged' });
  });

  it('rewrites a different credence entry in place', () => {
    const result = mergeMcpConfig(JSON.stringify({ mcpServers: { credence: { command: 'old' }, b: {} } }));
    expect(result.change).toBe('updated');
    expect(Object.keys(parse(result.text).mcpServers)).toEqual(['credence', 'b']);
  });

  it('removes exactly the credence server, and mcpServers only when that empties it', () => {
    const user = { mcpServers: { github: { command: 'gh-mcp' } } };
    expect(parse(removeMcpConfig(mergeMcpConfig(JSON.stringify(user)).text).text)).toEqual(user);
    expect(parse(removeMcpConfig(mergeMcpConfig(undefined).text).text)).toEqual({});
    expect(removeMcpConfig('{"x": 1}')).toEqual({ text: '{"x": 1}', changed: false, change: 'absent' });
  });

  it('on a team store requires the URL from the environment; SQLite takes that out; user variables stay', () => {
    const team = teamStoreLaunch({ command: INSTALL_DEFAULTS.command, mcpServer: INSTALL_DEFAULTS.mcpServer });
    expect(team.command).toBe(`CREDENCE_REQUIRE_DATABASE_URL=1 ${INSTALL_DEFAULTS.command}`);
    expect(isCredenceHookCommand(team.command)).toBe(true);
    // Given twice (a --hook-command that already has it), the variable is not put in front again.
    expect(teamStoreLaunch(team).command).toBe(team.command);
    const user = { mcpServers: { credence: { command: 'old', env: { DEBUG: 'x' } } } };
    const merged = parse(mergeMcpConfig(JSON.stringify(user), { server: team.mcpServer }).text);
    expect(merged.mcpServers.credence.env).toEqual({ DEBUG: 'x', CREDENCE_REQUIRE_DATABASE_URL: '1' });
    const solo = parse(mergeMcpConfig(JSON.stringify(merged)).text);
    expect(solo.mcpServers.credence).toEqual({
      command: 'node',
      args: [PACKAGE_BIN, 'serve', '--stdio'],
      env: { DEBUG: 'x' },
    });
    expect(parse(mergeMcpConfig(mergeMcpConfig(undefined, { server: team.mcpServer }).text).text)).toEqual(
      parse(mergeMcpConfig(undefined).text),
    );
  });

  // Review C: a schema chosen by CREDENCE_DATABASE_SCHEMA was only named in init's report, so hooks started without
  // it learned into `public`. It is written with the requirement (a name, no secret), and goes or changes with it.
  it('on a team store in a schema of the variable writes the schema too; it goes with the requirement', () => {
    const launch = { command: INSTALL_DEFAULTS.command, mcpServer: INSTALL_DEFAULTS.mcpServer };
    const team = teamStoreLaunch(launch, 'team_b');
    expect(team.command).toBe(
      `CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=team_b ${INSTALL_DEFAULTS.command}`,
    );
    expect(teamStoreLaunch(team, 'team_c').command).toBe(
      `CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=team_c ${INSTALL_DEFAULTS.command}`,
    );
    expect(teamStoreLaunch(team).command).toBe(`CREDENCE_REQUIRE_DATABASE_URL=1 ${INSTALL_DEFAULTS.command}`);
    const merged = parse(mergeMcpConfig(undefined, { server: team.mcpServer }).text);
    expect(merged.mcpServers.credence.env).toEqual({
      CREDENCE_REQUIRE_DATABASE_URL: '1',
      CREDENCE_DATABASE_SCHEMA: 'team_b',
    });
    const otherTeam = parse(
      mergeMcpConfig(JSON.stringify(merged), { server: teamStoreLaunch(launch, 'team_c').mcpServer }).text,
    );
    expect(otherTeam.mcpServers.credence.env).toEqual({
      CREDENCE_REQUIRE_DATABASE_URL: '1',
      CREDENCE_DATABASE_SCHEMA: 'team_c',
    });
    expect(parse(mergeMcpConfig(JSON.stringify(merged)).text).mcpServers.credence.env).toBeUndefined();
  });

  // Fix B.1: re-init on a team store from a shell without CREDENCE_DATABASE_SCHEMA dropped a schema the user had
  // written beside the requirement (in the server's env, or in front of the hook command): the hooks and the MCP
  // server moved to `public`. Init cannot tell a hand-written schema from its own, so one it does not replace stays.
  it('re-init on a team store naming no schema keeps the one written beside the requirement', () => {
    const launch = { command: INSTALL_DEFAULTS.command, mcpServer: INSTALL_DEFAULTS.mcpServer };
    const handWritten = {
      mcpServers: {
        credence: {
          ...teamStoreLaunch(launch).mcpServer,
          env: { DEBUG: 'x', CREDENCE_REQUIRE_DATABASE_URL: '1', CREDENCE_DATABASE_SCHEMA: 'mine' },
        },
      },
    };
    const again = mergeMcpConfig(JSON.stringify(handWritten), { server: teamStoreLaunch(launch).mcpServer });
    expect(again.change).toBe('unchanged');
    expect(parse(again.text)).toEqual(handWritten);
  });

  it('init --claude-code again on a team store naming no schema keeps the schema in the hook command and env', () => {
    const dir = project();
    const launch = { command: NODE_COMMAND, mcpServer: INSTALL_DEFAULTS.mcpServer };
    const team = { needsEnv: ['CREDENCE_DATABASE_URL'] };
    setUpClaudeCode({ projectDir: dir, ...launch, teamStore: team });
    // The user writes the schema in by hand, in front of the hook command (before the requirement) and in the env.
    const settingsPath = join(dir, '.claude', 'settings.json');
    const mcpPath = join(dir, '.mcp.json');
    const ours = readFileSync(settingsPath, 'utf8');
    const by = ours.replaceAll(
      '"CREDENCE_REQUIRE_DATABASE_URL=1 ',
      '"CREDENCE_DATABASE_SCHEMA=mine CREDENCE_REQUIRE_DATABASE_URL=1 ',
    );
    expect(by).not.toBe(ours);
    writeFileSync(settingsPath, by);
    const mcp = parse(readFileSync(mcpPath, 'utf8'));
    mcp.mcpServers.credence.env.CREDENCE_DATABASE_SCHEMA = 'mine';
    writeFileSync(mcpPath, JSON.stringify(mcp));
    setUpClaudeCode({ projectDir: dir, ...launch, teamStore: team });
    const commands = Object.values(parse(readFileSync(settingsPath, 'utf8')).hooks as Record<string, any[]>).flatMap(
      (groups) => groups.flatMap((g) => g.hooks.map((h: { command: string }) => h.command)),
    );
    expect(new Set(commands)).toEqual(
      new Set([`CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=mine ${NODE_COMMAND}`]),
    );
    expect(parse(readFileSync(mcpPath, 'utf8')).mcpServers.credence.env).toEqual({
      CREDENCE_REQUIRE_DATABASE_URL: '1',
      CREDENCE_DATABASE_SCHEMA: 'mine',
    });
    // A schema the variable names replaces it; back on the SQLite file both go with the requirement.
    setUpClaudeCode({ projectDir: dir, ...launch, teamStore: { ...team, schema: 'team_c' } });
    expect(readFileSync(settingsPath, 'utf8')).toContain(
      `"CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=team_c node`,
    );
    expect(readFileSync(settingsPath, 'utf8')).not.toContain('mine');
    expect(parse(readFileSync(mcpPath, 'utf8')).mcpServers.credence.env.CREDENCE_DATABASE_SCHEMA).toBe('team_c');
    setUpClaudeCode({ projectDir: dir, ...launch });
    expect(readFileSync(settingsPath, 'utf8')).not.toContain('CREDENCE_');
    expect(parse(readFileSync(mcpPath, 'utf8')).mcpServers.credence.env).toBeUndefined();
  });

  // Fix B2 (review B, 1–3, 7, 8): one reading of the prefix. A schema after another variable was left behind the new
  // one (the shell's last wins); one after `env`, or on every entry but SessionStart's, was not found; FOO=1 was lost.
  it('reads every assignment in front of a command, in any order, quoted, after env', () => {
    const read = (command: string): [string, string][] =>
      leadingAssignments(command).assignments.map((a) => [a.name, a.value]);
    expect(read(`FOO=1 CREDENCE_DATABASE_SCHEMA=team_x ${NODE_COMMAND}`)).toEqual([
      ['FOO', '1'],
      ['CREDENCE_DATABASE_SCHEMA', 'team_x'],
    ]);
    expect(read(`env\tA='x y' B="q\\"z" C=c\\ d ${NODE_COMMAND}`)).toEqual([
      ['A', 'x y'],
      ['B', 'q"z'],
      ['C', 'c d'],
    ]);
    expect(leadingAssignments(`env A=1 ${NODE_COMMAND}`).rest).toBe(NODE_COMMAND);
    expect(leadingAssignments(`env -i A=1 ${NODE_COMMAND}`)).toEqual({
      assignments: [],
      rest: `env -i A=1 ${NODE_COMMAND}`,
    });
    for (const cut of ["A='open node", 'A=1;B=2 node', 'A=$(x) node', 'A=1|x node'])
      expect(leadingAssignments(cut).assignments).toEqual([]);
  });

  it('on a team store replaces every schema in front of the command, wherever written, and keeps FOO=1', () => {
    const launch = (command: string) => ({ command, mcpServer: INSTALL_DEFAULTS.mcpServer });
    const want = `CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=team_b FOO=1 ${NODE_COMMAND}`;
    for (const written of [
      `FOO=1 CREDENCE_DATABASE_SCHEMA=team_x ${NODE_COMMAND}`,
      `CREDENCE_DATABASE_SCHEMA=team_x FOO=1 CREDENCE_REQUIRE_DATABASE_URL=1 ${NODE_COMMAND}`,
      `FOO=1 CREDENCE_DATABASE_SCHEMA="team_x" CREDENCE_DATABASE_SCHEMA='team_y' ${NODE_COMMAND}`,
      `env FOO=1 CREDENCE_DATABASE_SCHEMA=team_x ${NODE_COMMAND}`,
      `CREDENCE_REQUIRE_DATABASE_URL=1\tFOO=1 env CREDENCE_DATABASE_SCHEMA=team_x ${NODE_COMMAND}`,
    ])
      expect(teamStoreLaunch(launch(written), 'team_b').command, written).toBe(want);
    expect(teamStoreLaunch(launch(`FOO=1 CREDENCE_DATABASE_SCHEMA=team_x ${NODE_COMMAND}`)).command).toBe(
      `CREDENCE_REQUIRE_DATABASE_URL=1 FOO=1 ${NODE_COMMAND}`,
    );
  });

  it('checks the schema where it writes it, before anything is written', () => {
    const launch = { command: NODE_COMMAND, mcpServer: INSTALL_DEFAULTS.mcpServer };
    for (const bad of ['a;touch${IFS}x', 'Team', '1team', 'a b', ''])
      expect(
        codeOf(() => teamStoreLaunch(launch, bad)),
        bad,
      ).toBe('INVALID_INPUT');
    const dir = project();
    const settings = { hooks: { Stop: [{ hooks: [{ type: 'command', command: `X=1 ${NODE_COMMAND}` }] }] } };
    const quoted = JSON.stringify(settings).replace('X=1', 'CREDENCE_DATABASE_SCHEMA=\\"a;touch x\\"');
    mkdirSync(join(dir, '.claude'));
    writeFileSync(join(dir, '.claude', 'settings.json'), quoted);
    const error = thrown(() =>
      setUpClaudeCode({ projectDir: dir, ...launch, teamStore: { needsEnv: ['CREDENCE_DATABASE_URL'] } }),
    ) as CredenceError;
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toContain('CREDENCE_DATABASE_SCHEMA="a;touch x" (in front of a hook command in');
    expect(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).toBe(quoted);
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
  });

  const hookCommands = (dir: string): Map<string, string> =>
    new Map(
      Object.entries(parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8')).hooks).map(
        ([event, groups]) => [event, (groups as any[])[0].hooks[0].command as string],
      ),
    );
  const mcpEnv = (dir: string): unknown => parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.credence.env;

  it('re-init naming no schema keeps one written in any entry, after FOO=1 or env, and FOO=1 itself', () => {
    const launch = { command: NODE_COMMAND, mcpServer: INSTALL_DEFAULTS.mcpServer };
    const team = { needsEnv: ['CREDENCE_DATABASE_URL'] };
    const forms: [string, (command: string, event: string) => string][] = [
      ['after FOO=1', (c) => c.replace('=1 ', '=1 FOO=1 CREDENCE_DATABASE_SCHEMA=team_a ')],
      ['after env', (c) => c.replace('=1 ', '=1 env FOO=1 CREDENCE_DATABASE_SCHEMA=team_a ')],
      [
        'twice (the last one wins)',
        (c) => c.replace('=1 ', '=1 CREDENCE_DATABASE_SCHEMA=old FOO=1 CREDENCE_DATABASE_SCHEMA=team_a '),
      ],
      ['quoted, first', (c) => `CREDENCE_DATABASE_SCHEMA='team_a' FOO=1 ${c}`],
      [
        'not on SessionStart',
        (c, e) => (e === 'SessionStart' ? `FOO=1 ${c}` : `FOO=1 CREDENCE_DATABASE_SCHEMA=team_a ${c}`),
      ],
    ];
    for (const [form, edit] of forms) {
      const dir = project();
      setUpClaudeCode({ projectDir: dir, ...launch, teamStore: team });
      const path = join(dir, '.claude', 'settings.json');
      const settings = parse(readFileSync(path, 'utf8'));
      for (const [event, groups] of Object.entries(settings.hooks as Record<string, any[]>))
        groups[0].hooks[0].command = edit(groups[0].hooks[0].command, event);
      writeFileSync(path, JSON.stringify(settings));
      const mcp = parse(readFileSync(join(dir, '.mcp.json'), 'utf8'));
      // The server names it too, except in the last form: the hook commands alone must keep it.
      if (form !== 'not on SessionStart') mcp.mcpServers.credence.env.CREDENCE_DATABASE_SCHEMA = 'team_a';
      writeFileSync(join(dir, '.mcp.json'), JSON.stringify(mcp));
      const report = setUpClaudeCode({ projectDir: dir, ...launch, teamStore: team });
      const want = `CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=team_a FOO=1 ${NODE_COMMAND}`;
      expect(new Set(hookCommands(dir).values()), form).toEqual(new Set([want]));
      expect(mcpEnv(dir), form).toEqual({ CREDENCE_REQUIRE_DATABASE_URL: '1', CREDENCE_DATABASE_SCHEMA: 'team_a' });
      expect(report.warnings === undefined, form).toBe(form !== 'not on SessionStart');
      // The variable replaces it everywhere; back on the SQLite file Credence's variables go, FOO=1 stays.
      setUpClaudeCode({ projectDir: dir, ...launch, teamStore: { ...team, schema: 'team_c' } });
      expect(new Set(hookCommands(dir).values()), form).toEqual(
        new Set([`CREDENCE_REQUIRE_DATABASE_URL=1 CREDENCE_DATABASE_SCHEMA=team_c FOO=1 ${NODE_COMMAND}`]),
      );
      setUpClaudeCode({ projectDir: dir, ...launch });
      expect(new Set(hookCommands(dir).values()), form).toEqual(new Set([`FOO=1 ${NODE_COMMAND}`]));
    }
  });

  it('warns when the hook commands and the server name different schemas, and writes the one it kept to both', () => {
    const launch = { command: NODE_COMMAND, mcpServer: INSTALL_DEFAULTS.mcpServer };
    const team = { needsEnv: ['CREDENCE_DATABASE_URL'] };
    const split = (hooks: string | undefined, server: string | undefined): string => {
      const dir = project();
      setUpClaudeCode({ projectDir: dir, ...launch, ...(hooks === undefined ? {} : { teamStore: team }) });
      if (hooks !== undefined) {
        const path = join(dir, '.claude', 'settings.json');
        writeFileSync(
          path,
          readFileSync(path, 'utf8').replaceAll('=1 node ', `=1 CREDENCE_DATABASE_SCHEMA=${hooks} node `),
        );
      }
      const mcp = parse(readFileSync(join(dir, '.mcp.json'), 'utf8'));
      if (server !== undefined) mcp.mcpServers.credence.env = { CREDENCE_DATABASE_SCHEMA: server };
      writeFileSync(join(dir, '.mcp.json'), JSON.stringify(mcp));
      const report = setUpClaudeCode({ projectDir: dir, ...launch, teamStore: team });
      expect(report.warnings).toHaveLength(1);
      return `${report.warnings?.[0]} | ${[...new Set(hookCommands(dir).values())]} | ${JSON.stringify(mcpEnv(dir))}`;
    };
    const pair = `CREDENCE_DATABASE_SCHEMA=team_a ${NODE_COMMAND}`;
    expect(split('team_a', undefined)).toBe(
      ".claude/settings.json's hook commands name schema team_a but .mcp.json's credence server none (public): " +
        `init kept team_a (from .claude/settings.json) in both | CREDENCE_REQUIRE_DATABASE_URL=1 ${pair} | ` +
        '{"CREDENCE_REQUIRE_DATABASE_URL":"1","CREDENCE_DATABASE_SCHEMA":"team_a"}',
    );
    expect(split(undefined, 'team_a')).toBe(
      ".claude/settings.json's hook commands name schema none (public) but .mcp.json's credence server team_a: " +
        `init kept team_a (from .mcp.json) in both | CREDENCE_REQUIRE_DATABASE_URL=1 ${pair} | ` +
        '{"CREDENCE_DATABASE_SCHEMA":"team_a","CREDENCE_REQUIRE_DATABASE_URL":"1"}',
    );
    expect(split('team_a', 'team_b')).toContain('init kept team_a (from .claude/settings.json) in both');
  });

  it('refuses invalid JSON and an mcpServers that is not an object', () => {
    expect(codeOf(() => mergeMcpConfig('{,}'))).toBe('INVALID_INPUT');
    expect(codeOf(() => removeMcpConfig('{"mcpServers": 3}'))).toBe('INVALID_INPUT');
  });
});

describe('setUpClaudeCode', () => {
  it('writes settings, .mcp.json, the skills folder and the default observe.json; run again, the same bytes', () => {
    const dir = project();
    const first = setUpClaudeCode({ projectDir: dir });
    expect(first.files.map((f) => [f.file, f.status])).toEqual([
      ['.claude/settings.json', 'created'],
      ['.mcp.json', 'created'],
      ['.claude/skills/', 'created'],
      ['.credence/observe.json', 'created'],
    ]);
    expect(existsSync(join(dir, '.claude', 'skills'))).toBe(true);
    expect(parse(readFileSync(join(dir, '.credence', 'observe.json'), 'utf8'))).toEqual(DEFAULT_OBSERVE_CONFIG);
    const bytes = ['.claude/settings.json', '.mcp.json', '.credence/observe.json'].map((f) =>
      readFileSync(join(dir, f), 'utf8'),
    );
    const second = setUpClaudeCode({ projectDir: dir });
    expect(second.files.every((f) => f.status === 'unchanged')).toBe(true);
    expect(
      ['.claude/settings.json', '.mcp.json', '.credence/observe.json'].map((f) => readFileSync(join(dir, f), 'utf8')),
    ).toEqual(bytes);
  });

  it('never overwrites an existing observe.json', () => {
    const dir = project();
    mkdirSync(join(dir, '.credence'));
    writeFileSync(join(dir, '.credence', 'observe.json'), '{"commits": false}');
    setUpClaudeCode({ projectDir: dir });
    expect(readFileSync(join(dir, '.credence', 'observe.json'), 'utf8')).toBe('{"commits": false}');
  });

  it('writes nothing to either file when one of them is not valid JSON, and names it', () => {
    const dir = project();
    writeFileSync(join(dir, '.mcp.json'), '{"mcpServers": ');
    const error = thrown(() => setUpClaudeCode({ projectDir: dir }));
    expect(isCredenceError(error, 'INVALID_INPUT')).toBe(true);
    expect((error as CredenceError).details?.file).toBe(join(dir, '.mcp.json'));
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(existsSync(join(dir, '.credence'))).toBe(false);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe('{"mcpServers": ');
  });

  it('removing creates no file, keeps the skills and observe.json, and says when nothing was there', () => {
    const dir = project();
    const none = setUpClaudeCode({ projectDir: dir, remove: true });
    expect(none.files.map((f) => f.status)).toEqual(['absent', 'absent']);
    expect(existsSync(join(dir, '.mcp.json'))).toBe(false);
    setUpClaudeCode({ projectDir: dir });
    const removed = setUpClaudeCode({ projectDir: dir, remove: true });
    expect(removed.files.map((f) => [f.file, f.status])).toEqual([
      ['.claude/settings.json', 'updated'],
      ['.mcp.json', 'updated'],
      ['.claude/skills/', 'unchanged'],
      ['.credence/observe.json', 'unchanged'],
    ]);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(join(dir, '.credence', 'observe.json'))).toBe(true);
  });

  it('finds the project at the git top-level, else uses the working directory', () => {
    const dir = project();
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'src', 'deep'), { recursive: true });
    expect(resolveProjectDir(join(dir, 'src', 'deep'))).toBe(dir);
    const plain = project();
    expect(resolveProjectDir(plain)).toBe(plain);
  });
});

describe('the commands Credence writes (issue 17: never an unpublished npm name)', () => {
  it("defaults to this package's binary by absolute path, run by node, never npx", () => {
    expect(INSTALL_DEFAULTS.command).toBe(`node ${JSON.stringify(PACKAGE_BIN)} hook claude-code`);
    expect(INSTALL_DEFAULTS.mcpServer).toEqual({ command: 'node', args: [PACKAGE_BIN, 'serve', '--stdio'] });
    expect(existsSync(PACKAGE_BIN)).toBe(true);
    const dir = project();
    setUpClaudeCode({ projectDir: dir });
    const written = [
      readFileSync(join(dir, '.mcp.json'), 'utf8'),
      readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'),
    ].join('\n');
    expect(written).not.toMatch(/npx/);
    expect(parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.credence).toEqual({
      command: 'node',
      args: [PACKAGE_BIN, 'serve', '--stdio'],
    });
  });

  it("uses the project's own install when this package is the one in node_modules", () => {
    const dir = project();
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(dirname(dirname(PACKAGE_BIN)), join(dir, 'node_modules', 'credence'));
    expect(launchCommands(dir)).toEqual({
      command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/credence hook claude-code',
      mcpServer: {
        command: 'node',
        args: [join(dir, 'node_modules', 'credence', 'bin', 'credence.cjs'), 'serve', '--stdio'],
      },
    });
  });
});

describe('containment: links planted in a cloned project (issue 17, red team 5)', () => {
  /** Every file under `dir`, relative, links not followed. */
  const listing = (dir: string): string[] =>
    readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();

  for (const planted of [
    '.claude',
    '.claude/settings.json',
    '.claude/skills',
    '.mcp.json',
    '.credence',
    '.credence/observe.json',
  ]) {
    it(`refuses a ${planted} link leading outside the project, naming it, and writes nothing anywhere`, () => {
      const dir = project();
      const outside = project();
      const isFolder = !planted.endsWith('.json');
      const target = join(outside, 'target');
      if (isFolder) mkdirSync(target);
      else writeFileSync(target, '{}');
      mkdirSync(dirname(join(dir, planted)), { recursive: true });
      symlinkSync(target, join(dir, planted));
      const insideBefore = listing(dir);
      const outsideBefore = listing(outside);
      const error = thrown(() => setUpClaudeCode({ projectDir: dir }));
      expect(isCredenceError(error, 'PATH_OUTSIDE_ROOT')).toBe(true);
      expect((error as CredenceError).details?.link).toBe(join(dir, planted));
      expect((error as CredenceError).message).toContain(join(dir, planted));
      expect(listing(dir)).toEqual(insideBefore);
      expect(listing(outside)).toEqual(outsideBefore);
      if (!isFolder) expect(readFileSync(target, 'utf8')).toBe('{}');
    });
  }

  it('refuses a dangling link leading outside, and a remove through a planted .mcp.json link', () => {
    const dir = project();
    const outside = project();
    symlinkSync(join(outside, 'not-yet'), join(dir, '.claude'));
    expect(codeOf(() => setUpClaudeCode({ projectDir: dir }))).toBe('PATH_OUTSIDE_ROOT');
    expect(existsSync(join(outside, 'not-yet'))).toBe(false);
    const other = project();
    writeFileSync(join(outside, 'mcp.json'), JSON.stringify({ mcpServers: { credence: { command: 'x' } } }));
    symlinkSync(join(outside, 'mcp.json'), join(other, '.mcp.json'));
    expect(codeOf(() => setUpClaudeCode({ projectDir: other, remove: true }))).toBe('PATH_OUTSIDE_ROOT');
    expect(parse(readFileSync(join(outside, 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { credence: { command: 'x' } },
    });
  });

  it('follows a link that stays inside the project', () => {
    const dir = project();
    mkdirSync(join(dir, 'config', 'claude'), { recursive: true });
    symlinkSync(join(dir, 'config', 'claude'), join(dir, '.claude'));
    setUpClaudeCode({ projectDir: dir });
    expect(existsSync(join(dir, 'config', 'claude', 'settings.json'))).toBe(true);
    expect(existsSync(join(dir, 'config', 'claude', 'skills'))).toBe(true);
  });
});
