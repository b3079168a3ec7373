/**
 * @module embed/http
 * What the remote providers (Ollama, OpenAI-compatible) share: a JSON POST through the global
 * `fetch` with a timeout, every failure turned into CredenceError PROVIDER_UNAVAILABLE naming the
 * url and the reason (never the API key, nor the url's user part, fragment or a query value that may be a secret:
 * core/security/redact-url). Batching, blank texts and dimension checks are in `embed/batch`.
 */
import type { z } from 'zod';
import { CredenceError, isCredenceError } from '../core/errors.js';
import { describeError, httpUrlProblem, invalidField, providerUnavailable } from './errors.js';
import { redactHttpUrl } from '../core/security/redact-url.js';
import { scrubValue } from '../core/security/scrub.js';
import type { EmbeddingProviderName } from './types.js';
import { PLAIN_ISSUES } from '../schemas/format.js';

export const REMOTE_DEFAULTS = Object.freeze({
  /** Milliseconds one request may take. */
  timeoutMs: 30_000,
  /** Texts sent in one request. */
  batchSize: 64,
});

export interface RemoteOptions {
  /** Milliseconds one request may take, > 0. @default 30000 */
  readonly timeoutMs?: number;
  /** Texts sent in one request, ≥ 1. @default 64 */
  readonly batchSize?: number;
}

const MAX_BODY_IN_MESSAGE = 300;

/** Where a provider sends its requests, and that URL as messages show it (its secret query values hidden). */
export interface RemoteUrl {
  readonly url: string;
  readonly shown: string;
}

/**
 * The request URL of a provider: `base` with its path made by `path` from the base's (trailing slashes cut), its
 * query kept, its fragment left out.
 * @throws CredenceError INVALID_INPUT naming `field` for a base that is not an http(s) URL or that holds a user
 * name or password (shown with its whole user part hidden).
 */
export function remoteUrl(base: string, field: string, path: (basePath: string) => string): RemoteUrl {
  const problem = httpUrlProblem(base);
  if (problem !== undefined) throw invalidField(field, problem, redactHttpUrl(base.trim()));
  const url = new URL(base.trim());
  url.pathname = path(url.pathname.replace(/\/+$/, ''));
  url.hash = ''; // never sent by fetch, and never shown: a key put there must not reach a message
  return { url: url.toString(), shown: redactHttpUrl(url.toString()) };
}

/** The values `shown` hides of `url`'s query: what no message may print. */
function hiddenValues({ url, shown }: RemoteUrl): string[] {
  const hidden = new URL(shown).searchParams;
  return [...new URL(url).searchParams]
    .filter(([name, value]) => hidden.get(name) === '***' && value.length > 0 && value !== '***')
    .map(([, value]) => value);
}

/** `text` with every occurrence of a secret masked, cut to a message-sized length. */
function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let masked = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length > 0) masked = masked.split(secret).join('***');
  }
  const flat = masked.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_BODY_IN_MESSAGE ? `${flat.slice(0, MAX_BODY_IN_MESSAGE)}…` : flat;
}

/** The error message a server put in its body (`{error: "…"}`, `{error: {message}}`, `{message}`), else the body. */
function bodyMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed !== null && typeof parsed === 'object') {
      const { error, message } = parsed as { error?: unknown; message?: unknown };
      if (typeof error === 'string') return error;
      if (error !== null && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string') {
        return (error as { message: string }).message;
      }
      if (typeof message === 'string') return message;
    }
  } catch {
    // not JSON: the body itself
  }
  return body;
}

/** Why a fetch threw, in words: timeout, connection refused, DNS, ... */
function fetchFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause !== undefined) return `request failed: ${describeError(cause)}`;
  return `request failed: ${describeError(error)}`;
}

export interface PostJsonRequest<T> {
  readonly provider: EmbeddingProviderName;
  readonly url: RemoteUrl;
  readonly body: unknown;
  readonly schema: z.ZodType<T>;
  readonly apiKey?: string | undefined;
  readonly timeoutMs: number;
}

/**
 * POSTs `body` as JSON, every text in it scrubbed first (core/security/scrub: the one door out of the machine for the
 * texts of every remote provider, stored texts and queries alike), and parses the answer with `schema`.
 * @throws CredenceError PROVIDER_UNAVAILABLE naming the url and the reason: no connection, timeout,
 * a non-2xx status (with the message of its body), a body that is not JSON or not of the schema.
 */
export async function postJson<T>(request: PostJsonRequest<T>): Promise<T> {
  const { provider, apiKey, timeoutMs } = request;
  const { url, shown } = request.url;
  const secrets = [apiKey, ...hiddenValues(request.url)];
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey !== undefined && apiKey.length > 0) headers.authorization = `Bearer ${apiKey}`;
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(scrubValue(request.body)),
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await response.text();
    if (!response.ok) {
      const message = redact(bodyMessage(text), secrets);
      throw providerUnavailable(
        provider,
        shown,
        `HTTP ${status} ${response.statusText}${message.length > 0 ? `: ${message}` : ''}`,
      );
    }
  } catch (error) {
    if (isCredenceError(error)) throw error;
    throw providerUnavailable(provider, shown, redact(fetchFailure(error, timeoutMs), secrets), error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw providerUnavailable(
      provider,
      shown,
      `the answer is not JSON: ${redact(text, secrets) || '(empty body)'}`,
      error,
    );
  }
  const parsed = request.schema.safeParse(json, PLAIN_ISSUES);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
    throw providerUnavailable(
      provider,
      shown,
      `unexpected answer${where}: ${issue?.message ?? 'does not match'}`,
      parsed.error,
    );
  }
  return parsed.data;
}

/**
 * Checks `timeoutMs` and `batchSize`, returning them with defaults filled in.
 * @throws CredenceError INVALID_INPUT for a timeout that is not a positive number or a batch size
 * that is not a positive integer.
 */
export function resolveRemoteOptions(options: RemoteOptions): { timeoutMs: number; batchSize: number } {
  const timeoutMs = options.timeoutMs ?? REMOTE_DEFAULTS.timeoutMs;
  const batchSize = options.batchSize ?? REMOTE_DEFAULTS.batchSize;
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new CredenceError('INVALID_INPUT', `timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`, {
      details: { timeoutMs },
    });
  }
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new CredenceError('INVALID_INPUT', `batchSize must be a positive integer, got ${batchSize}`, {
      details: { batchSize },
    });
  }
  return { timeoutMs, batchSize };
}
