import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamWriter } from './dump.js';

/** A stream with a tiny buffer that takes each chunk a tick later, so nearly every write waits for 'drain'. */
function slowSink(failAfter = Infinity): { out: Writable; received: string[] } {
  const received: string[] = [];
  const out = new Writable({
    highWaterMark: 8,
    write(chunk: Buffer, _encoding, callback) {
      setImmediate(() => {
        if (received.length >= failAfter) return callback(new Error('disk full'));
        received.push(chunk.toString());
        callback();
      });
    },
  });
  return { out, received };
}

describe('streamWriter', () => {
  it('waits for drain with one error listener however many writes wait (no MaxListenersExceededWarning)', async () => {
    const { out, received } = slowSink();
    const writer = streamWriter(out);
    const listeners = out.listenerCount('error');
    for (let i = 0; i < 200; i++) {
      await writer.write(`row ${i} with some text\n`);
      expect(out.listenerCount('error')).toBe(listeners);
      expect(out.listenerCount('drain')).toBe(1);
    }
    await writer.end();
    expect(received.join('')).toBe(Array.from({ length: 200 }, (_, i) => `row ${i} with some text\n`).join(''));
  });

  it('rejects the waiting write, every later write and the end with the stream error', async () => {
    const { out } = slowSink(3);
    const writer = streamWriter(out);
    let failure: unknown;
    try {
      for (let i = 0; i < 100; i++) await writer.write(`row ${i} with some text\n`);
    } catch (error) {
      failure = error;
    }
    expect((failure as Error).message).toBe('disk full');
    await expect(writer.write('more\n')).rejects.toThrow('disk full');
    await expect(writer.end()).rejects.toThrow('disk full');
  });
});
