/**
 * @module http/request
 * HTTP plumbing shared by the MCP server (mcp/http) and the dashboard (web/server), apart from both
 * (issue 18: the folder cycle mcp <-> web): loopback names, the Origin header's host, a request
 * target read as a path only, and an error as one log line.
 */

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export const isLoopback = (host: string): boolean => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The `host:port` of an `http://` Origin header, lower case; '' for any other (`null`, https, a path). */
export const originHost = (origin: string): string => /^http:\/\/([^/?#@\s]+)$/i.exec(origin)?.[1]?.toLowerCase() ?? '';

/**
 * The path and query of a request target, or undefined when the target is not a path starting with
 * one `/` (`//a:b`, `*`, an absolute URL) or does not parse as one: `new URL(target, base)` throws on
 * `//a:b` and reads `//host/x` as another host.
 */
export function requestTarget(target: string | undefined): URL | undefined {
  const text = target ?? '/';
  if (!text.startsWith('/') || text.startsWith('//')) return undefined;
  try {
    return new URL(`http://localhost${text}`);
  } catch {
    return undefined;
  }
}

/**
 * One line for the log: the error's name and message, and where it was thrown (the first stack
 * line after the first that starts, blanks aside, with `at `). Every run of blanks holding a line
 * break becomes one space. Linear in the text (issue 17 leftover: the former pattern, blanks around a
 * line break, was quadratic on a long run of blanks, as was the stack search on many blank lines).
 */
export function oneLine(error: unknown): string {
  const e = error instanceof Error ? error : new Error(String(error));
  const at = stackFrame(e.stack ?? '');
  return `${e.name}: ${e.message}${at === undefined ? '' : ` (at ${at})`}`.replace(/\s+/g, (run) =>
    run.includes('\n') ? ' ' : run,
  );
}

/**
 * The text after `at ` on the first line past the first that starts (blanks aside) with `at ` and more, up to a line
 * end.
 */
function stackFrame(stack: string): string | undefined {
  const lines = stack.split('\n');
  for (let i = 1; i < lines.length; i += 1) {
    const line = (lines[i] as string).trimStart();
    if (!line.startsWith('at ')) continue;
    const frame = /^[^\r\u2028\u2029]+/.exec(line.slice(3))?.[0];
    if (frame !== undefined) return frame;
  }
  return undefined;
}
