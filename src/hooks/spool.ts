/**
 * @module hooks/spool
 * Where a hook puts an event when the database is busy past the short busy timeout (or cannot be
 * opened): one JSON line appended to `<db>.hook-spool.jsonl` (a single `write` with O_APPEND, so
 * lines from processes writing at once never interleave). The next invocation that reaches the
 * database moves the spool into the queue first: it renames the file (new lines start a new
 * spool), queues its lines (in one transaction: all or none), and deletes it. When queuing fails
 * (the database is busy again), the lines go back to the spool. A drainer that died leaves its
 * renamed file behind; the next one takes it after a minute.
 */
import { appendFileSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { HookEvent } from '../store/types.js';

export interface SpooledEvent extends Omit<HookEvent, 'seq' | 'turn'> {
  scope: string;
  /** `next` for a prompt (it starts a turn), `current` for a call: resolved when it is queued. */
  turn: number | 'current' | 'next';
}

export const spoolPathFor = (db: string): string => `${db}.hook-spool.jsonl`;

const DRAINING = '.draining';
const ABANDONED_AFTER_MS = 60_000;

export function spoolEvent(db: string, event: SpooledEvent): void {
  appendFileSync(spoolPathFor(db), `${JSON.stringify(event)}\n`, { encoding: 'utf8', mode: 0o600 });
}

/**
 * Takes the spooled events (the current spool and abandoned drains) and hands them to `queue`;
 * a file is deleted only once `queue` has resolved. Broken lines are reported and skipped.
 */
export async function drainSpool(db: string, queue: (events: SpooledEvent[]) => Promise<void>, report: (line: string) => void): Promise<number> {
  const spool = spoolPathFor(db);
  const dir = dirname(spool);
  const name = basename(spool);
  const files: string[] = [];
  try {
    const mine = `${spool}.${process.pid}.${Date.now()}${DRAINING}`;
    renameSync(spool, mine);
    files.push(mine);
  } catch {
    // No spool (the usual case), or another process took it first.
  }
  let entries: string[] = [];
  try {
    entries = readdirSync(dir);
  } catch {
    entries = [];
  }
  for (const entry of entries) {
    if (!entry.startsWith(`${name}.`) || !entry.endsWith(DRAINING)) continue;
    const path = join(dir, entry);
    if (files.includes(path)) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs < ABANDONED_AFTER_MS) continue;
      const taken = `${spool}.${process.pid}.${Date.now()}.${files.length}${DRAINING}`;
      renameSync(path, taken);
      files.push(taken);
    } catch {
      // Someone else took it.
    }
  }
  let count = 0;
  for (const file of files) {
    const events: SpooledEvent[] = [];
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (line.trim() === '') return;
        try {
          events.push(JSON.parse(line) as SpooledEvent);
        } catch {
          report(`spool ${file} line ${i + 1} is broken and was skipped`);
        }
      });
    try {
      await queue(events);
    } catch (error) {
      // Not queued: back to the spool, for the next invocation.
      if (events.length > 0) appendFileSync(spoolPathFor(db), events.map((e) => `${JSON.stringify(e)}\n`).join(''), { encoding: 'utf8', mode: 0o600 });
      unlinkSync(file);
      throw error;
    }
    unlinkSync(file);
    count += events.length;
  }
  return count;
}
