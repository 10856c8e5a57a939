// A user's webhook endpoints and their delivery log (decision "Webhooks"). An endpoint's URL is checked when it is
// registered for what the URL itself shows (http(s), not localhost nor a private address written in it); the
// addresses its name resolves to are checked at every attempt, since DNS may change in between. Its owner can turn it
// off and on again: off, no event is written for it and its pending deliveries wait unclaimed.
import { randomUUID } from 'node:crypto';
import {
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_PENDING_MAX,
  WEBHOOK_RESENDS_PER_MINUTE,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
} from '@reelsmith/contract';
import { and, count, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { users, type WebhookDeliveryRow, type WebhookEndpointRow, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { OutboundError } from '../../outbound/errors.js';
import { checkWithoutLookup } from '../../outbound/target.js';
import { emitted } from './events.js';
import { newSigningSecret } from './signer.js';

const endpointView = (row: WebhookEndpointRow): WebhookEndpoint => ({
  endpointId: row.id,
  url: row.url,
  events: row.events as WebhookEvent[],
  secret: row.secret,
  createdAt: row.createdAt.toISOString(),
  disabledAt: row.disabledAt?.toISOString() ?? null,
  disabledReason: row.disabledAt ? (row.disabledReason ?? 'owner') : null,
  failingSince: row.failingSince?.toISOString() ?? null,
});

const deliveryView = (row: WebhookDeliveryRow): WebhookDelivery => ({
  deliveryId: row.id,
  eventId: row.eventId,
  event: row.event as WebhookEvent,
  status: row.status,
  attempts: row.attempts,
  statusCode: row.lastStatusCode,
  latencyMs: row.lastLatencyMs,
  error: row.lastError,
  createdAt: row.createdAt.toISOString(),
  nextAttemptAt: row.status === 'PENDING' ? row.nextAttemptAt.toISOString() : null,
});

/** The URL as stored, or the error table's reason it cannot be one. */
function checkedUrl(ctx: AppContext, input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new AppError('webhookUrlInvalid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('webhookUrlInvalid');
  try {
    checkWithoutLookup(url, new Set(ctx.settings.outboundAllowHosts.map((entry) => entry.toLowerCase())));
  } catch (error) {
    if (error instanceof OutboundError) throw new AppError('webhookUrlBlocked');
    throw error;
  }
  return url.href;
}

export async function createEndpoint(
  ctx: AppContext,
  userId: string,
  input: { url: string; events: WebhookEvent[] },
): Promise<WebhookEndpoint> {
  const url = checkedUrl(ctx, input.url);
  return ctx.db.transaction(async (tx) => {
    // The user's row is the lock: two registrations at once cannot both find room for the last endpoint. An endpoint
    // that is off still counts: turning it on again must never take the user past the limit.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const [held] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
    if ((held?.n ?? 0) >= WEBHOOK_ENDPOINTS_MAX) throw new AppError('webhookEndpointsLimit', { max: WEBHOOK_ENDPOINTS_MAX });
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ id: randomUUID(), userId, url, events: input.events, secret: newSigningSecret() })
      .returning();
    return endpointView(row as WebhookEndpointRow);
  });
}

export async function listEndpoints(ctx: AppContext, userId: string): Promise<WebhookEndpoint[]> {
  const rows = await ctx.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id);
  return rows.map(endpointView);
}

const owned = (userId: string, endpointId: string) => and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId));

/** The user's endpoint, on or off; another user's, or a deleted one, is not found. */
async function ownEndpoint(ctx: AppContext, userId: string, endpointId: string): Promise<WebhookEndpointRow> {
  const [row] = await ctx.db.select().from(webhookEndpoints).where(owned(userId, endpointId));
  if (!row) throw new AppError('notFound');
  return row;
}

/**
 * Turns the endpoint off (keeping when it was first turned off) or on again. Turned on, its dispatcher is woken:
 * deliveries that waited while it was off are due at once, and its record of failures starts afresh, so an endpoint
 * the server turned off for failing gets a new day (decision "Fair webhook delivery").
 */
export async function updateEndpoint(
  ctx: AppContext,
  userId: string,
  { endpointId, enabled }: { endpointId: string; enabled: boolean },
): Promise<WebhookEndpoint> {
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set(
      enabled
        ? { disabledAt: null, disabledReason: null, failingSince: null, failedAttempts: 0 }
        : {
            disabledAt: sql`coalesce(${webhookEndpoints.disabledAt}, now())`,
            disabledReason: sql`coalesce(${webhookEndpoints.disabledReason}, 'owner')`,
          },
    )
    .where(owned(userId, endpointId))
    .returning();
  if (!row) throw new AppError('notFound');
  if (enabled) emitted.emit('event');
  return endpointView(row);
}

/** Deletes the endpoint and, by the foreign key's cascade, its deliveries: pending ones are never sent. */
export async function deleteEndpoint(ctx: AppContext, userId: string, endpointId: string): Promise<Record<string, never>> {
  const rows = await ctx.db.delete(webhookEndpoints).where(owned(userId, endpointId)).returning({ id: webhookEndpoints.id });
  if (rows.length === 0) throw new AppError('notFound');
  return {};
}

export async function listDeliveries(
  ctx: AppContext,
  userId: string,
  { endpointId, page, pageSize }: { endpointId: string; page: number; pageSize: number },
): Promise<{ list: WebhookDelivery[]; total: number }> {
  await ownEndpoint(ctx, userId, endpointId);
  const mine = eq(webhookDeliveries.endpointId, endpointId);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(webhookDeliveries)
      .where(mine)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    ctx.db.select({ n: count() }).from(webhookDeliveries).where(mine),
  ]);
  return { list: rows.map(deliveryView), total: total?.n ?? 0 };
}

/**
 * Sends an event again: a new delivery of the same event id and payload to the same endpoint, due now, with its own
 * attempts and its own day of retries; the original stays in the log as it ended. At most WEBHOOK_RESENDS_PER_MINUTE
 * to an endpoint a minute, and none while WEBHOOK_PENDING_MAX wait for it (decision "Fair webhook delivery").
 */
export async function resendDelivery(ctx: AppContext, userId: string, deliveryId: string): Promise<WebhookDelivery> {
  const [original] = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.userId, userId)));
  if (!original) throw new AppError('notFound');
  // Sent to an endpoint that is off, it would sit in the log as pending with nothing saying why.
  const endpoint = await ownEndpoint(ctx, userId, original.endpointId);
  if (endpoint.disabledAt) throw new AppError('webhookEndpointDisabled');
  const row = await ctx.db.transaction(async (tx) => {
    // The endpoint's row is the lock: resends at the same instant are counted one after another.
    await tx.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)).for('update');
    const mine = eq(webhookDeliveries.endpointId, endpoint.id);
    const [[pending], [recent]] = await Promise.all([
      tx
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(mine, eq(webhookDeliveries.status, 'PENDING'))),
      tx
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(and(mine, isNotNull(webhookDeliveries.resendOf), gt(webhookDeliveries.createdAt, sql`now() - interval '1 minute'`))),
    ]);
    if ((recent?.n ?? 0) >= WEBHOOK_RESENDS_PER_MINUTE) {
      throw new AppError('webhookResendsTooFast', { max: WEBHOOK_RESENDS_PER_MINUTE }, { retryAfterSeconds: 60 });
    }
    if ((pending?.n ?? 0) >= WEBHOOK_PENDING_MAX) {
      throw new AppError('webhookBacklogFull', { max: WEBHOOK_PENDING_MAX }, { retryAfterSeconds: 60 });
    }
    const [inserted] = await tx
      .insert(webhookDeliveries)
      .values({
        id: randomUUID(),
        endpointId: original.endpointId,
        userId,
        eventId: original.eventId,
        event: original.event,
        payload: original.payload,
        resendOf: original.id,
      })
      .returning();
    return inserted as WebhookDeliveryRow;
  });
  emitted.emit('event');
  return deliveryView(row);
}
