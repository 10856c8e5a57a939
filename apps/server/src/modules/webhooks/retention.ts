// How long the delivery log keeps what it sent (decision "Fair webhook delivery"): a delivery that ended, delivered or
// failed, is deleted 30 days after its event, with its payload, so the log and the resend copies a user made stay
// bounded by time as resends are by rate. Pending deliveries are never deleted here: they end within a day.
import { and, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookDeliveries } from '../../db/schema.js';
import { type PeriodicLog, runPeriodically } from '../../periodic.js';

export const DELIVERY_KEEP_MS = 30 * 24 * 60 * 60_000;
const SWEEP_INTERVAL_MS = 60 * 60_000;

/** Deletes the ended deliveries older than DELIVERY_KEEP_MS; answers how many. */
export async function sweepDeliveries(db: Db, now = new Date()): Promise<number> {
  const gone = await db
    .delete(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ['DELIVERED', 'FAILED']),
        lt(webhookDeliveries.createdAt, new Date(now.getTime() - DELIVERY_KEEP_MS)),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return gone.length;
}

/** Sweeps now and hourly until stopped (see `runPeriodically`). */
export const startDeliverySweeps = (db: Db, log: PeriodicLog) =>
  runPeriodically(() => sweepDeliveries(db), SWEEP_INTERVAL_MS, log, 'sweeping the webhook delivery log failed');
