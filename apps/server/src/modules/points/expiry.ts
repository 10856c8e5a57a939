import { and, gt, lte } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { pointsLots } from '../../db/schema.js';
import { type PeriodicLog, runPeriodically } from '../../periodic.js';
import { expireDueCredits } from './ledger.js';

/** How often the server looks for expired credits (spec "States and transitions": sign-up credits expire after 30 days). */
export const EXPIRY_SWEEP_INTERVAL_MS = 60_000;
/** Users handled per query, so a backlog after downtime is worked through in bounded steps. */
const USERS_PER_BATCH = 500;

/**
 * Writes EXPIRATION rows for every lot whose expiry has passed and that still holds credits; answers the
 * credits expired. Each user's lots expire in one transaction under the account lock and leave nothing
 * behind, so sweeps running at once (or twice) expire each credit once.
 */
export async function sweepExpiredCredits(db: Db, now = new Date()): Promise<number> {
  let expired = 0;
  for (;;) {
    const users = await db
      .selectDistinct({ userId: pointsLots.userId })
      .from(pointsLots)
      .where(and(lte(pointsLots.expiresAt, now), gt(pointsLots.remaining, 0)))
      .limit(USERS_PER_BATCH);
    let batch = 0;
    for (const { userId } of users) batch += await expireDueCredits(db, userId, now);
    expired += batch;
    // A full batch that expired nothing would be found again: stop rather than spin.
    if (users.length < USERS_PER_BATCH || batch === 0) return expired;
  }
}

/** Expires due credits now and every interval until stopped (see `runPeriodically`). */
export function startExpirySweeps(db: Db, log: PeriodicLog, intervalMs = EXPIRY_SWEEP_INTERVAL_MS) {
  return runPeriodically(() => sweepExpiredCredits(db), intervalMs, log, 'expiring credits failed');
}
