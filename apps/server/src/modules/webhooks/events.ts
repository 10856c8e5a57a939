// Where webhook events come from (decision "Webhooks"): one delivery row per subscribed endpoint, written in the
// caller's transaction, so an event exists exactly when what it tells of was committed (a task's end, a batch's
// end). The dispatcher sends the rows; this only writes them.
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type ErrorKey, errorMessage, type WebhookEvent } from '@reelsmith/contract';
import { sql } from 'drizzle-orm';
import { type Queryable, queryRows } from '../../db/client.js';
import type { TaskRow } from '../../db/schema.js';
import type { StoredTaskError } from '../tasks/definition.js';

/** Events written in this process wake its dispatcher at once instead of at its next poll. */
export const emitted = new EventEmitter();

/** What a receiver gets: the event's id (the same in every attempt and resend), its type, when it happened, and its data. */
export interface EventPayload {
  id: string;
  type: WebhookEvent;
  /** Unix seconds. */
  created: number;
  data: Record<string, unknown>;
}

/**
 * Writes the event for each of the user's endpoints that subscribed to it; answers how many. With `db` a
 * transaction, the deliveries commit (or roll back) with it. Exported for the batch module (`batch.finished`).
 */
export async function emitEvent(db: Queryable, userId: string, type: WebhookEvent, data: Record<string, unknown>): Promise<number> {
  const payload: EventPayload = { id: `evt_${randomUUID()}`, type, created: Math.floor(Date.now() / 1000), data };
  const rows = await queryRows<{ id: string }>(
    db,
    sql`insert into webhook_deliveries (id, endpoint_id, user_id, event_id, event, payload)
      select gen_random_uuid()::text, e.id, e.user_id, ${payload.id}, ${type}, ${JSON.stringify(payload)}::jsonb
      from webhook_endpoints e
      where e.user_id = ${userId} and e.disabled_at is null and e.events @> ${JSON.stringify([type])}::jsonb
      returning id`,
  );
  if (rows.length > 0) emitted.emit('event');
  return rows.length;
}

/** A task's error as a receiver reads it: the error table's code and English message, or the stored text. */
function errorOf(error: StoredTaskError | null) {
  if (!error) return null;
  if (!('key' in error)) return { code: null, message: error.message };
  const key: ErrorKey = error.key;
  return { code: key, message: errorMessage(key, 'en', error.params) };
}

/** `task.succeeded` or `task.failed` for a task that has just ended, in the transaction that ended it. */
export function emitTaskEnded(db: Queryable, task: TaskRow, result: unknown = task.result): Promise<number> {
  const base = { taskId: task.id, kind: task.kind, projectId: task.projectId, status: task.status };
  if (task.status === 'SUCCESS') return emitEvent(db, task.userId, 'task.succeeded', { ...base, result });
  return emitEvent(db, task.userId, 'task.failed', { ...base, error: errorOf(task.error as StoredTaskError | null) });
}

/**
 * `credits.low` when this charge (ledger row `entryId`, `charged` credits) took the available credits from at least
 * `threshold` to below it: once per crossing, whatever the number of charges below it. The balance right after the
 * charge is today's balance less the rows written since (the account is locked for each, so ledger ids follow the
 * order of its changes); read in one statement, one snapshot. Nothing is read further for a user who subscribed no
 * endpoint to the event. Charges commit in the ledger's group commit, so this runs just after it, not inside.
 */
export async function emitCreditsLowAfterCharge(
  db: Queryable,
  userId: string,
  entryId: number,
  charged: number,
  threshold: number,
): Promise<boolean> {
  if (threshold <= 0 || charged <= 0) return false;
  const [row] = await queryRows<{ after: number }>(
    db,
    sql`select (a.available_points - coalesce(
        (select sum(l.points_change) from points_ledger l where l.user_id = a.user_id and l.id > ${entryId}), 0))::int as after
      from points_accounts a
      where a.user_id = ${userId} and exists (
        select 1 from webhook_endpoints e
        where e.user_id = a.user_id and e.disabled_at is null and e.events @> '["credits.low"]'::jsonb)`,
  );
  if (!row) return false;
  const after = Number(row.after);
  if (!(after < threshold && after + charged >= threshold)) return false;
  await emitEvent(db, userId, 'credits.low', { available: after, threshold });
  return true;
}
