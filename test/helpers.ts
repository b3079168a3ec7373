/**
 * Helpers shared by the test files (not a test file itself: vitest does not collect it).
 */

import { isCredenceError } from '../src/core/errors.js';

/**
 * The code of the CredenceError `fn` throws: undefined when it throws nothing, and
 * `'not a CredenceError'` when it throws anything else, so that an assertion on the code fails on
 * a plain Error as well as on no error at all.
 */
export function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isCredenceError(error) ? error.code : 'not a CredenceError';
  }
  return undefined;
}
