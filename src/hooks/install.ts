/**
 * @module hooks/install
 * `credence init --claude-code`: merges Credence's hook entries into `.claude/settings.json` and its MCP
 * server into `.mcp.json`, creates `.claude/skills/` and `.credence/observe.json` (never overwritten);
 * `--remove` takes out exactly Credence's entries. The merges are pure, and every write is planned
 * before any is made, so invalid JSON leaves every file as it was. Everything else is kept in order;
 * Credence's hooks (commands running `credence hook claude-code`) are replaced in place, never duplicated; an
 * unchanged file is not written; removing drops a container only when it empties it, and keeps `.mcp.json`, the
 * skills folder and observe.json. On a team store both run with CREDENCE_REQUIRE_DATABASE_URL=1 (teamStoreLaunch).
 */
import { OBSERVE_DEFAULTS } from './signals.js';
import { existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CredenceError, isCredenceError } from '../core/errors.js';
import { normalizeMemoryPath } from '../platform/files.js';
import { REQUIRE_URL_VARIABLE, SCHEMA_NAME, SCHEMA_VARIABLE } from '../platform/paths.js';
import { resolveScope } from '../platform/git-scope.js';
import { withoutBom } from '../core/text/plain-text.js';

/** The Claude Code events Credence handles, with the settings of their hook entry. */
export const CLAUDE_CODE_HOOKS: readonly Readonly<HookSpec>[] = Object.freeze([
  Object.freeze({ event: 'SessionStart', timeout: 10 }),
  Object.freeze({ event: 'UserPromptSubmit', timeout: 5 }),
  Object.freeze({ event: 'PreToolUse', timeout: 2, matcher: '*' }),
  Object.freeze({ event: 'PostToolUse', timeout: 5, matcher: '*', async: true }),
  Object.freeze({ event: 'PostToolUseFailure', timeout: 5, matcher: '*', async: true }),
  Object.freeze({ event: 'Stop', timeout: 10 }),
  Object.freeze({ event: 'SubagentStop', timeout: 10 }),
  Object.freeze({ event: 'SessionEnd', timeout: 10, async: true }),
]);

export interface HookSpec {
  event: string;
  /** Seconds Claude Code waits for the command. */
  timeout: number;
  /** Tool events only. */
  matcher?: string;
  /** Claude Code runs the command in the background (observing events only: their output is not used). */
  async?: boolean;
}

/**
 * This package's executable, by absolute path: `bin/credence.cjs` of the package this file runs
 * from (compiled, `dist/src/hooks/`, or as source under the tests, `src/hooks/`).
 */
export const PACKAGE_BIN = ((): string => {
  const [fromSource, fromDist] = ['../../bin/credence.cjs', '../../../bin/credence.cjs'].map((path) =>
    fileURLToPath(new URL(path, import.meta.url)),
  ) as [string, string];
  return existsSync(fromSource) ? fromSource : fromDist;
})();

/**
 * What Credence writes when the project has no copy of it installed: this package's binary by
 * absolute path, run by node. Never `npx credence`: the name is not on the npm registry, and an
 * unpublished name in a config is a name someone else can register.
 */
export const INSTALL_DEFAULTS = Object.freeze({
  /** The hook command. @default 'node "<this package>/bin/credence.cjs" hook claude-code' */
  command: `node ${JSON.stringify(PACKAGE_BIN)} hook claude-code`,
  /**
   * The `credence` entry of `.mcp.json`'s `mcpServers`. @default { command: 'node', args: ['<this
   * package>/bin/credence.cjs', 'serve', '--stdio'] }
   */
  mcpServer: Object.freeze({ command: 'node', args: Object.freeze([PACKAGE_BIN, 'serve', '--stdio']) }),
});

/**
 * The hook command and MCP server entry for a project; both start on this machine without a
 * registry. When this package is the one installed in the project (`node_modules/credence`, also
 * as a link to this folder): the hook runs the project's bin through `$CLAUDE_PROJECT_DIR`, which
 * Claude Code's hook shell sets (the same on every clone), and the MCP server is
 * `node <project>/node_modules/credence/bin/credence.cjs` by absolute path (Claude Code expands
 * `${VAR}` in `.mcp.json` from its own environment, where `CLAUDE_PROJECT_DIR` is not promised).
 * Otherwise `INSTALL_DEFAULTS`: this package's binary by absolute path. Never `npx`, which would also
 * resolve the package again on every tool call.
 */
export function launchCommands(projectDir: string): { command: string; mcpServer: McpServerEntry } {
  const installed = join(resolve(projectDir), 'node_modules', 'credence', 'bin', 'credence.cjs');
  if (!sameFile(installed, PACKAGE_BIN))
    return { command: INSTALL_DEFAULTS.command, mcpServer: INSTALL_DEFAULTS.mcpServer };
  return {
    command: '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/credence hook claude-code',
    mcpServer: { command: 'node', args: [installed, 'serve', '--stdio'] },
  };
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

/**
 * The automatic-observation triggers written to `.credence/observe.json` when it does not exist: the rules' defaults.
 */
export const DEFAULT_OBSERVE_CONFIG = OBSERVE_DEFAULTS;

/** The project-relative paths Credence writes. */
export const CLAUDE_CODE_FILES = Object.freeze({
  settings: '.claude/settings.json',
  mcp: '.mcp.json',
  skills: '.claude/skills',
  observe: '.credence/observe.json',
});

/** The name of Credence's server in `.mcp.json`. */
export const MCP_SERVER_NAME = 'credence';

const CREDENCE_HOOK = /\bcredence(?:\.c?js)?["']?\s+hook\s+claude-code(?![\w-])/;

/** Whether a hook command is one of Credence's (runs `credence hook claude-code`). */
export const isCredenceHookCommand = (command: string): boolean => CREDENCE_HOOK.test(command);

export interface McpServerEntry {
  command: string;
  args: readonly string[];
  /** Variables the server is started with (`.mcp.json`'s `env`). */
  env?: Readonly<Record<string, string>>;
}

/** One `NAME=value` in front of a command: its name, its value with the quotes taken off, and its text as written. */
export interface LeadingAssignment {
  name: string;
  value: string;
  text: string;
}

/**
 * The one reading of what stands in front of a hook command: the variable assignments (`A=1 B='x y' C="z"`, also
 * after an `env` word), in order, and the command after them (`rest`; an `env` word before assignments is dropped,
 * the shell sets them itself). An unclosed quote, a newline or `;` `&` `|` `<` `>` `(` `)` `` ` `` ends them.
 */
export function leadingAssignments(command: string): { assignments: LeadingAssignment[]; rest: string } {
  const assignments: LeadingAssignment[] = [];
  let at = skipBlanks(command, 0);
  for (;;) {
    const envWord = /^env[ \t]+/.exec(command.slice(at));
    const read = readAssignment(command, envWord === null ? at : skipBlanks(command, at + envWord[0].length));
    if (read === undefined) break;
    assignments.push(read.assignment);
    at = skipBlanks(command, read.end);
  }
  return { assignments, rest: command.slice(at) };
}

const skipBlanks = (text: string, at: number): number => {
  let i = at;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i;
};

function readAssignment(command: string, from: number): { assignment: LeadingAssignment; end: number } | undefined {
  const name = /^([A-Za-z_]\w*)=/.exec(command.slice(from))?.[1];
  if (name === undefined) return undefined;
  let value = '';
  let i = from + name.length + 1;
  while (i < command.length && command[i] !== ' ' && command[i] !== '\t') {
    const c = command[i] as string;
    if (c === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1) return undefined;
      value += command.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      i++;
      while (i < command.length && command[i] !== '"') {
        if (command[i] === '\\' && '"\\$`'.includes(command[i + 1] ?? 'end')) i++;
        value += command[i];
        i++;
      }
      if (i >= command.length) return undefined;
      i++;
    } else if (c === '\\' && i + 1 < command.length && command[i + 1] !== '\n') {
      value += command[i + 1];
      i += 2;
    } else if (';&|<>()`\n\r\\'.includes(c)) {
      return undefined;
    } else {
      value += c;
      i++;
    }
  }
  return { assignment: { name, value, text: command.slice(from, i) }, end: i };
}

/** Credence's own variables in front of the hook command: init writes them, takes them out or replaces them. */
const isOurs = (a: LeadingAssignment): boolean => a.name === REQUIRE_URL_VARIABLE || a.name === SCHEMA_VARIABLE;

/** The variable naming the SQLite file (platform/paths defaultDbPath). */
const DB_VARIABLE = 'CREDENCE_DB';

/** A command without the CREDENCE_DB assignments in front of it (the store chosen is written instead). */
function withoutDb(command: string): string {
  const { assignments, rest } = leadingAssignments(command);
  return [...assignments.filter((a) => a.name !== DB_VARIABLE).map((a) => a.text), rest].join(' ');
}

/** The schema a hook command runs in: its last CREDENCE_DATABASE_SCHEMA assignment (the shell's last one wins). */
const schemaOfCommand = (command: string): string | undefined =>
  leadingAssignments(command).assignments.findLast((a) => a.name === SCHEMA_VARIABLE)?.value;

/** The command without Credence's variables in front (every one of them); the user's own (`FOO=1`) stay. */
function withoutOurVariables(command: string): { others: string[]; rest: string } {
  const { assignments, rest } = leadingAssignments(command);
  return { others: assignments.filter((a) => !isOurs(a)).map((a) => a.text), rest };
}

/** Refuses a schema that is not a plain name before it is written into a shell command or an env. */
function checkSchemaName(schema: string, from: string): void {
  if (!SCHEMA_NAME.test(schema))
    throw new CredenceError(
      'INVALID_INPUT',
      `${SCHEMA_VARIABLE}=${JSON.stringify(schema)} (${from}) is not a PostgreSQL schema name Credence uses ` +
        '(lower-case letters, digits and _, at most 63, not starting with a digit); nothing was written',
      { details: { schema, from } },
    );
}

/**
 * The hook command and MCP server of a project on a team store: run with CREDENCE_REQUIRE_DATABASE_URL=1 (in front
 * of the command, in the server's `env`), so that without CREDENCE_DATABASE_URL they say so and keep nothing
 * rather than learn into the SQLite file. The URL itself, password and all, stays out of the project's files.
 * `schema` (checked: a plain name; `from` says where it was found) is written to both; every other one in front of
 * the command goes, so the shell cannot pick an old one; the user's other variables (`FOO=1`) stay.
 * @throws CredenceError `INVALID_INPUT` when `schema` is not a schema name.
 */
export function teamStoreLaunch(
  launch: { command: string; mcpServer: McpServerEntry },
  schema?: string,
  from = SCHEMA_VARIABLE,
): {
  command: string;
  mcpServer: McpServerEntry;
} {
  if (schema !== undefined) checkSchemaName(schema, from);
  // A schema CREDENCE_DATABASE_SCHEMA chose is written too (a name, no secret): without it in Claude Code's
  // environment the hooks would learn into `public`, the team's turns in no one's schema (review C).
  const named: Record<string, string> = schema === undefined ? {} : { [SCHEMA_VARIABLE]: schema };
  const ours = [`${REQUIRE_URL_VARIABLE}=1`, ...(schema === undefined ? [] : [`${SCHEMA_VARIABLE}=${schema}`])];
  const { others, rest } = withoutOurVariables(launch.command);
  return {
    command: [...ours, ...others, rest].join(' '),
    mcpServer: { ...launch.mcpServer, env: { ...launch.mcpServer.env, [REQUIRE_URL_VARIABLE]: '1', ...named } },
  };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const serialize = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Parses a config file's text; a missing or blank file is `{}`. */
function parseObject(text: string | undefined, file: string): Json {
  const body = withoutBom(text ?? '');
  if (body.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw new CredenceError(
      'INVALID_INPUT',
      `${file} is not valid JSON (${(error as Error).message}); fix or remove it, nothing was written`,
      { cause: error, details: { file } },
    );
  }
  if (!isObject(value))
    throw new CredenceError(
      'INVALID_INPUT',
      `${file} must hold a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}; ` +
        'nothing was written',
      { details: { file } },
    );
  return value;
}

function objectAt(parent: Json, key: string, file: string, path: string): Json | undefined {
  const value = parent[key];
  if (value === undefined) return undefined;
  if (!isObject(value))
    throw new CredenceError(
      'INVALID_INPUT',
      `${file}: "${path}" must be a JSON object, got ${JSON.stringify(value)}; nothing was written`,
      { details: { file, path } },
    );
  return value;
}

/** The outcome of a merge: the new text (the input text itself when nothing changed). */
export interface MergeResult<Change> {
  text: string;
  changed: boolean;
  change: Change;
}

export interface HookChange {
  /** Events that got a Credence entry. */
  added: string[];
  /** Events whose Credence entry was rewritten (another command, timeout, matcher…). */
  updated: string[];
  /** Events whose Credence entries were taken out. */
  removed: string[];
}

function hookEntry(spec: HookSpec, command: string): Json {
  return { type: 'command', command, timeout: spec.timeout, ...(spec.async === true ? { async: true } : {}) };
}

/**
 * Credence's `entry` over the one it replaces: the old entry's own fields stay (a timeout the user raised, a
 * `statusMessage`), Credence's command, type and async go in; a timeout that is not a positive number is Credence's.
 */
function tunedEntry(old: unknown, entry: Json): Json {
  if (!isObject(old)) return entry;
  const { async: _async, ...own } = old;
  const timeout = typeof own.timeout === 'number' && Number.isFinite(own.timeout) && own.timeout > 0;
  return { ...own, ...entry, ...(timeout ? { timeout: own.timeout } : {}) };
}

const isCredenceEntry = (hook: unknown): boolean =>
  isObject(hook) && typeof hook.command === 'string' && isCredenceHookCommand(hook.command);

/**
 * Drops Credence's entries from one event's groups, except `keep`. A group (and the caller, the
 * event) goes only when this empties it. Returns the new array and whether anything was dropped.
 */
function dropCredenceEntries(groups: unknown[], keep?: unknown): { groups: unknown[]; dropped: boolean } {
  let dropped = false;
  const next: unknown[] = [];
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) {
      next.push(group);
      continue;
    }
    const hooks = group.hooks.filter((hook) => hook === keep || !isCredenceEntry(hook));
    if (hooks.length === group.hooks.length) {
      next.push(group);
      continue;
    }
    dropped = true;
    if (hooks.length > 0) {
      group.hooks = hooks;
      next.push(group);
    }
  }
  return { groups: next, dropped };
}

function eventGroups(hooks: Json, event: string, file: string): unknown[] | undefined {
  const groups = hooks[event];
  if (groups === undefined) return undefined;
  if (!Array.isArray(groups))
    throw new CredenceError(
      'INVALID_INPUT',
      `${file}: "hooks.${event}" must be an array of matcher groups, got ${JSON.stringify(groups)}; ` +
        'nothing was written',
      { details: { file, path: `hooks.${event}` } },
    );
  return groups;
}

/**
 * Merges Credence's hook entries into the text of `.claude/settings.json` (`undefined`: the file
 * does not exist). Credence entries on other events (an older install) are taken out.
 * @throws CredenceError `INVALID_INPUT` when the text is not a JSON object or `hooks` has the wrong shape.
 */
export function mergeHookSettings(
  text: string | undefined,
  options: { command?: string; file?: string } = {},
): MergeResult<HookChange> {
  const file = options.file ?? CLAUDE_CODE_FILES.settings;
  const command = options.command ?? INSTALL_DEFAULTS.command;
  checkHookCommand(command);
  const before = parseObject(text, file);
  const settings = parseObject(text, file);
  const hooks = objectAt(settings, 'hooks', file, 'hooks') ?? {};
  const change: HookChange = { added: [], updated: [], removed: [] };
  const ours = new Set<string>(CLAUDE_CODE_HOOKS.map((spec) => spec.event));
  dropCredenceFromEvents(
    hooks,
    Object.keys(hooks).filter((event) => !ours.has(event)),
    file,
    change,
  );
  for (const spec of CLAUDE_CODE_HOOKS) {
    const entry = hookEntry(spec, command);
    const matcher = spec.matcher;
    const newGroup = { ...(matcher === undefined ? {} : { matcher }), hooks: [entry] };
    const groups = eventGroups(hooks, spec.event, file);
    if (groups === undefined) {
      hooks[spec.event] = [newGroup];
      change.added.push(spec.event);
      continue;
    }
    const previous = JSON.stringify(groups);
    const host = groups.find(
      (group) => isObject(group) && Array.isArray(group.hooks) && group.hooks.some(isCredenceEntry),
    );
    if (host === undefined) {
      hooks[spec.event] = [...groups, newGroup];
      change.added.push(spec.event);
      continue;
    }
    // Only the command, its type and async are Credence's: a timeout or another field the user set is kept, and so
    // is the matcher of a group of Credence's alone. In a group of the user's hooks under another matcher, Credence's
    // entry moves to a group of its own. Any other Credence entry is dropped.
    const hostHooks = (host as { hooks: unknown[] }).hooks;
    const index = hostHooks.findIndex(isCredenceEntry);
    const kept = tunedEntry(hostHooks[index], entry);
    let next: unknown[];
    if ((host as Json).matcher === matcher || hostHooks.every(isCredenceEntry)) {
      hostHooks[index] = kept;
      next = dropCredenceEntries(groups, kept).groups;
    } else {
      next = [...dropCredenceEntries(groups).groups, { ...newGroup, hooks: [kept] }];
    }
    hooks[spec.event] = next;
    if (JSON.stringify(next) !== previous) change.updated.push(spec.event);
  }
  if (settings.hooks === undefined) settings.hooks = hooks;
  return finish(text, before, settings, change);
}

/** Takes Credence's entries out of these events' groups, dropping a group or an event it empties. */
function dropCredenceFromEvents(hooks: Json, events: readonly string[], file: string, change: HookChange): void {
  for (const event of events) {
    const groups = eventGroups(hooks, event, file);
    if (groups === undefined) continue;
    const result = dropCredenceEntries(groups);
    if (!result.dropped) continue;
    change.removed.push(event);
    if (result.groups.length === 0) delete hooks[event];
    else hooks[event] = result.groups;
  }
}

/**
 * Every Credence hook command of `.claude/settings.json` (Credence's events first, in their order, then any other);
 * none when the text is not what `mergeHookSettings` reads (it says what is wrong with the file).
 */
function credenceHookCommands(text: string | undefined): string[] {
  let hooks: Json | undefined;
  try {
    hooks = objectAt(parseObject(text, CLAUDE_CODE_FILES.settings), 'hooks', CLAUDE_CODE_FILES.settings, 'hooks');
  } catch {
    return [];
  }
  const events = [...new Set([...CLAUDE_CODE_HOOKS.map((spec) => spec.event), ...Object.keys(hooks ?? {})])];
  return events.flatMap((event) => {
    const groups = hooks?.[event];
    return (Array.isArray(groups) ? groups : []).flatMap((group) =>
      isObject(group) && Array.isArray(group.hooks)
        ? group.hooks.filter(isCredenceEntry).map((hook) => (hook as { command: string }).command)
        : [],
    );
  });
}

/** The schema in the env of `.mcp.json`'s credence server, and whether there is such a server. */
function mcpSchema(text: string | undefined): { server: boolean; schema?: string } {
  try {
    const server = objectAt(
      parseObject(text, CLAUDE_CODE_FILES.mcp),
      'mcpServers',
      CLAUDE_CODE_FILES.mcp,
      'mcpServers',
    )?.[MCP_SERVER_NAME];
    const schema = isObject(server) && isObject(server.env) ? server.env[SCHEMA_VARIABLE] : undefined;
    return { server: isObject(server), ...(typeof schema === 'string' ? { schema } : {}) };
  } catch {
    return { server: false }; // mergeMcpConfig says what is wrong with the file
  }
}

/**
 * What a re-init keeps of the earlier hook commands and server: the user's other variables in front of the
 * commands (`FOO=1`: the first entry's that sets it, unless the `--hook-command` sets it too), and on a team
 * store naming no schema, the one already written: the `--hook-command`'s, else the hook commands' (any entry),
 * else the server's. When the two files disagree, `warnings` says so and which one both now use.
 */
function keptLaunch(
  settingsText: string | undefined,
  mcpText: string | undefined,
  given: string | undefined,
): { others: string[]; schema?: { name: string; from: string }; warnings: string[]; db?: string } {
  const commands = credenceHookCommands(settingsText);
  const byName = new Map<string, string>();
  // The SQLite file an earlier `init --db` put in front of the commands, kept when this init names none.
  const db = commands
    .flatMap((command) => leadingAssignments(command).assignments)
    .find((a) => a.name === DB_VARIABLE)?.value;
  const givenNames = new Set(given === undefined ? [] : leadingAssignments(given).assignments.map((a) => a.name));
  for (const command of commands) {
    const own = new Map(leadingAssignments(command).assignments.map((a) => [a.name, a]));
    for (const [name, a] of own) if (!isOurs(a) && !byName.has(name) && !givenNames.has(name)) byName.set(name, a.text);
  }
  const others = [...byName.values()];
  const warnings: string[] = [];
  const pin = db === undefined || db === '' || givenNames.has(DB_VARIABLE) ? {} : { db };
  const inGiven = given === undefined ? undefined : schemaOfCommand(given);
  if (inGiven !== undefined)
    return { others, schema: { name: inGiven, from: 'in the hook command given' }, warnings, ...pin };
  const settings = CLAUDE_CODE_FILES.settings;
  const hookSchemas = commands.map((command) => schemaOfCommand(command) ?? 'none (public)');
  const inHooks = commands.map(schemaOfCommand).find((schema) => schema !== undefined);
  if (new Set(hookSchemas).size > 1)
    warnings.push(
      `Credence's hook commands in ${settings} name different schemas (${[...new Set(hookSchemas)].join(', ')}): ` +
        `every one now runs in ${inHooks}`,
    );
  const mcp = mcpSchema(mcpText);
  const schema = inHooks ?? mcp.schema;
  if (commands.length > 0 && mcp.server && inHooks !== mcp.schema)
    warnings.push(
      `${settings}'s hook commands name schema ${inHooks ?? 'none (public)'} but ${CLAUDE_CODE_FILES.mcp}'s ` +
        `credence server ${mcp.schema ?? 'none (public)'}: init kept ${schema} (from ` +
        `${inHooks === undefined ? CLAUDE_CODE_FILES.mcp : settings}) in both`,
    );
  const from = inHooks === undefined ? `in ${CLAUDE_CODE_FILES.mcp}` : `in front of a hook command in ${settings}`;
  return {
    others,
    ...(schema === undefined ? {} : { schema: { name: schema, from } }),
    warnings,
    ...pin,
  };
}

/**
 * Takes Credence's hook entries out of the text of `.claude/settings.json`; everything else stays.
 * @throws CredenceError `INVALID_INPUT` when the text is not a JSON object or `hooks` has the wrong shape.
 */
export function removeHookSettings(text: string | undefined, options: { file?: string } = {}): MergeResult<HookChange> {
  const file = options.file ?? CLAUDE_CODE_FILES.settings;
  const change: HookChange = { added: [], updated: [], removed: [] };
  const before = parseObject(text, file);
  const settings = parseObject(text, file);
  const hooks = objectAt(settings, 'hooks', file, 'hooks');
  if (hooks === undefined) return finish(text, before, settings, change);
  dropCredenceFromEvents(hooks, Object.keys(hooks), file, change);
  if (change.removed.length > 0 && Object.keys(hooks).length === 0) delete settings.hooks;
  return finish(text, before, settings, change);
}

export type McpChange = 'added' | 'updated' | 'unchanged' | 'removed' | 'absent';

/**
 * Sets the `credence` server of `.mcp.json`'s `mcpServers` (in place when it is there).
 * @throws CredenceError `INVALID_INPUT` when the text is not a JSON object or `mcpServers` is not one.
 */
export function mergeMcpConfig(
  text: string | undefined,
  options: { server?: McpServerEntry; file?: string } = {},
): MergeResult<McpChange> {
  const file = options.file ?? CLAUDE_CODE_FILES.mcp;
  const server: McpServerEntry = options.server ?? INSTALL_DEFAULTS.mcpServer;
  const before = parseObject(text, file);
  const config = parseObject(text, file);
  const servers = objectAt(config, 'mcpServers', file, 'mcpServers') ?? {};
  const existing = servers[MCP_SERVER_NAME];
  // The variables someone added to the entry are kept; Credence's own is set, or taken out, as the store asks.
  const kept: Record<string, unknown> = { ...(isObject(existing) && isObject(existing.env) ? existing.env : {}) };
  // A schema beside the requirement goes with it (back on SQLite) and changes when the new entry names one; on a
  // team store naming none it stays: someone may have written it there, and init cannot tell theirs from its own.
  if (kept[REQUIRE_URL_VARIABLE] !== undefined && server.env?.[REQUIRE_URL_VARIABLE] === undefined)
    delete kept.CREDENCE_DATABASE_SCHEMA;
  const env: Record<string, unknown> = { ...kept, ...server.env };
  if (server.env?.[REQUIRE_URL_VARIABLE] === undefined) delete env[REQUIRE_URL_VARIABLE];
  servers[MCP_SERVER_NAME] = {
    command: server.command,
    args: [...server.args],
    ...(Object.keys(env).length === 0 ? {} : { env }),
  };
  if (config.mcpServers === undefined) config.mcpServers = servers;
  const change: McpChange =
    existing === undefined
      ? 'added'
      : JSON.stringify(existing) === JSON.stringify(servers[MCP_SERVER_NAME])
        ? 'unchanged'
        : 'updated';
  return finish(text, before, config, change);
}

/**
 * Takes the `credence` server out of `.mcp.json`; `mcpServers` goes only when that empties it.
 * @throws CredenceError `INVALID_INPUT` when the text is not a JSON object or `mcpServers` is not one.
 */
export function removeMcpConfig(text: string | undefined, options: { file?: string } = {}): MergeResult<McpChange> {
  const file = options.file ?? CLAUDE_CODE_FILES.mcp;
  const before = parseObject(text, file);
  const config = parseObject(text, file);
  const servers = objectAt(config, 'mcpServers', file, 'mcpServers');
  if (servers === undefined || !Object.hasOwn(servers, MCP_SERVER_NAME)) return finish(text, before, config, 'absent');
  delete servers[MCP_SERVER_NAME];
  if (Object.keys(servers).length === 0) delete config.mcpServers;
  return finish(text, before, config, 'removed');
}

function finish<Change>(text: string | undefined, before: Json, after: Json, change: Change): MergeResult<Change> {
  const changed = text === undefined || JSON.stringify(before) !== JSON.stringify(after);
  return { text: changed ? serialize(after) : text, changed, change };
}

function checkHookCommand(command: string): void {
  if (!isCredenceHookCommand(command)) {
    throw new CredenceError(
      'INVALID_INPUT',
      'the hook command must run `credence hook claude-code` (so that Credence finds its entries again), ' +
        `got ${JSON.stringify(command)}`,
      { details: { command } },
    );
  }
}

/** The project of a working directory: its git top-level, else the directory itself. */
export function resolveProjectDir(cwd: string): string {
  return resolveScope({ cwd }).root ?? resolve(cwd);
}

export type FileStatus = 'created' | 'updated' | 'unchanged' | 'absent';

export interface FileReport {
  /** Project-relative path. */
  file: string;
  status: FileStatus;
  /** One line for people: what was done to the file. */
  message: string;
  /** `.claude/settings.json` only: the events touched. */
  events?: HookChange;
}

export interface ClaudeCodeReport {
  project: string;
  action: 'install' | 'remove';
  files: FileReport[];
  /**
   * For a team store: the variables Claude Code's environment must hold for the hooks and MCP server, which refuse
   * to run on the SQLite file without them (CREDENCE_DATABASE_URL, and CREDENCE_DATABASE_SCHEMA when it chose one).
   */
  needsEnv?: string[];
  /** What init found amiss and how it settled it (Credence's hook commands and server naming different schemas). */
  warnings?: string[];
  /**
   * The SQLite file the hooks stay pinned to (CREDENCE_DB, written by an earlier `init --db`), kept because this init
   * named no store (no --db, no CREDENCE_DB): Claude Code keeps learning there, whatever store this init opened.
   */
  pinnedStore?: string;
}

export interface ClaudeCodePlan {
  report: ClaudeCodeReport;
  /** Absolute paths and texts to write, in order. */
  writes: { path: string; text: string }[];
  /** Absolute folders to create. */
  folders: string[];
}

export interface ClaudeCodeOptions {
  /** The project folder (see `resolveProjectDir`). */
  projectDir: string;
  /** Take Credence's entries out instead of adding them. @default false */
  remove?: boolean;
  /** The hook command. @default launchCommands(projectDir).command */
  command?: string;
  /** The MCP server entry. @default launchCommands(projectDir).mcpServer */
  mcpServer?: McpServerEntry;
  /**
   * A team store: the variables Claude Code's environment must give the hooks and the MCP server, which then run with
   * CREDENCE_REQUIRE_DATABASE_URL=1 (`teamStoreLaunch`). Undefined for the SQLite file.
   */
  teamStore?: { needsEnv: string[]; schema?: string };
  /**
   * The SQLite file the user chose (`--db` or CREDENCE_DB), an absolute path: written as CREDENCE_DB in front of
   * the hook command and in the server's `env`, so that Claude Code learns into it whatever shell it starts from.
   * Undefined (the default store, or a team store): an earlier CREDENCE_DB there is kept as it is.
   */
  store?: string;
}

/** A value as a shell reads it back: as it is when it holds nothing a shell would split or expand, else quoted. */
const shellWord = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

function readIfExists(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CredenceError('INVALID_INPUT', `cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
      details: { file: path },
    });
  }
}

const events = (names: string[]): string => `${names.length} hook event${names.length === 1 ? '' : 's'}`;

function hookMessage(file: string, change: HookChange, status: FileStatus, remove: boolean): string {
  if (remove)
    return change.removed.length === 0
      ? `${file}: no Credence hooks to remove`
      : `removed ${events(change.removed)} from ${file}`;
  if (status === 'unchanged')
    return `${file} unchanged (${events(CLAUDE_CODE_HOOKS.map((h) => h.event))} already installed)`;
  const parts = [
    ...(change.added.length > 0 ? [`added ${events(change.added)}`] : []),
    ...(change.updated.length > 0 ? [`updated ${events(change.updated)}`] : []),
    ...(change.removed.length > 0 ? [`removed ${events(change.removed)} Credence no longer uses`] : []),
  ];
  if (parts.length === 0) return `${file} ${status}`;
  return (
    `${parts.join(', ')} ${change.added.length > 0 ? 'to' : 'in'} ${file}` +
    `${status === 'created' ? ' (created)' : ''}`
  );
}

function mcpMessage(file: string, change: McpChange, status: FileStatus): string {
  switch (change) {
    case 'added':
      return `added the credence MCP server to ${file}${status === 'created' ? ' (created)' : ''}`;
    case 'updated':
      return `updated the credence MCP server in ${file}`;
    case 'unchanged':
      return `${file} unchanged (the credence MCP server is already there)`;
    case 'removed':
      return `removed the credence MCP server from ${file} (the file is kept)`;
    case 'absent':
      return `${file}: no credence MCP server to remove`;
  }
}

/**
 * Reads the project's files and plans the writes, writing nothing.
 * @throws CredenceError `INVALID_INPUT` when a file is not valid JSON (naming it and the parse error)
 *   or the hook command would not be recognised as Credence's.
 */
export function prepareClaudeCode(options: ClaudeCodeOptions): ClaudeCodePlan {
  const project = resolve(options.projectDir);
  const remove = options.remove === true;
  const at = (file: string): string => join(project, file);
  const plan: ClaudeCodePlan = {
    report: {
      project,
      action: remove ? 'remove' : 'install',
      files: [],
      ...(remove || options.teamStore === undefined ? {} : { needsEnv: [...options.teamStore.needsEnv] }),
    },
    writes: [],
    folders: [],
  };
  // Before anything is read: a planted link (a cloned repository's `.claude` → ~/.ssh) must not
  // turn a write under the project into one outside it. Removing writes only the two config files.
  const written = remove ? [CLAUDE_CODE_FILES.settings, CLAUDE_CODE_FILES.mcp] : Object.values(CLAUDE_CODE_FILES);
  for (const file of written) checkInsideProject(project, file);
  const launch =
    remove || (options.command !== undefined && options.mcpServer !== undefined) ? undefined : launchCommands(project);
  const given = { command: options.command ?? launch?.command, mcpServer: options.mcpServer ?? launch?.mcpServer };
  const statusOf = (text: string | undefined, changed: boolean): FileStatus =>
    !changed ? (text === undefined ? 'absent' : 'unchanged') : text === undefined ? 'created' : 'updated';

  const settingsFile = CLAUDE_CODE_FILES.settings;
  const settingsText = readIfExists(at(settingsFile));
  const mcpFile = CLAUDE_CODE_FILES.mcp;
  const mcpText = readIfExists(at(mcpFile));
  // A re-init keeps what stands in front of the hook commands (the user's variables; on a team store naming no
  // schema, the one written there or in the server's env): another shell never moves the hooks to public.
  const kept = remove ? undefined : keptLaunch(settingsText, mcpText, options.command);
  // The store the user chose replaces any CREDENCE_DB in front of the commands (walk 16, item 5).
  const store = remove || options.teamStore !== undefined ? undefined : options.store;
  const pinned = store === undefined ? [] : [`${DB_VARIABLE}=${shellWord(store)}`];
  const others = (kept?.others ?? []).filter((text) => store === undefined || !text.startsWith(`${DB_VARIABLE}=`));
  const base =
    given.command === undefined
      ? undefined
      : [...pinned, ...others, store === undefined ? given.command : withoutDb(given.command)].join(' ');
  const variable = options.teamStore?.schema;
  const schema = variable === undefined ? kept?.schema : { name: variable, from: SCHEMA_VARIABLE };
  const team =
    options.teamStore === undefined || base === undefined || given.mcpServer === undefined
      ? undefined
      : teamStoreLaunch({ command: base, mcpServer: given.mcpServer }, schema?.name, schema?.from);
  if (team !== undefined && variable === undefined && kept !== undefined && kept.warnings.length > 0)
    plan.report.warnings = kept.warnings;
  if (store === undefined && options.teamStore === undefined && kept?.db !== undefined)
    plan.report.pinnedStore = kept.db;
  // On the SQLite file Credence's variables go from the command (the server's env: mergeMcpConfig).
  const plain = base === undefined ? undefined : withoutOurVariables(base);
  const command = team?.command ?? (plain === undefined ? undefined : [...plain.others, plain.rest].join(' '));
  const mcpServer =
    team?.mcpServer ??
    (store === undefined || given.mcpServer === undefined
      ? given.mcpServer
      : { ...given.mcpServer, env: { ...given.mcpServer.env, [DB_VARIABLE]: store } });
  // Errors name the absolute path of the file.
  const hooks = remove
    ? removeHookSettings(settingsText, { file: at(settingsFile) })
    : mergeHookSettings(settingsText, { file: at(settingsFile), ...(command === undefined ? {} : { command }) });
  const mcp = remove
    ? removeMcpConfig(mcpText, { file: at(mcpFile) })
    : mergeMcpConfig(mcpText, { file: at(mcpFile), ...(mcpServer === undefined ? {} : { server: mcpServer }) });
  // Removing never creates a file that is not there.
  const hooksChanged = hooks.changed && !(remove && settingsText === undefined);
  const mcpChanged = mcp.changed && !(remove && mcpText === undefined);

  const hooksStatus = statusOf(settingsText, hooksChanged);
  plan.report.files.push({
    file: settingsFile,
    status: hooksStatus,
    message: hookMessage(settingsFile, hooks.change, hooksStatus, remove),
    events: hooks.change,
  });
  if (hooksChanged) plan.writes.push({ path: at(settingsFile), text: hooks.text });
  const mcpStatus = statusOf(mcpText, mcpChanged);
  plan.report.files.push({ file: mcpFile, status: mcpStatus, message: mcpMessage(mcpFile, mcp.change, mcpStatus) });
  if (mcpChanged) plan.writes.push({ path: at(mcpFile), text: mcp.text });

  const skills = CLAUDE_CODE_FILES.skills;
  const observe = CLAUDE_CODE_FILES.observe;
  if (remove) {
    if (existsSync(at(skills)))
      plan.report.files.push({
        file: `${skills}/`,
        status: 'unchanged',
        message: `kept ${skills}/ (it holds your skills)`,
      });
    if (existsSync(at(observe)))
      plan.report.files.push({
        file: observe,
        status: 'unchanged',
        message: `kept ${observe} (your observation triggers)`,
      });
    return plan;
  }
  if (existsSync(at(skills))) {
    if (!statSync(at(skills)).isDirectory())
      throw new CredenceError('INVALID_INPUT', `${at(skills)} exists and is not a folder; nothing was written`, {
        details: { file: skills },
      });
    plan.report.files.push({
      file: `${skills}/`,
      status: 'unchanged',
      message: `${skills}/ is there (credence evolve writes the skills Claude Code loads there)`,
    });
  } else {
    plan.folders.push(at(skills));
    plan.report.files.push({
      file: `${skills}/`,
      status: 'created',
      message: `created ${skills}/ (credence evolve writes the skills Claude Code loads there)`,
    });
  }
  if (existsSync(at(observe))) {
    plan.report.files.push({ file: observe, status: 'unchanged', message: `${observe} is there (kept as it is)` });
  } else {
    plan.writes.push({ path: at(observe), text: serialize(DEFAULT_OBSERVE_CONFIG) });
    plan.report.files.push({
      file: observe,
      status: 'created',
      message: `created ${observe} with the default observation triggers`,
    });
  }
  return plan;
}

/**
 * Writes a plan of `prepareClaudeCode` (folders first, then files). Every path is checked again
 * first, all of them before the first write, in case a link appeared since the plan was made.
 * @throws CredenceError `PATH_OUTSIDE_ROOT` as `checkInsideProject`, with nothing written.
 */
export function applyClaudeCodePlan(plan: ClaudeCodePlan): void {
  const project = plan.report.project;
  for (const path of [...plan.folders, ...plan.writes.map((write) => write.path)])
    checkInsideProject(project, relative(project, path).split(sep).join('/'));
  for (const folder of plan.folders) mkdirSync(folder, { recursive: true });
  for (const write of plan.writes) {
    mkdirSync(dirname(write.path), { recursive: true });
    writeFileSync(write.path, write.text);
  }
}

/**
 * Refuses a project-relative path that is, or passes through, a symbolic link leading outside the
 * project (links that stay inside are followed). Each prefix is checked in turn with
 * `normalizeMemoryPath` (files.ts, the containment rules of file-backed memories), so the error
 * names the link itself. A path that does not exist yet is fine.
 * @throws CredenceError `PATH_OUTSIDE_ROOT` naming the link and where it leads.
 */
export function checkInsideProject(project: string, file: string): void {
  const parts = file.split('/');
  for (let i = 1; i <= parts.length; i += 1) {
    const prefix = parts.slice(0, i).join('/');
    try {
      normalizeMemoryPath(project, prefix);
    } catch (error) {
      if (!isCredenceError(error, 'PATH_OUTSIDE_ROOT')) throw error;
      const target = error.details?.resolvedTo;
      const link = join(project, prefix);
      throw new CredenceError(
        'PATH_OUTSIDE_ROOT',
        `${link} is a symbolic link leading outside the project` +
          `${typeof target === 'string' ? ` (to ${target})` : ''}; ` +
          `Credence writes ${file} only inside ${project}. ` +
          'Remove the link or make it point inside the project; nothing was written',
        {
          cause: error,
          details: { file, link, project, ...(typeof target === 'string' ? { resolvedTo: target } : {}) },
        },
      );
    }
  }
}

/** Installs (or with `remove`, uninstalls) Credence for Claude Code in a project; returns the report. */
export function setUpClaudeCode(options: ClaudeCodeOptions): ClaudeCodeReport {
  const plan = prepareClaudeCode(options);
  applyClaudeCodePlan(plan);
  return plan.report;
}
