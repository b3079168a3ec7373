/**
 * @module web/server
 * The dashboard as `serveHttp`'s `fallback`: the pages (`/`, `/graph`, `/confidence`, `/calibration`, `/learning`,
 * `/runs`, `/ask`: one page, its script picks the view), their hand-written script and style (no CDN),
 * and the JSON API under `/api/`. Host/Origin checks and the bearer token are serveHttp's; pages and
 * assets hold no data, so with a token only the API asks for it. The API is read-only unless a token is
 * configured; then `POST /api/feedback` takes a verdict on an instinct or skill. Errors are
 * `{ error: { code, message } }`: 400 bad input, 404 unknown scope or tool, 405 a write not allowed.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unexpectedErrorSummary } from '../core/text/error-summary.js';
import { CredenceError, isCredenceError, isStoreBusy, STORE_BUSY_MESSAGE } from '../core/errors.js';
import { shownText } from '../core/security/scrub.js';
import { EDGE_TYPES, VERDICTS, type EdgeType } from '../core/types.js';
import type { Credence } from '../engine/engine.js';
import { oneLine, requestTarget } from '../http/request.js';
import {
  askPayload,
  calibrationPayload,
  confidencePayload,
  graphPayload,
  learningPayload,
  runsPayload,
  toolPayload,
} from './api.js';

export const PAGES = Object.freeze(['graph', 'confidence', 'calibration', 'learning', 'runs', 'ask'] as const);
export type Page = (typeof PAGES)[number];

const ASSETS: Readonly<Record<string, string>> = Object.freeze({
  '/app.js': 'text/javascript; charset=utf-8',
  '/style.css': 'text/css; charset=utf-8',
});

export interface DashboardOptions {
  /** The engine of the served scope; other scopes are opened over the same store on request. */
  credence: Credence;
  /** Writes (`POST /api/feedback`) are allowed only when the server requires a bearer token. */
  writable?: boolean;
  /** The folder of the pages' files. @default assetsDir() */
  assetsDir?: string;
  log?: (line: string) => void;
}

export interface Dashboard {
  /** Answers a dashboard request; false when the path is not the dashboard's. */
  handle: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** Whether a request may skip the bearer token: the pages and assets, which hold no data. */
  isPublic: (req: IncomingMessage) => boolean;
  /**
   * Builds what `/api/ask` reads (the kept indexes, the past runs, the graph snapshot) by asking once, recording
   * nothing: a server calls it once it listens, so its first ask waits at most for what is left. A failure is left
   * for the request that meets it.
   */
  warm: () => Promise<void>;
}

/**
 * What `warm` asks, one a round: any words the word table knows (a text of none skips the similarity scans), each
 * its own (an answer kept for a query would spare the indexes the next round).
 */
const WARM_QUERIES = ['find a file and read it', 'search the web for a page', 'send a message to the team'];

/**
 * The folder of index.html, app.js and style.css, as a file system path: beside the module at
 * `moduleUrl` (this one in src/), or src/web/assets from dist/. A file URL is percent-encoded (a
 * space is %20), so the path comes from fileURLToPath, never from the URL's pathname.
 */
export function assetsDir(moduleUrl: string | URL = import.meta.url): string {
  const here = dirname(fileURLToPath(moduleUrl));
  for (const rel of [['assets'], ['..', '..', '..', 'src', 'web', 'assets']]) {
    const dir = join(here, ...rel);
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  throw new CredenceError(
    'NOT_FOUND',
    "the dashboard's assets (src/web/assets) are missing from the package: reinstall credence",
  );
}

const STATUS: Partial<Record<string, number>> = {
  INVALID_INPUT: 400,
  INPUT_TOO_LARGE: 400,
  NOT_FOUND: 404,
  UNKNOWN_TOOL: 404,
  PATH_OUTSIDE_ROOT: 400,
  STORE_BUSY: 503,
  // A team server down or out of reach (the message says so, and to retry later), a damaged file.
  STORE_UNAVAILABLE: 503,
};

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

const sendError = (res: ServerResponse, status: number, code: string, message: string): void =>
  sendJson(res, status, { error: { code, message } });

function pageOf(path: string): Page | undefined {
  if (path === '/' || path === '/index.html') return 'graph';
  const name = path.slice(1).replace(/\/$/, '');
  return (PAGES as readonly string[]).includes(name) ? (name as Page) : undefined;
}

function parseTypes(text: string | null): EdgeType[] | undefined {
  if (text === null || text.trim() === '') return undefined;
  const types = text.split(',').map((t) => t.trim());
  const bad = types.filter((t) => !(EDGE_TYPES as readonly string[]).includes(t));
  if (bad.length > 0)
    throw new CredenceError(
      'INVALID_INPUT',
      `unknown edge type ${bad.map((t) => shownText(t)).join(', ')}: the types are ${EDGE_TYPES.join(', ')}`,
    );
  return types as EdgeType[];
}

/** A value a request gave, as a message quotes it: a string scrubbed (shownText), anything else by its kind. */
const shownValueOf = (value: unknown): string =>
  typeof value === 'string'
    ? shownText(value)
    : typeof value === 'number' || typeof value === 'boolean' || value === null
      ? String(value)
      : value === undefined
        ? 'nothing'
        : Array.isArray(value)
          ? 'an array'
          : `a ${typeof value}`;

function parseNumber(name: string, text: string | null, ok: (n: number) => boolean, what: string): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || !ok(n))
    throw new CredenceError('INVALID_INPUT', `${name} must be ${what}, got ${shownText(text)}`);
  return n;
}

async function readBody(req: IncomingMessage, limit = 64 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new CredenceError('INVALID_INPUT', `request body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new CredenceError('INVALID_INPUT', 'request body is not JSON: send {"id": "...", "verdict": "validated"}');
  }
}

export function createDashboard(options: DashboardOptions): Dashboard {
  const { credence } = options;
  const log = options.log ?? (() => {});
  const dir = options.assetsDir ?? assetsDir();
  const files = new Map<string, Buffer>();
  /** A file of the pages (read once); one that cannot be read is the server's fault: a 500 naming it. */
  const asset = (name: string): Buffer => {
    let body = files.get(name);
    if (body === undefined) {
      const path = join(dir, name);
      try {
        body = readFileSync(path);
      } catch (error) {
        throw new Error(
          `cannot read the dashboard's file ${path}: ` +
            `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        );
      }
      files.set(name, body);
    }
    return body;
  };
  const engines = new Map<string, Credence>([[credence.scope, credence]]);

  /** The engine of `?scope=` (the served scope by default); 404 for a scope that holds nothing. */
  const engineFor = async (scope: string | null): Promise<Credence> => {
    const name = scope === null || scope.trim() === '' ? credence.scope : scope.trim();
    const known = engines.get(name);
    if (known !== undefined) return known;
    const counts = await credence.counts(name);
    if (Object.values(counts).every((n) => n === 0)) {
      throw new CredenceError(
        'NOT_FOUND',
        `scope ${shownText(name)} holds nothing in this store; the scopes are listed at /api/scopes`,
      );
    }
    const opened = await credence.forScope(name);
    engines.set(name, opened);
    return opened;
  };

  /** The served scope first (even when it holds nothing yet), then every scope holding a row, by name. */
  const scopes = async () => {
    const names = [credence.scope, ...(await credence.scopes()).filter((name) => name !== credence.scope)];
    const out: { scope: string; default: boolean; counts: Record<string, number> }[] = [];
    for (const name of names)
      out.push({ scope: name, default: name === credence.scope, counts: await credence.counts(name) });
    return { default: credence.scope, writable: options.writable === true && !credence.readOnly, scopes: out };
  };

  const api = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const route = url.pathname.slice('/api/'.length);
    const q = url.searchParams;
    if (req.method === 'POST' && route === 'feedback') {
      if (options.writable !== true) {
        return sendError(
          res,
          405,
          'READ_ONLY',
          'the dashboard API is read-only: ' +
            'start `credence serve --token <secret>` to allow feedback from the dashboard',
        );
      }
      const refusal = credence.readOnlyRefusal();
      if (refusal !== undefined) return sendError(res, 409, 'STORE_READ_ONLY', refusal.message);
      const sent = await readBody(req);
      if (typeof sent !== 'object' || sent === null || Array.isArray(sent)) {
        // What it is, not the body itself (up to 64 KB).
        const got = sent === null ? 'null' : Array.isArray(sent) ? 'an array' : `a ${typeof sent}`;
        throw new CredenceError('INVALID_INPUT', `request body must be a JSON object, got ${got}`);
      }
      const body = sent as { id?: unknown; verdict?: unknown; note?: unknown };
      if (typeof body.id !== 'string' || body.id === '')
        throw new CredenceError('INVALID_INPUT', 'feedback needs "id": the id of an instinct or a skill');
      if (typeof body.verdict !== 'string' || !(VERDICTS as readonly string[]).includes(body.verdict)) {
        throw new CredenceError(
          'INVALID_INPUT',
          `"verdict" must be one of ${VERDICTS.join(', ')}, got ${shownValueOf(body.verdict)}`,
        );
      }
      const engine = await engineFor(q.get('scope'));
      const result = await engine.feedback(
        body.id,
        body.verdict as (typeof VERDICTS)[number],
        typeof body.note === 'string' ? { note: body.note } : {},
      );
      return sendJson(res, 200, result);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendError(
        res,
        405,
        'READ_ONLY',
        `${req.method ?? '?'} /api/${route} is not allowed: the dashboard API is read-only (GET)` +
          `${options.writable === true ? ', except POST /api/feedback' : ''}`,
      );
    }
    if (route === 'scopes') return sendJson(res, 200, await scopes());
    const engine = await engineFor(q.get('scope'));
    // Another process (a hook, the CLI) may have written since: the engine sees it by the store's revision
    // of the scope and rebuilds only what the write touched (issue 20), so nothing is thrown away here.
    if (route === 'graph') {
      const types = parseTypes(q.get('type'));
      const min = parseNumber('min', q.get('min'), (n) => n >= 0 && n <= 1, 'a confidence in [0, 1]');
      const limit = parseNumber(
        'limit',
        q.get('limit'),
        (n) => Number.isInteger(n) && n >= 1 && n <= 100_000,
        'a whole number of tools from 1 to 100000',
      );
      return sendJson(
        res,
        200,
        await graphPayload(engine, {
          ...(types === undefined ? {} : { types }),
          ...(min === undefined ? {} : { min }),
          ...(limit === undefined ? {} : { limit }),
        }),
      );
    }
    // `?id=` addresses every name, `..` and `.` too, which a path segment cannot (clients normalise them away).
    if (route === 'tool') {
      const id = q.get('id');
      if (id === null || id === '') throw new CredenceError('INVALID_INPUT', 'give a tool id: /api/tool?id=<id>');
      return sendJson(res, 200, await toolPayload(engine, id));
    }
    if (route.startsWith('tool/')) {
      let id: string;
      try {
        id = decodeURIComponent(route.slice('tool/'.length));
      } catch {
        throw new CredenceError('INVALID_INPUT', `the tool id in ${shownText(url.pathname)} is not valid URL encoding`);
      }
      if (id === '') throw new CredenceError('INVALID_INPUT', 'give a tool id: /api/tool/<id>');
      return sendJson(res, 200, await toolPayload(engine, id));
    }
    if (route === 'confidence') {
      const days = parseNumber(
        'days',
        q.get('days'),
        (n) => Number.isInteger(n) && n >= 1 && n <= 365,
        'a whole number of days from 1 to 365',
      );
      return sendJson(res, 200, await confidencePayload(engine, days === undefined ? {} : { days }));
    }
    if (route === 'learning') return sendJson(res, 200, await learningPayload(engine));
    if (route === 'calibration') return sendJson(res, 200, await calibrationPayload(engine));
    if (route === 'runs') {
      const limit = parseNumber(
        'limit',
        q.get('limit'),
        (n) => Number.isInteger(n) && n >= 1 && n <= 1000,
        'a whole number from 1 to 1000',
      );
      return sendJson(res, 200, await runsPayload(engine, limit === undefined ? {} : { limit }));
    }
    if (route === 'ask') {
      const context = (q.get('context') ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '');
      return sendJson(res, 200, await askPayload(engine, q.get('q') ?? '', context));
    }
    sendError(
      res,
      404,
      'NOT_FOUND',
      `no API at ${url.pathname}: the endpoints are /api/scopes, /api/graph, /api/tool?id=<id>, /api/confidence, ` +
        '/api/calibration, /api/learning, /api/runs, /api/ask?q=&context=',
    );
  };

  /**
   * A request the dashboard could not answer: its own error when it has a code, else a 500 with a short line
   * (core/text/error-summary) and one line of log.
   */
  const failed = (req: IncomingMessage, res: ServerResponse, error: unknown): void => {
    if (res.headersSent) return void res.end();
    // Another process holds the write lock: 503, retry (not a 500 the dashboard could not explain).
    if (isStoreBusy(error)) return sendError(res, 503, 'STORE_BUSY', STORE_BUSY_MESSAGE);
    if (isCredenceError(error)) return sendError(res, STATUS[error.code] ?? 500, error.code, error.message);
    log(`dashboard: ${req.method ?? '?'} ${shownText(req.url ?? '')} failed: ${oneLine(error)}`);
    // The message (a driver's text can quote stored values or SQL) goes to the log only.
    sendError(
      res,
      500,
      'INTERNAL',
      `the dashboard failed on this request: ${unexpectedErrorSummary(error)}; the server's log has the cause`,
    );
  };

  const handle = (req: IncomingMessage, res: ServerResponse): boolean => {
    try {
      return route(req, res);
    } catch (error) {
      failed(req, res, error);
      return true;
    }
  };

  const route = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = requestTarget(req.url);
    if (url === undefined) {
      sendError(
        res,
        400,
        'INVALID_INPUT',
        `the request target ${shownText(req.url ?? '')} is not a path starting with one /: ` +
          'ask for a page such as /graph',
      );
      return true;
    }
    const path = url.pathname;
    if (path.startsWith('/api/') || path === '/api') {
      api(req, res, url).catch((error: unknown) => failed(req, res, error));
      return true;
    }
    const page = pageOf(path);
    const type = page === undefined ? ASSETS[path] : 'text/html; charset=utf-8';
    if (type === undefined) {
      if (path === '/favicon.ico') {
        res.writeHead(204).end();
        return true;
      }
      return false;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendError(res, 405, 'READ_ONLY', `${req.method ?? '?'} ${path}: the dashboard's pages are read with GET`);
      return true;
    }
    const body = asset(page === undefined ? path : '/index.html');
    res.writeHead(200, {
      'content-type': type,
      'content-length': body.length,
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy':
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; " +
        "frame-ancestors 'none'",
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };

  const isPublic = (req: IncomingMessage): boolean => {
    const path = requestTarget(req.url)?.pathname;
    if (path === undefined) return false;
    return (
      (req.method === 'GET' || req.method === 'HEAD') &&
      (pageOf(path) !== undefined || ASSETS[path] !== undefined || path === '/favicon.ico')
    );
  };

  const warm = async (): Promise<void> => {
    try {
      // After each round, the engine settles the indexes asked twice and builds the full-text postings, a slice at a
      // time (a request meanwhile is answered between slices): the last round and the first ask find them made.
      for (const query of WARM_QUERIES) {
        await askPayload(credence, query);
        await credence.warm();
      }
    } catch {
      // The first request that needs what failed here meets the failure and reports it.
    }
  };

  return { handle, isPublic, warm };
}
