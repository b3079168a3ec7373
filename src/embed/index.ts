/**
 * @module embed
 * Embedding providers (SPEC §8): the offline word-vector default, a local transformers.js model
 * folder, Ollama and any OpenAI-compatible server, chosen in one place (`resolveEmbeddingConfig`).
 */
export type { EmbeddingConfig, EmbeddingProvider, EmbeddingProviderName } from './types.js';
export { EMBEDDING_PROVIDERS } from './types.js';
export { cosine, decodeVector, encodeVector, l2Normalize } from './vector.js';
export { EmbeddingConfigFileSchema, EmbeddingConfigSchema } from './config-schema.js';
export {
  createEmbeddingProvider,
  embeddingKey,
  resolveEmbeddingConfig,
  resolveEmbeddingKey,
} from './config.js';
export {
  WORD_VECTOR_DEFAULTS,
  WORD_VECTOR_DIMENSION,
  WORD_VECTOR_MODEL,
  wordVectorProvider,
  type WordVectorOptions,
} from './word-vectors.js';
export { TRANSFORMERS_INSTALL_HINT, transformersProvider, type TransformersOptions } from './transformers.js';
export { OLLAMA_DEFAULTS, ollamaProvider, type OllamaOptions } from './ollama.js';
export { OPENAI_DEFAULTS, openAiProvider, type OpenAiOptions } from './openai.js';
export { REMOTE_DEFAULTS, type RemoteOptions } from './http.js';
export { checkedEmbedder } from './checked.js';
