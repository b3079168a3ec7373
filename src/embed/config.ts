/**
 * @module embed/config
 * The one place the embedding configuration is read (SPEC §8), and the provider it makes.
 * Environment wins over the config file: `CREDENCE_EMBEDDINGS` (`word-vectors`, the default |
 * `ollama:<model>` | `openai:<model>` | `transformers:<folder>`), `CREDENCE_EMBEDDINGS_URL`,
 * `CREDENCE_EMBEDDINGS_KEY` (for `openai`, `OPENAI_API_KEY` is the last fallback). When the environment
 * names another provider than the file's `embeddings` section, nothing of that section is used.
 * `embeddingKey(provider)` = `provider:model:dimension`, stored beside each vector: a change of any re-embeds.
 */
import { z } from 'zod';
import { CredenceError } from '../core/errors.js';
import { ollamaProvider } from './ollama.js';
import { openAiProvider } from './openai.js';
import { transformersProvider } from './transformers.js';
import {
  EMBEDDING_PROVIDERS,
  type EmbeddingConfig,
  type EmbeddingProvider,
  type EmbeddingProviderName,
} from './types.js';
import { wordVectorProvider } from './word-vectors.js';

const ProviderNameSchema = z.enum(EMBEDDING_PROVIDERS as [EmbeddingProviderName, ...EmbeddingProviderName[]]);
const HttpUrlSchema = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const { protocol } = new URL(value);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');

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

function invalid(field: string, message: string, value: unknown): CredenceError {
  return new CredenceError(
    'INVALID_INPUT',
    `${field} ${message}, got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
    { details: { [field]: value } },
  );
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
  return invalid(field, message, maskKey(field, value));
}

/** `value` with any API key replaced by `***`, so that a config error never prints a key. */
function maskKey(field: string, value: unknown): unknown {
  if (field.endsWith('apiKey')) return value === undefined ? undefined : '***';
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskKey(k, v)]));
  }
  return value;
}

/** `CREDENCE_EMBEDDINGS` as provider + model or folder. */
function parseProviderSpec(spec: string): Pick<EmbeddingConfig, 'provider' | 'model' | 'folder'> {
  const field = 'CREDENCE_EMBEDDINGS';
  const colon = spec.indexOf(':');
  const name = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  const rest = colon < 0 ? '' : spec.slice(colon + 1).trim();
  const valid = 'word-vectors, ollama:<model>, openai:<model> or transformers:<folder>';
  if (!(EMBEDDING_PROVIDERS as readonly string[]).includes(name)) throw invalid(field, `must be ${valid}`, spec);
  const provider = name as EmbeddingProviderName;
  if (provider === 'word-vectors') {
    if (rest.length > 0) throw invalid(field, 'word-vectors takes no model', spec);
    return { provider };
  }
  if (rest.length === 0) return { provider };
  return provider === 'transformers' ? { provider, folder: rest } : { provider, model: rest };
}

/**
 * The embedding configuration from the environment and an optional parsed config file (env wins).
 * @throws CredenceError INVALID_INPUT naming the variable or field: an unknown provider, a URL that is
 * not http(s), a provider without the model or folder it needs, unknown keys in `embeddings`.
 */
export function resolveEmbeddingConfig(env: NodeJS.ProcessEnv, file?: unknown): EmbeddingConfig {
  let fromFile: EmbeddingConfig | undefined;
  if (file !== undefined && file !== null) {
    const parsed = EmbeddingConfigFileSchema.safeParse(file);
    if (!parsed.success) throw fileIssue(parsed.error, file);
    fromFile = parsed.data.embeddings;
  }
  const spec = env.CREDENCE_EMBEDDINGS?.trim();
  let config: EmbeddingConfig;
  if (spec !== undefined && spec.length > 0) {
    const chosen = parseProviderSpec(spec);
    const same = fromFile?.provider === chosen.provider ? fromFile : undefined;
    config = { ...same, ...chosen };
  } else {
    config = { ...(fromFile ?? { provider: 'word-vectors' }) };
  }

  const url = env.CREDENCE_EMBEDDINGS_URL?.trim();
  if (url !== undefined && url.length > 0) {
    if (!HttpUrlSchema.safeParse(url).success) throw invalid('CREDENCE_EMBEDDINGS_URL', 'must be an http(s) URL', url);
    config.url = url;
  }
  const key = env.CREDENCE_EMBEDDINGS_KEY;
  if (key !== undefined && key.length > 0) config.apiKey = key;
  else if (
    config.provider === 'openai' &&
    config.apiKey === undefined &&
    env.OPENAI_API_KEY !== undefined &&
    env.OPENAI_API_KEY.length > 0
  ) {
    config.apiKey = env.OPENAI_API_KEY;
  }

  const fromEnv = spec !== undefined && spec.length > 0;
  if ((config.provider === 'ollama' || config.provider === 'openai') && config.model === undefined) {
    throw fromEnv
      ? invalid('CREDENCE_EMBEDDINGS', `needs a model: ${config.provider}:<model>`, spec)
      : invalid('embeddings.model', `is required for ${config.provider}`, config.model);
  }
  if (config.provider === 'transformers' && config.folder === undefined) {
    throw fromEnv
      ? invalid('CREDENCE_EMBEDDINGS', 'needs a model folder: transformers:<folder>', spec)
      : invalid('embeddings.folder', 'is required for transformers', config.folder);
  }
  return config;
}

/** The provider a configuration names. Nothing is loaded or contacted until the first `embed`. */
export function createEmbeddingProvider(config: EmbeddingConfig): EmbeddingProvider {
  switch (config.provider) {
    case 'word-vectors':
      return wordVectorProvider();
    case 'transformers':
      if (config.folder === undefined) throw invalid('embeddings.folder', 'is required for transformers', undefined);
      return transformersProvider({
        folder: config.folder,
        ...(config.model === undefined ? {} : { model: config.model }),
      });
    case 'ollama':
      if (config.model === undefined) throw invalid('embeddings.model', 'is required for ollama', undefined);
      return ollamaProvider({ model: config.model, ...(config.url === undefined ? {} : { url: config.url }) });
    case 'openai':
      if (config.model === undefined) throw invalid('embeddings.model', 'is required for openai', undefined);
      return openAiProvider({
        model: config.model,
        ...(config.url === undefined ? {} : { url: config.url }),
        ...(config.apiKey === undefined ? {} : { apiKey: config.apiKey }),
      });
  }
}

/**
 * `provider:model:dimension`, the key stored beside each vector.
 * @throws CredenceError PROVIDER_UNAVAILABLE while a remote provider's dimension is not known yet
 * (use `resolveEmbeddingKey`, which asks the provider once).
 */
export function embeddingKey(provider: EmbeddingProvider): string {
  const { dimension } = provider;
  if (dimension === undefined) {
    throw new CredenceError(
      'PROVIDER_UNAVAILABLE',
      `${provider.provider} embeddings of ${provider.model}: dimension not known before the first embed`,
      {
        details: { provider: provider.provider, model: provider.model },
      },
    );
  }
  return `${provider.provider}:${provider.model}:${dimension}`;
}

/** `embeddingKey`, embedding one short probe text first when the dimension is not known yet. */
export async function resolveEmbeddingKey(provider: EmbeddingProvider): Promise<string> {
  if (provider.dimension === undefined) await provider.embed(['dimension probe']);
  return embeddingKey(provider);
}
