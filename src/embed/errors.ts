/**
 * @module embed/errors
 * The one way an embedding provider reports that it cannot work: CredenceError PROVIDER_UNAVAILABLE
 * naming the provider, where it was looked for (url, folder, file) and why.
 */
import { CredenceError } from '../core/errors.js';
import type { EmbeddingProviderName } from './types.js';

export function providerUnavailable(
  provider: EmbeddingProviderName,
  where: string,
  reason: string,
  cause?: unknown,
): CredenceError {
  return new CredenceError('PROVIDER_UNAVAILABLE', `${provider} embeddings unavailable at ${where}: ${reason}`, {
    ...(cause === undefined ? {} : { cause }),
    details: { provider, where },
  });
}

/** A short description of a thrown value, for messages. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** `INVALID_INPUT` naming a variable or config field and the value found. */
export function invalidField(field: string, message: string, value: unknown): CredenceError {
  return new CredenceError(
    'INVALID_INPUT',
    `${field} ${message}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
    { details: { [field]: value } },
  );
}

/**
 * What keeps `value` (trimmed) from being a provider's base URL, undefined when nothing does: not an http: or https:
 * URL, or one holding a user name or password (fetch refuses to send them; a key goes in `apiKey`, as a Bearer token).
 */
export function httpUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return 'must be an http(s) URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must be an http(s) URL';
  if (url.username !== '' || url.password !== '') {
    return 'must not hold a user name or password (give the key as CREDENCE_EMBEDDINGS_KEY or apiKey instead)';
  }
  return undefined;
}
