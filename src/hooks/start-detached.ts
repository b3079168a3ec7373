/**
 * @module hooks/start-detached
 * Starts a program detached (a session of its own; stdin and stdout ignored; stderr to a file descriptor or
 * ignored) and returns without waiting for it. node:child_process is not loaded when it can be helped: it
 * loads node:net, node:dgram and the stream modules, some 5 ms of a stop hook that otherwise costs little
 * more than starting Node. Node's own process handle, the one child_process wraps, is used on the Node
 * versions whose handle this was written against; anywhere else, or when it is refused, child_process.spawn.
 */

/** What Node's process handle (`process.binding('process_wrap').Process`) offers. */
interface ProcessHandle {
  spawn(options: object): number;
  unref(): void;
  close(): void;
  onexit?: () => void;
}
type ProcessHandleClass = new () => ProcessHandle;

/** The Node majors whose process handle takes the options below (the ones child_process gives it). */
const KNOWN_MAJORS = new Set([20, 22, 24]);

/**
 * Node's process handle class, or undefined where it is not offered. `process.binding` is deprecated (DEP0111):
 * the warning it may print is held back, so that a hook's stderr stays the hook's own.
 */
export function processHandleClass(host: NodeJS.Process = process): ProcessHandleClass | undefined {
  if (!KNOWN_MAJORS.has(Number(host.versions.node.split('.')[0]))) return undefined;
  const legacy = host as unknown as { binding?: (name: string) => unknown };
  if (typeof legacy.binding !== 'function') return undefined;
  const quiet = host.noDeprecation;
  host.noDeprecation = true;
  try {
    const Process = (legacy.binding('process_wrap') as { Process?: unknown } | undefined)?.Process;
    return typeof Process === 'function' ? (Process as ProcessHandleClass) : undefined;
  } catch {
    return undefined;
  } finally {
    host.noDeprecation = quiet;
  }
}

export interface DetachedStart {
  /** The program (an absolute path) and its arguments. */
  file: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Where the program's stderr goes: an open file descriptor, or nowhere. */
  stderr?: number;
}

/** Starts `start`; returns undefined once started, or what kept it from starting. */
export async function startDetached(
  start: DetachedStart,
  Handle: ProcessHandleClass | undefined = processHandleClass(),
): Promise<string | undefined> {
  const stderr = start.stderr === undefined ? { type: 'ignore' } : { type: 'fd', fd: start.stderr };
  if (Handle !== undefined) {
    try {
      const handle = new Handle();
      handle.onexit = () => handle.close();
      const code = handle.spawn({
        file: start.file,
        args: [start.file, ...start.args],
        envPairs: Object.entries(start.env).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`])),
        stdio: [{ type: 'ignore' }, { type: 'ignore' }, stderr],
        detached: true,
        windowsHide: true,
      });
      if (code === 0) {
        handle.unref();
        return undefined;
      }
      handle.close();
    } catch {
      // Not the handle this was written for: child_process below.
    }
  }
  try {
    const { spawn } = await import('node:child_process');
    const child = spawn(start.file, [...start.args], {
      env: start.env,
      detached: true,
      stdio: ['ignore', 'ignore', start.stderr ?? 'ignore'],
      windowsHide: true,
    });
    child.on('error', () => {});
    child.unref();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
