/**
 * @module embed/config
 * The one place the embedding configuration is read (SPEC §8), and the provider it makes.
 * Environment wins over the config file: `CREDENCE_EMBEDDINGS` (`word-vectors`, the default |
 * `ollama:<model>` | `openai:<model>` | `transformers:<folder>`), `CREDENCE_EMBEDDINGS_URL`,
 * `CREDENCE_EMBEDDINGS_KEY` (for `openai`, `OPENAI_API_KEY` is the last fallback). When the environment
 * names another provider than the file's `embeddings` section, nothing of that section is used.
 * `embeddingKey(provider)` = `provider:model:dimension`, stored beside each vector: a change of any re-embeds.
 */
import { CredenceError } from '../core/errors.js';
import { parseEmbeddingConfigFile } from './config-schema.js';
import { httpUrlProblem, invalidField as invalid } from './errors.js';
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
import { redactHttpUrl } from '../core/security/redact-url.js';

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
 * not http(s) or holds a user name or password (shown hidden), a provider without the model or folder it
 * needs, unknown keys in `embeddings`.
 */
export function resolveEmbeddingConfig(env: NodeJS.ProcessEnv, file?: unknown): EmbeddingConfig {
  let fromFile: EmbeddingConfig | undefined;
  if (file !== undefined && file !== null) {
    // A file without `embeddings` (most) is taken as it is: zod, which checks the section, is not loaded.
    const plain = typeof file === 'object' && !Array.isArray(file);
    const section = plain ? (file as Record<string, unknown>).embeddings : file;
    if (section !== undefined) fromFile = parseEmbeddingConfigFile(file);
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
    const problem = httpUrlProblem(url);
    if (problem !== undefined) throw invalid('CREDENCE_EMBEDDINGS_URL', problem, redactHttpUrl(url));
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
