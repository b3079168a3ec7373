/**
 * @module embed/transformers
 * Embeddings from a model folder on disk through `@huggingface/transformers` (ONNX Runtime), remote
 * loading off: nothing is ever downloaded. An optional peer, loaded by dynamic `import()` on the first
 * `embed`; install it with `ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers`.
 * `folder` is the model folder (`config.json`, `tokenizer.json`, `onnx/model.onnx` or
 * `onnx/model_quantized.onnx`, e.g. a copy of `Xenova/all-MiniLM-L6-v2`), or with `model` a folder of
 * `<folder>/<model>/`. Feature extraction with mean pooling and normalisation.
 */
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CredenceError } from '../core/errors.js';
import { describeError, providerUnavailable } from './errors.js';
import { batchedEmbedder } from './batch.js';
import type { EmbeddingProvider } from './types.js';

/** The package name, in a variable so that TypeScript does not try to resolve it. */
export const TRANSFORMERS_PACKAGE = '@huggingface/transformers';

export const TRANSFORMERS_INSTALL_HINT =
  'install it with `ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers` ' +
  '(the variable keeps npm from downloading a binary)';

export const TRANSFORMERS_DEFAULTS = Object.freeze({
  /** Texts given to the pipeline at once. */
  batchSize: 32,
});

/** The part of a transformers.js Tensor read here. */
interface TensorLike {
  readonly data: ArrayLike<number>;
  readonly dims: readonly number[];
}
type FeatureExtractor = (texts: string[], options: { pooling: 'mean'; normalize: boolean }) => Promise<TensorLike>;
interface TransformersModule {
  env: Record<string, unknown>;
  pipeline: (task: 'feature-extraction', model: string, options: Record<string, unknown>) => Promise<FeatureExtractor>;
}

export interface TransformersOptions {
  /** The model folder, or with `model` the folder holding `<model>/`. */
  readonly folder: string;
  /** Model id under `folder`. @default the folder's own name (the folder is the model) */
  readonly model?: string;
  /** Loads the package; a test passes a fake. @default dynamic import of @huggingface/transformers */
  readonly loadModule?: () => Promise<unknown>;
  /** Texts given to the pipeline at once. @default 32 */
  readonly batchSize?: number;
}

function isModule(value: unknown): value is TransformersModule {
  if (value === null || typeof value !== 'object') return false;
  const m = value as { env?: unknown; pipeline?: unknown; default?: unknown };
  return typeof m.pipeline === 'function' && m.env !== null && typeof m.env === 'object';
}

/** A local transformers.js provider. Nothing is loaded until the first `embed`. */
export function transformersProvider(options: TransformersOptions): EmbeddingProvider {
  const batchSize = options.batchSize ?? TRANSFORMERS_DEFAULTS.batchSize;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new CredenceError('INVALID_INPUT', `batchSize must be a positive integer, got ${batchSize}`, {
      details: { batchSize },
    });
  }
  const folder = resolve(options.folder);
  const root = options.model === undefined ? dirname(folder) : folder;
  const model = options.model ?? basename(folder);
  const modelFolder = join(root, model);
  const load = options.loadModule ?? (() => import(TRANSFORMERS_PACKAGE) as Promise<unknown>);
  const fail = (reason: string, cause?: unknown) => providerUnavailable('transformers', modelFolder, reason, cause);
  let extractor: Promise<FeatureExtractor> | undefined;

  const open = async (): Promise<FeatureExtractor> => {
    if (!existsSync(modelFolder) || !statSync(modelFolder).isDirectory()) throw fail('no such model folder');
    if (!existsSync(join(modelFolder, 'config.json')))
      throw fail('the folder has no config.json (not a transformers.js model folder)');
    let loaded: unknown;
    try {
      loaded = await load();
    } catch (error) {
      const missing =
        (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' ||
        /cannot find (package|module)|failed to (load|resolve)/i.test(describeError(error));
      throw fail(
        missing
          ? `${TRANSFORMERS_PACKAGE} is not installed; ${TRANSFORMERS_INSTALL_HINT}`
          : `cannot load ${TRANSFORMERS_PACKAGE} (${describeError(error)})`,
        error,
      );
    }
    const module = isModule(loaded)
      ? loaded
      : isModule((loaded as { default?: unknown } | null)?.default)
        ? (loaded as { default: TransformersModule }).default
        : undefined;
    if (module === undefined) throw fail(`${TRANSFORMERS_PACKAGE} does not export env and pipeline`);
    module.env.allowRemoteModels = false;
    module.env.allowLocalModels = true;
    module.env.localModelPath = `${root}/`;
    const quantizedOnly =
      !existsSync(join(modelFolder, 'onnx', 'model.onnx')) &&
      existsSync(join(modelFolder, 'onnx', 'model_quantized.onnx'));
    try {
      return await module.pipeline('feature-extraction', model, {
        local_files_only: true,
        ...(quantizedOnly ? { dtype: 'q8' } : {}),
      });
    } catch (error) {
      throw fail(`cannot open the model (${describeError(error)})`, error);
    }
  };

  /** Rows of the pooled [batch, d] output; the batcher checks and normalises them. */
  const run = async (batch: readonly string[]): Promise<Float32Array[]> => {
    extractor ??= open();
    let pipe: FeatureExtractor;
    try {
      pipe = await extractor;
    } catch (error) {
      extractor = undefined;
      throw error;
    }
    let output: TensorLike;
    try {
      output = await pipe([...batch], { pooling: 'mean', normalize: true });
    } catch (error) {
      throw fail(`feature extraction failed (${describeError(error)})`, error);
    }
    const [rows, width] = output.dims;
    if (
      output.dims.length !== 2 ||
      rows !== batch.length ||
      width === undefined ||
      width < 1 ||
      output.data.length !== rows * width
    ) {
      throw fail(`expected pooled output of shape [${batch.length}, d], got [${output.dims.join(', ')}]`);
    }
    return Array.from({ length: rows }, (_, r) =>
      Float32Array.from({ length: width }, (_, j) => output.data[r * width + j] as number),
    );
  };
  const embedder = batchedEmbedder({ provider: 'transformers', where: modelFolder, batchSize, request: run });

  return {
    provider: 'transformers',
    model,
    get dimension() {
      return embedder.dimension();
    },
    embed: (texts) => embedder.embed(texts),
  };
}
