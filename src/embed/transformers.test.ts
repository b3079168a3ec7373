import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TRANSFORMERS_INSTALL_HINT, transformersProvider } from './transformers.js';
import { rejection } from '../../test/helpers.js';

const root = mkdtempSync(join(tmpdir(), 'credence-tf-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A model folder with the files transformers.js looks for (empty stand-ins: the pipeline is faked). */
function modelFolder(name: string, onnx: 'model.onnx' | 'model_quantized.onnx' = 'model.onnx'): string {
  const folder = join(root, name);
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  writeFileSync(join(folder, 'config.json'), '{}');
  writeFileSync(join(folder, 'onnx', onnx), '');
  return folder;
}

/**
 * A fake `@huggingface/transformers`: `pipeline` returns an extractor that pools each text to the
 * un-normalised vector [length, 1, 0] (×2 for texts starting with "big"), as a [n, 3] tensor.
 */
function fakeModule(overrides: { failOpen?: number; dims?: (n: number) => number[] } = {}) {
  const calls = {
    opens: [] as { task: string; model: string; options: Record<string, unknown> }[],
    runs: [] as { texts: string[]; options: unknown }[],
  };
  const env: Record<string, unknown> = { allowRemoteModels: true, localModelPath: '/models/' };
  let failures = overrides.failOpen ?? 0;
  const module = {
    env,
    pipeline: async (task: string, model: string, options: Record<string, unknown>) => {
      calls.opens.push({ task, model, options });
      if (failures > 0) {
        failures -= 1;
        throw new Error('Could not locate file: onnx/model.onnx');
      }
      return async (texts: string[], options: unknown) => {
        calls.runs.push({ texts, options });
        const data = new Float32Array(
          texts.flatMap((t) => [t.length, 1, 0].map((x) => (t.startsWith('big') ? 2 * x : x))),
        );
        return { data, dims: overrides.dims?.(texts.length) ?? [texts.length, 3] };
      };
    },
  };
  return { module, env, calls, loadModule: async () => module };
}

describe('transformersProvider', () => {
  it('loads the model folder with remote loading off and asks for mean pooling and normalisation', async () => {
    const folder = modelFolder('MiniLM');
    const fake = fakeModule();
    const provider = transformersProvider({ folder, loadModule: fake.loadModule });
    expect(provider.provider).toBe('transformers');
    expect(provider.model).toBe('MiniLM');
    expect(provider.dimension).toBeUndefined();
    await provider.embed(['hello']);
    expect(fake.env.allowRemoteModels).toBe(false);
    expect(fake.env.localModelPath).toBe(`${root}/`);
    expect(fake.calls.opens).toEqual([
      { task: 'feature-extraction', model: 'MiniLM', options: { local_files_only: true } },
    ]);
    expect(fake.calls.runs[0]?.options).toEqual({ pooling: 'mean', normalize: true });
    expect(provider.dimension).toBe(3);
  });

  it('with a model id, looks for the model under the folder', async () => {
    modelFolder('models/bge-small');
    const fake = fakeModule();
    const provider = transformersProvider({
      folder: join(root, 'models'),
      model: 'bge-small',
      loadModule: fake.loadModule,
    });
    await provider.embed(['hello']);
    expect(fake.env.localModelPath).toBe(`${join(root, 'models')}/`);
    expect(fake.calls.opens[0]?.model).toBe('bge-small');
    expect(provider.model).toBe('bge-small');
  });

  it('gives one normalised vector per text, in order, with a zero vector for a blank text', async () => {
    const fake = fakeModule();
    const provider = transformersProvider({ folder: modelFolder('order'), loadModule: fake.loadModule, batchSize: 2 });
    const vectors = await provider.embed(['abc', '', 'big abcd', 'x']);
    const unit = (x: number, y: number) => [x / Math.hypot(x, y), y / Math.hypot(x, y), 0];
    const expected = [unit(3, 1), [0, 0, 0], unit(16, 2), unit(1, 1)];
    vectors.forEach((v, i) => Array.from(v).forEach((x, j) => expect(x).toBeCloseTo(expected[i]?.[j] ?? NaN, 6)));
    expect(fake.calls.runs.map((r) => r.texts)).toEqual([['abc', 'big abcd'], ['x']]);
    expect(fake.calls.opens).toHaveLength(1);
  });

  it('opens the quantised model when the folder has only that one', async () => {
    const fake = fakeModule();
    await transformersProvider({
      folder: modelFolder('quantised', 'model_quantized.onnx'),
      loadModule: fake.loadModule,
    }).embed(['hi']);
    expect(fake.calls.opens[0]?.options).toEqual({ local_files_only: true, dtype: 'q8' });
  });

  it('is PROVIDER_UNAVAILABLE naming the folder when the folder is missing, without loading the package', async () => {
    let loaded = false;
    const folder = join(root, 'absent');
    const error = await rejection(
      transformersProvider({ folder, loadModule: async () => ((loaded = true), {}) }).embed(['hi']),
    );
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.details?.where).toBe(folder);
    expect(loaded).toBe(false);
  });

  it('is PROVIDER_UNAVAILABLE when the folder is not a model folder', async () => {
    const folder = join(root, 'empty');
    mkdirSync(folder, { recursive: true });
    expect(
      (await rejection(transformersProvider({ folder, loadModule: fakeModule().loadModule }).embed(['hi']))).code,
    ).toBe('PROVIDER_UNAVAILABLE');
  });

  it('is PROVIDER_UNAVAILABLE saying how to install the package when it is not installed', async () => {
    const notFound = Object.assign(new Error("Cannot find package '@huggingface/transformers'"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    const error = await rejection(
      transformersProvider({ folder: modelFolder('no-package'), loadModule: () => Promise.reject(notFound) }).embed([
        'hi',
      ]),
    );
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toContain(TRANSFORMERS_INSTALL_HINT);
  });

  it('loads the real package on demand, and without it (as in this project) says how to install it', async () => {
    const error = await rejection(transformersProvider({ folder: modelFolder('real-import') }).embed(['hi']));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.message).toContain(TRANSFORMERS_INSTALL_HINT);
  });

  it('is PROVIDER_UNAVAILABLE when the model cannot be opened, and tries again on the next call', async () => {
    const fake = fakeModule({ failOpen: 1 });
    const provider = transformersProvider({ folder: modelFolder('retry'), loadModule: fake.loadModule });
    expect((await rejection(provider.embed(['hi']))).code).toBe('PROVIDER_UNAVAILABLE');
    expect(await provider.embed(['hi'])).toHaveLength(1);
    expect(fake.calls.opens).toHaveLength(2);
  });

  it('is PROVIDER_UNAVAILABLE when the pipeline returns token vectors instead of pooled ones', async () => {
    const fake = fakeModule({ dims: (n) => [n, 1, 3] });
    expect(
      (
        await rejection(
          transformersProvider({ folder: modelFolder('unpooled'), loadModule: fake.loadModule }).embed(['hi']),
        )
      ).code,
    ).toBe('PROVIDER_UNAVAILABLE');
  });
});
