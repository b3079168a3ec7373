/**
 * @module bench/scrub
 * The scrubber's time on adversarial texts of n and 4n characters: a linear rule takes about 4 times as long, a
 * quadratic one 16 (target: at most 8). A timing, so here and not in the tests (a shared machine makes it flaky);
 * the tests bound scrubWork(), what the rules' own scans read, which does not see a regex engine's backtracking.
 */
import { scrubText } from '../src/core/security/scrub.js';
import { median, type BenchRow } from './table.js';

/** Units repeated into long texts: each rule's frame, cut where a backtracking engine would try again. */
export const ADVERSARIAL_UNITS: readonly string[] = [
  'redis-cli -h a ',
  'gh secret set X --repo a ',
  'az login -u a ',
  'echo x | docker ',
  'cat <<< x ',
  "IDENTIFIED BY '",
  "CREATE USER a IDENTIFIED BY 'x''",
  'password: |\n',
  '  password: >\n',
  '&sig=',
  '&Signature=',
  '?X-Amz-Signature=',
  '_auth=',
  'REDISCLI_AUTH=',
  '{"value":"x","name":',
  'mysql \\\n',
  '://a:#',
  'name: DB_PASSWORD\n',
  'the password is 2.0.0-',
  'the API key for a is ',
  'secret and the key ',
  'AKIAAAAAAAAAAAAAAAA2 and ',
  'the API key for a b c d is ',
  'key for a b c ',
  'API key (x) ',
  'API key, a b c d ',
  'key-',
  'the password to a b c d e f g h ',
  'password, for a, b, c ',
];

const timeOf = (text: string): number => {
  scrubText(text); // warm: the first run compiles
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    scrubText(text);
    times.push(performance.now() - t);
  }
  return median(times);
};

export function benchScrub(n = 100_000): BenchRow[] {
  return ADVERSARIAL_UNITS.map((unit) => {
    const text = (k: number) => unit.repeat(Math.ceil((k * n) / unit.length));
    const small = timeOf(text(1));
    const large = timeOf(text(4));
    // Under 2 ms the timer and the collector are the noise: the ratio is taken from 2 ms.
    const ratio = large / Math.max(small, 2);
    return {
      benchmark: `scrub ${JSON.stringify(unit)}`,
      measure: `ms for ${4 * n} chars`,
      value: large.toFixed(1),
      reference: `${small.toFixed(1)} ms for ${n}`,
      ratio: `${ratio.toFixed(1)}x`,
      target: ratio <= 8 ? '<= 8x (linear)' : 'OVER 8x: quadratic?',
    };
  });
}
