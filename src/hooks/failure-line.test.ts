import { describe, expect, it } from 'vitest';
import { storeFailureLine } from './failure-line.js';

describe('a hook line for a store failure (walk 6, item 8)', () => {
  it("names the SQLite file when the driver's message does not", () => {
    const malformed = Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' });
    expect(storeFailureLine('SessionStart', malformed, '/x/s.db')).toBe(
      'SessionStart: the database /x/s.db failed: database disk image is malformed',
    );
    const named = Object.assign(new Error('cannot open the database at /x/s.db: busy'), { code: 'SQLITE_BUSY' });
    expect(storeFailureLine('Stop', named, '/x/s.db')).toBe('Stop: cannot open the database at /x/s.db: busy');
    expect(storeFailureLine('Stop', new Error('no scope'), '/x/s.db')).toBe('Stop: no scope');
  });
});
