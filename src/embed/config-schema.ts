/**
 * @module embed/config-schema
 * The zod schemas of a config file's `embeddings` section (SPEC §8), apart from embed/config so that a
 * process whose config names no embeddings (the word-vector default) never loads zod.
 */
import { z } from 'zod';
import type { CredenceError } from '../core/errors.js';
import { httpUrlProblem, invalidField } from './errors.js';
import { EMBEDDING_PROVIDERS, type EmbeddingConfig, type EmbeddingProviderName } from './types.js';
import { PLAIN_ISSUES } from '../schemas/format.js';
import { redactHttpUrl } from '../core/security/redact-url.js';

const ProviderNameSchema = z.enum(EMBEDDING_PROVIDERS as [EmbeddingProviderName, ...EmbeddingProviderName[]]);
const HttpUrlSchema = z
  .string()
  .trim()
  .superRefine((url, ctx) => {
    const problem = httpUrlProblem(url);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });

/** The `embeddings` section of a config file. */
export const EmbeddingConfigSchema = z
  .object({
    provider: ProviderNameSchema,
    model: z.string().trim().min(1, 'must be a non-empty model name').optional(),
    url: HttpUrlSchema.optional(),
    apiKey: z.string().min(1, 'must be a non-empty key').optional(),
    folder: z.string().trim().min(1, 'must be a non-empty folder').optional(),
  })
  .strict();

/** A config file, of which only `embeddings` is read here. */
export const EmbeddingConfigFileSchema = z.object({ embeddings: EmbeddingConfigSchema.optional() }).passthrough();

/** `value` with any API key replaced by `***` and a URL's secrets hidden, so that a config error never prints them. */
function maskKey(field: string, value: unknown): unknown {
  if (field.endsWith('apiKey')) return value === undefined ? undefined : '***';
  if (field.endsWith('url') && typeof value === 'string') return redactHttpUrl(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskKey(k, v)]));
  }
  return value;
}

/** The first issue of a failed parse as `INVALID_INPUT` naming the field (`embeddings.url`, …). */
function fileIssue(error: z.ZodError, file: unknown): CredenceError {
  const issue = error.issues[0];
  const path = issue?.path ?? [];
  let value: unknown = file;
  for (const key of path)
    value =
      value !== null && typeof value === 'object'
        ? (value as Record<PropertyKey, unknown>)[key as PropertyKey]
        : undefined;
  const field = path.length === 0 ? 'config file' : path.join('.');
  let message = issue?.message ?? 'is invalid';
  if (issue?.code === 'invalid_value' && path.at(-1) === 'provider')
    message = `must be one of ${EMBEDDING_PROVIDERS.join(', ')}`;
  else if (issue?.code === 'unrecognized_keys')
    message =
      `has unknown keys ${issue.keys.map((k) => `"${k}"`).join(', ')} ` +
      `(valid: ${Object.keys(EmbeddingConfigSchema.shape).join(', ')})`;
  else if (issue?.code === 'invalid_type')
    message = `must be ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`}`;
  return invalidField(field, message, maskKey(field, value));
}

/**
 * A parsed config file's `embeddings` section, checked.
 * @throws CredenceError INVALID_INPUT naming the first field that is wrong (an API key masked).
 */
export function parseEmbeddingConfigFile(file: unknown): EmbeddingConfig | undefined {
  const parsed = EmbeddingConfigFileSchema.safeParse(file, PLAIN_ISSUES);
  if (!parsed.success) throw fileIssue(parsed.error, file);
  return parsed.data.embeddings;
}
