/**
 * @module hooks/lease
 * Who is learning which sessions of the hook queue, beside the spool: `.lease-<claimer>` (scope,
 * sessions, pid, when claimed). A learner writes its lease once its claim is made and drops it once the
 * events are learned or given back. One that could not give them back (the database refused even the
 * release) marks its lease given up; one that died leaves it behind. Either way the claim is abandoned,
 * and the next learner takes those sessions over at once instead of waiting for the claim to go stale.
 * A pid is read only on the host that wrote it (a spool shared across machines or containers waits the minute).
 */
import { readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive, spoolDirFor } from './spool.js';

export interface Lease {
  claimer: string;
  scope: string;
  sessions: string[];
  pid: number;
  /** The machine the pid runs on (os.hostname()); a lease without one was written on this one. */
  host?: string;
  /** Taken after the last claim was made (kept when given up): a claim at this instant or before is this lease's. */
  at: number;
  givenUp?: true;
}

const PREFIX = '.lease-';
const pathOf = (db: string, claimer: string): string => join(spoolDirFor(db), `${PREFIX}${claimer}`);

/** Writes (or rewrites) a lease, whole or not at all; false when it cannot be written. */
export function writeLease(db: string, lease: Lease): boolean {
  const path = pathOf(db, lease.claimer);
  const temporary = `${path}.writing`;
  try {
    writeFileSync(temporary, JSON.stringify(lease), { encoding: 'utf8', mode: 0o600 });
    renameSync(temporary, path);
    return true;
  } catch {
    return false;
  }
}

export function dropLease(db: string, claimer: string): void {
  try {
    unlinkSync(pathOf(db, claimer));
  } catch {
    // Gone already (taken over).
  }
}

/** Every readable lease of the scope but `except`'s; a lease being written is not read. */
export function leasesOf(db: string, scope: string, except: string): Lease[] {
  let names: string[];
  try {
    names = readdirSync(spoolDirFor(db)).filter((n) => n.startsWith(PREFIX) && !n.endsWith('.writing'));
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    try {
      const lease = JSON.parse(readFileSync(join(spoolDirFor(db), name), 'utf8')) as Lease;
      return lease.scope === scope && lease.claimer !== except && Array.isArray(lease.sessions) ? [lease] : [];
    } catch {
      return [];
    }
  });
}

/** A lease whose learner gave up or, on this host, is no longer running (another host's pid is not read here). */
export const abandoned = (lease: Lease): boolean =>
  lease.givenUp === true || ((lease.host === undefined || lease.host === hostname()) && !processAlive(lease.pid));
