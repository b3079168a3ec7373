import { describe, expect, it } from 'vitest';
import { lostGain, lostLine, parseSeedPoints, pointKey } from '../eval/seed-points.js';

const EARLIER = [
  '',
  'NESTFUL: warm − cold node F1 / edge F1 / edge F1 multi ("!" below cold by more than 0.001)',
  'seed 1 (cold 0.633/0.267/0.262): 5 % (7) +0.000/+0.013/+0.013  10 % (15) -0.004/+0.009/+0.009!',
  'NESTFUL: 1 of 108 below cold; worst -0.004 (seed 1, 10 %, node)',
  '',
  'RestBench-TMDB: warm − cold node F1 / edge F1 / edge F1 multi ("!" below cold by more than 0.001, "~" ...)',
  'seed 6 (cold 0.332/0.100/0.000): 50 % (25) +0.169/+0.120/+0.222~  100 % (50) +0.151/+0.127/+0.163',
  'RestBench-TMDB: 0 of 108 below cold; worst 0.000 (—)',
  'RestBench-TMDB: warm − cold summed over the points +0.320/+0.247/+0.385',
].join('\n');

describe('learning-seeds points read back from an earlier output', () => {
  it('reads each set, seed and share, marks and all', () => {
    const points = parseSeedPoints(EARLIER);
    expect([...points.keys()]).toEqual(['NESTFUL', 'RestBench-TMDB']);
    expect(points.get('NESTFUL')?.get(pointKey(1, 10))).toEqual([-0.004, 0.009, 0.009]);
    expect(points.get('RestBench-TMDB')?.get(pointKey(6, 50))).toEqual([0.169, 0.12, 0.222]);
    expect(points.get('RestBench-TMDB')?.get(pointKey(6, 100))).toEqual([0.151, 0.127, 0.163]);
    expect(points.get('RestBench-TMDB')?.get(pointKey(6, 5))).toBeUndefined();
  });

  it('calls a gain lost only where a measure gains 0.001 or less now and gained more before', () => {
    const before = parseSeedPoints(EARLIER).get('RestBench-TMDB')?.get(pointKey(6, 50));
    expect(lostGain([0.0004, 0.02, 0.022], before, 0.001)).toBe(true);
    // Printed +0.001 or -0.001, or below cold: no gain left either.
    expect(lostGain([0.001, 0.02, 0.022], before, 0.001)).toBe(true);
    expect(lostGain([0.02, -0.0008, 0.022], before, 0.001)).toBe(true);
    expect(lostGain([0.02, 0.02, -0.05], before, 0.001)).toBe(true);
    // Still a gain on each, however smaller; or nothing to compare with; or no gain before.
    expect(lostGain([0.0011, 0.02, 0.022], before, 0.001)).toBe(false);
    expect(lostGain([0, 0, 0], undefined, 0.001)).toBe(false);
    expect(lostGain([0, 0, 0], [0.001, 0, -0.01], 0.001)).toBe(false);
  });

  it('says a set has no points in the earlier output rather than that it lost no gain', () => {
    const points = parseSeedPoints(EARLIER);
    expect(lostLine('Seal-Tools', [], points.get('Seal-Tools'), 'before.txt')).toBe(
      'Seal-Tools: no points for this set in before.txt',
    );
    expect(lostLine('NESTFUL', [], points.get('NESTFUL'), 'before.txt')).toBe(
      'NESTFUL: 0 gains lost against before.txt',
    );
    expect(lostLine('NESTFUL', ['seed 1 10 %'], points.get('NESTFUL'), 'before.txt')).toBe(
      'NESTFUL: 1 gains lost against before.txt: seed 1 10 %',
    );
  });
});
