/**
 * The sweep of stored objects nobody will use (docs/decisions, "Storage quota"), on either driver, by the quota's
 * ledger: put-url uploads never registered are deleted after a day, and captured pages once a link analysis that
 * read them succeeded, or after a week. Room reserved for an upload whose link has expired is measured then and
 * there: what was never uploaded gives its room back at once, not a day later.
 */
import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { storedObjects, tasks } from '../../db/schema.js';
import { type PeriodicLog, runPeriodically } from '../../periodic.js';
import type { Storage } from './storage/storage.js';
import { UPLOAD_URL_TTL_SECONDS } from './storage/storage.js';
import { release, settle } from './storedObjects.js';

export const UPLOAD_KEEP_MS = 24 * 60 * 60_000;
export const PAGE_KEEP_MS = 7 * 24 * 60 * 60_000;
/** An upload link is measured this long after it was made: past its expiry, with a margin for a PUT under way. */
const MEASURE_AFTER_MS = UPLOAD_URL_TTL_SECONDS * 1000 + 10 * 60_000;
export const STORAGE_SWEEP_INTERVAL_MS = 60 * 60_000;
/** Objects handled per query, so a backlog is worked through in bounded steps. */
const BATCH = 500;

export interface SweepCounts {
  /** Uploads deleted, never registered. */
  uploads: number;
  /** Captured pages deleted, analysed or old. */
  pages: number;
  /** Expired upload links whose reserved room was measured (given back when nothing was uploaded). */
  measured: number;
}

export async function sweepStoredObjects({ db, storage }: { db: Db; storage: Storage }, now = new Date()): Promise<SweepCounts> {
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const counts: SweepCounts = { uploads: 0, pages: 0, measured: 0 };

  const stale = (kind: 'upload' | 'page', keepMs: number) => and(eq(storedObjects.kind, kind), lt(storedObjects.createdAt, ago(keepMs)));
  // A page is analysed once a link analysis of its owner that read it has succeeded.
  const analysed = and(
    eq(storedObjects.kind, 'page'),
    sql`exists (select 1 from ${tasks} where ${tasks.userId} = ${storedObjects.userId} and ${tasks.kind} = 'link-analysis'
        and ${tasks.status} = 'SUCCESS' and ${tasks.input}->>'resKey' = ${storedObjects.key})`,
  );
  for (;;) {
    const doomed = await db
      .select({ key: storedObjects.key, kind: storedObjects.kind })
      .from(storedObjects)
      .where(or(stale('upload', UPLOAD_KEEP_MS), stale('page', PAGE_KEEP_MS), analysed))
      .limit(BATCH);
    if (doomed.length === 0) break;
    // The metered storage forgets the keys once their objects are gone.
    await storage.delete(doomed.map((row) => row.key));
    counts.uploads += doomed.filter((row) => row.kind === 'upload').length;
    counts.pages += doomed.filter((row) => row.kind === 'page').length;
    if (doomed.length < BATCH) break;
  }

  for (;;) {
    const expired = await db
      .select({ key: storedObjects.key, size: storedObjects.size })
      .from(storedObjects)
      .where(and(eq(storedObjects.kind, 'upload'), eq(storedObjects.pending, true), lt(storedObjects.createdAt, ago(MEASURE_AFTER_MS))))
      .limit(BATCH);
    const missing: string[] = [];
    for (const { key, size } of expired) {
      const found = await storage.stat(key);
      if (!found) missing.push(key);
      // More than was reserved (a driver that did not hold the upload to it): not kept.
      else if (found.size > size) await storage.delete([key]);
      else await settle(db, key, found.size);
    }
    await release(db, missing);
    counts.measured += expired.length;
    if (expired.length < BATCH) break;
  }
  return counts;
}

/** Sweeps now and every interval until stopped (see `runPeriodically`). */
export function startStorageSweeps(target: { db: Db; storage: Storage }, log: PeriodicLog, intervalMs = STORAGE_SWEEP_INTERVAL_MS) {
  return runPeriodically(() => sweepStoredObjects(target), intervalMs, log, 'sweeping stored objects failed');
}
