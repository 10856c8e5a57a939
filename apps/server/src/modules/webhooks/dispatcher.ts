// The webhook dispatcher (decision "Webhooks"): runs where the task worker runs (ROLE worker or all) and sends the
// due deliveries, claimed like tasks. A claim is one conditional update under FOR UPDATE SKIP LOCKED that takes a
// lease, so two dispatchers never send the same attempt at once; a dispatcher that dies leaves its lease to lapse and
// another sends the attempt again (at least once; the event id lets receivers deduplicate). Failed attempts wait
// with exponential backoff, and a delivery still failing a day after its event ends FAILED. Sending is shared
// (decision "Fair webhook delivery"): one attempt in flight per endpoint and `perUser` per user, the user with the
// fewest in flight first, so an endpoint that never answers holds one sender of its owner's and nobody else's; an
// endpoint whose every attempt failed for `turnOffAfterMs` (and at least `turnOffAfterFailures` of them) is turned
// off, and its owner sees why on the Developers page. A blocked user's deliveries wait unsent.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@reelsmith/contract';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { type Db, queryRows } from '../../db/client.js';
import { fromColumns } from '../../db/rows.js';
import { type WebhookDeliveryRow, webhookDeliveries, webhookEndpoints } from '../../db/schema.js';
import type { Lookup } from '../../outbound/target.js';
import type { PeriodicLog } from '../../periodic.js';
import { sleep } from '../tasks/worker.js';
import { type EventPayload, emitted } from './events.js';
import { type Attempt, postEvent } from './sender.js';
import { signatureHeader } from './signer.js';

export interface DispatcherOptions {
  log: PeriodicLog & { warn(obj: object, msg: string): void };
  /** How often an idle dispatcher looks for due deliveries (events written in this process wake it at once). */
  pollMs?: number;
  /** How long a claim holds: longer than an attempt's timeout, so a live dispatcher never loses one mid-send. */
  leaseMs?: number;
  /** One attempt, from resolving the host to the answer's headers. */
  timeoutMs?: number;
  /** Attempts in flight at once. */
  concurrency?: number;
  /** Attempts in flight at once for one user's endpoints, across dispatchers. */
  perUser?: number;
  /** An endpoint failing every attempt this long, and at least `turnOffAfterFailures` times, is turned off. */
  turnOffAfterMs?: number;
  turnOffAfterFailures?: number;
  /** The wait after the first failed attempt; each further failure doubles it, up to `maxBackoffMs`. */
  firstBackoffMs?: number;
  maxBackoffMs?: number;
  /** How long after its event a delivery is retried; then it ends FAILED. */
  retryForMs?: number;
  /** Tests make names point anywhere; the system resolver otherwise. */
  lookup?: Lookup;
}

export interface Dispatcher {
  readonly id: string;
  stop(): Promise<void>;
}

export const WEBHOOK_DEFAULTS = {
  pollMs: 1_000,
  leaseMs: 60_000,
  timeoutMs: 10_000,
  concurrency: 4,
  perUser: 2,
  turnOffAfterMs: 24 * 60 * 60_000,
  turnOffAfterFailures: 20,
  firstBackoffMs: 30_000,
  maxBackoffMs: 60 * 60_000,
  retryForMs: 24 * 60 * 60_000,
} as const;

const interval = (ms: number) => sql`(${ms} * interval '1 millisecond')`;

/** A due delivery with what sending it needs: its endpoint's URL and secret. */
type Claimed = WebhookDeliveryRow & { url: string; secret: string };

/**
 * Claims a due delivery whose endpoint is on and whose user is not blocked: PENDING, its time come, not leased (or its
 * lease lapsed: its dispatcher died), its endpoint with no attempt in flight and its user with fewer than `perUser`;
 * of those, the user's with the fewest in flight, then the one due longest ago. One more attempt, under this
 * dispatcher's lease. Two dispatchers claiming at the same instant may each take one for the same endpoint: the
 * share is passed by the dispatchers in flight at that moment, never by a flood.
 */
export async function claimDelivery(db: Db, owner: string, leaseMs: number, perUser: number): Promise<Claimed | undefined> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`with flying as (
        select endpoint_id, user_id from webhook_deliveries where status = 'PENDING' and lease_until >= now()
      )
      update webhook_deliveries d
      set lease_owner = ${owner}, lease_until = now() + ${interval(leaseMs)}, attempts = d.attempts + 1
      from (
        select w.id, e.url, e.secret from webhook_deliveries w
        join webhook_endpoints e on e.id = w.endpoint_id
        join users u on u.id = w.user_id
        left join (select user_id, count(*) as n from flying group by user_id) f on f.user_id = w.user_id
        where w.status = 'PENDING' and w.next_attempt_at <= now() and (w.lease_until is null or w.lease_until < now())
          and e.disabled_at is null and u.blocked_at is null
          and not exists (select 1 from flying where flying.endpoint_id = w.endpoint_id)
          and coalesce(f.n, 0) < ${perUser}
        order by coalesce(f.n, 0), w.next_attempt_at
        limit 1
        for update of w skip locked
      ) c
      where d.id = c.id
      returning d.*, c.url as claimed_url, c.secret as claimed_secret`,
  );
  if (!row) return undefined;
  return { ...fromColumns(webhookDeliveries, row), url: String(row.claimed_url), secret: String(row.claimed_secret) };
}

/** The wait before the attempt after `attempts` failed ones. */
export const backoffMs = (attempts: number, firstMs: number, maxMs: number) => Math.min(maxMs, firstMs * 2 ** Math.max(0, attempts - 1));

/** The body as sent: the payload's fields in the documented order (jsonb keeps its own order of keys). */
export const bodyOf = (payload: EventPayload) =>
  JSON.stringify({ id: payload.id, type: payload.type, created: payload.created, data: payload.data });

/**
 * Records an attempt, while this dispatcher still holds the delivery: DELIVERED; or PENDING again after the backoff;
 * or FAILED when the next attempt would come more than `retryForMs` after the event.
 */
async function record(
  db: Db,
  delivery: Claimed,
  owner: string,
  attempt: Attempt,
  options: Required<Pick<DispatcherOptions, 'firstBackoffMs' | 'maxBackoffMs' | 'retryForMs' | 'turnOffAfterMs' | 'turnOffAfterFailures'>>,
): Promise<boolean> {
  const outcome = { lastStatusCode: attempt.statusCode, lastLatencyMs: attempt.latencyMs, lastError: attempt.error?.slice(0, 500) ?? null };
  const held = and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.leaseOwner, owner));
  const released = { leaseOwner: null, leaseUntil: null };
  if (attempt.ok) {
    await db
      .update(webhookDeliveries)
      .set({ ...outcome, ...released, status: 'DELIVERED', deliveredAt: sql`now()` })
      .where(held);
    // An answer ends the endpoint's run of failures; written only when there was one.
    await db
      .update(webhookEndpoints)
      .set({ failingSince: null, failedAttempts: 0 })
      .where(and(eq(webhookEndpoints.id, delivery.endpointId), isNotNull(webhookEndpoints.failingSince)));
    return false;
  }
  const wait = backoffMs(delivery.attempts, options.firstBackoffMs, options.maxBackoffMs);
  const next = sql`now() + ${interval(wait)}`;
  await db
    .update(webhookDeliveries)
    .set({
      ...outcome,
      ...released,
      status: sql`case when ${next} > ${webhookDeliveries.createdAt} + ${interval(options.retryForMs)} then 'FAILED' else 'PENDING' end`,
      nextAttemptAt: next,
    })
    .where(held);
  return noteFailure(db, delivery.endpointId, options);
}

/**
 * Counts a failed attempt against its endpoint and turns the endpoint off when every attempt has failed for
 * `turnOffAfterMs`, at least `turnOffAfterFailures` of them. Answers whether this failure turned it off.
 */
async function noteFailure(
  db: Db,
  endpointId: string,
  { turnOffAfterMs, turnOffAfterFailures }: Required<Pick<DispatcherOptions, 'turnOffAfterMs' | 'turnOffAfterFailures'>>,
): Promise<boolean> {
  const failing = sql`${webhookEndpoints.disabledAt} is null and ${webhookEndpoints.failedAttempts} + 1 >= ${turnOffAfterFailures}
    and ${webhookEndpoints.failingSince} <= now() - ${interval(turnOffAfterMs)}`;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, now())`,
      failedAttempts: sql`${webhookEndpoints.failedAttempts} + 1`,
      disabledAt: sql`case when ${failing} then now() else ${webhookEndpoints.disabledAt} end`,
      disabledReason: sql`case when ${failing} then 'failing' else ${webhookEndpoints.disabledReason} end`,
    })
    .where(eq(webhookEndpoints.id, endpointId))
    // now() is the statement's transaction's moment: equal only when this update wrote it.
    .returning({ turnedOff: sql<boolean>`${webhookEndpoints.disabledAt} is not distinct from now()` });
  return row?.turnedOff === true;
}

export function startDispatcher(ctx: AppContext, options: DispatcherOptions): Dispatcher {
  const settings = { ...WEBHOOK_DEFAULTS, ...options };
  const { log, pollMs, leaseMs, timeoutMs, concurrency, perUser } = settings;
  const id = `webhooks-${randomUUID()}`;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();
  let wake = new AbortController();
  const onEmitted = () => wake.abort();
  emitted.on('event', onEmitted);

  async function deliver(delivery: Claimed) {
    const payload = delivery.payload as EventPayload;
    const body = bodyOf(payload);
    const headers = { [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(delivery.secret, body), [WEBHOOK_EVENT_ID_HEADER]: delivery.eventId };
    const attempt = await postEvent(delivery.url, body, headers, {
      allowHosts: ctx.settings.outboundAllowHosts,
      timeoutMs,
      lookup: settings.lookup,
    });
    if (!attempt.ok) log.warn({ deliveryId: delivery.id, attempt: delivery.attempts, error: attempt.error }, 'webhook attempt failed');
    if (await record(ctx.db, delivery, id, attempt, settings)) {
      log.warn(
        { endpointId: delivery.endpointId, userId: delivery.userId },
        'a webhook endpoint failing every attempt for a day was turned off',
      );
    }
  }

  function start(delivery: Claimed) {
    const done: Promise<void> = deliver(delivery)
      .catch((err: unknown) => log.error({ err, deliveryId: delivery.id }, 'could not record a webhook attempt'))
      .finally(() => {
        running.delete(done);
        wake.abort();
      });
    running.add(done);
  }

  async function loop() {
    while (!stopping.signal.aborted) {
      try {
        while (running.size < concurrency && !stopping.signal.aborted) {
          const delivery = await claimDelivery(ctx.db, id, leaseMs, perUser);
          if (!delivery) break;
          start(delivery);
        }
      } catch (err) {
        log.error({ err }, 'the webhook dispatcher could not reach its deliveries');
      }
      if (wake.signal.aborted) {
        wake = new AbortController();
        continue;
      }
      await sleep(pollMs, AbortSignal.any([wake.signal, stopping.signal]));
    }
  }

  const looping = loop();
  return {
    id,
    async stop() {
      stopping.abort();
      emitted.off('event', onEmitted);
      await looping;
      // Attempts in flight end within their timeout; each is recorded, so none is sent again needlessly.
      await Promise.all([...running]);
    },
  };
}
