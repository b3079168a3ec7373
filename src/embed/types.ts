/**
 * @module embed/types
 * The embedding provider interface (SPEC §8) and the configuration that chooses one.
 */

/** The four kinds of provider. */
export type EmbeddingProviderName = 'word-vectors' | 'transformers' | 'ollama' | 'openai';

export const EMBEDDING_PROVIDERS: readonly EmbeddingProviderName[] = Object.freeze([
  'word-vectors',
  'transformers',
  'ollama',
  'openai',
]);

export interface EmbeddingProvider {
  readonly provider: EmbeddingProviderName;
  readonly model: string;
  /** Known up front for the offline table; for remote providers after the first call. */
  readonly dimension: number | undefined;
  /**
   * One L2-normalised vector per text, in order. Empty text gives a zero vector. Never a silent zero
   * vector for a provider failure: throws CredenceError('PROVIDER_UNAVAILABLE', message naming the
   * provider, url/folder and the reason).
   */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** Which provider to use and how to reach it; read in one place, `embed/config`. */
export interface EmbeddingConfig {
  provider: EmbeddingProviderName;
  /** Model name (ollama, openai) or model id under `folder` (transformers). */
  model?: string;
  /** Base URL of an Ollama or OpenAI-compatible server. */
  url?: string;
  /** Bearer token of an OpenAI-compatible server. */
  apiKey?: string;
  /** Local model folder (transformers). */
  folder?: string;
}
