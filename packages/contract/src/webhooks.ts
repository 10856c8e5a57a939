import { z } from 'zod';
import { defineCall } from './call.js';
import { Id, Page, Timestamp } from './common.js';

/**
 * What a webhook endpoint can subscribe to (decision "Webhooks"): a task's end either way, a batch's end, and the
 * user's available credits falling below the operator's threshold.
 */
export const WEBHOOK_EVENTS = ['task.succeeded', 'task.failed', 'batch.finished', 'credits.low'] as const;
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** A user's endpoints at most: enough for a shop, an agency's tools and a test receiver. */
export const WEBHOOK_ENDPOINTS_MAX = 10;
/**
 * Resends to one endpoint in a minute at most, and events waiting to go to it past which a resend is refused
 * (decision "Fair webhook delivery"): a resend costs its owner's endpoint only, and only so much.
 */
export const WEBHOOK_RESENDS_PER_MINUTE = 10;
export const WEBHOOK_PENDING_MAX = 100;

/** Longer URLs are refused by the schema; whether one is http(s) and public is the service's check (its own messages). */
export const WEBHOOK_URL_MAX = 2048;

/** The receiver's signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (Stripe's scheme). */
export const WEBHOOK_SIGNATURE_HEADER = 'Reelsmith-Signature';
/** The event's id, the same in every attempt and resend: what receivers deduplicate on. */
export const WEBHOOK_EVENT_ID_HEADER = 'Reelsmith-Event-Id';

export const WebhookEndpoint = z.object({
  endpointId: z.string(),
  url: z.string(),
  events: z.array(WebhookEvent),
  /** The signing secret (`whsec_…`): the owner sees it whenever they need to configure a receiver. */
  secret: z.string(),
  createdAt: Timestamp,
  /** When it was turned off, or null while it is on: an endpoint that is off is sent nothing. */
  disabledAt: Timestamp.nullable(),
  /** Who turned it off: its owner, or the server after every attempt failed for a day; null while it is on. */
  disabledReason: z.enum(['owner', 'failing']).nullable(),
  /** Since when every attempt to it has failed, or null while its latest attempt succeeded. */
  failingSince: Timestamp.nullable(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookDeliveryStatus = z.enum(['PENDING', 'DELIVERED', 'FAILED']);
export type WebhookDeliveryStatus = z.infer<typeof WebhookDeliveryStatus>;

/** One event sent to one endpoint, with the outcome of its latest attempt. */
export const WebhookDelivery = z.object({
  deliveryId: z.string(),
  eventId: z.string(),
  event: WebhookEvent,
  status: WebhookDeliveryStatus,
  attempts: z.number().int(),
  /** The receiver's HTTP status of the latest attempt; null when none answered (refused, timed out, not tried yet). */
  statusCode: z.number().int().nullable(),
  latencyMs: z.number().int().nullable(),
  /** Why the latest attempt failed, in English for the developer (an address refused, a timeout, HTTP 500 and a body excerpt). */
  error: z.string().nullable(),
  createdAt: Timestamp,
  /** When the next attempt is due, while PENDING. */
  nextAttemptAt: Timestamp.nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const webhookEndpointCreate = defineCall({
  method: 'POST',
  path: '/webhooks/endpoints/create',
  access: 'active',
  body: z.strictObject({
    url: z.string().trim().min(1).max(WEBHOOK_URL_MAX),
    events: z
      .array(WebhookEvent)
      .min(1)
      .max(WEBHOOK_EVENTS.length)
      .transform((events) => [...new Set(events)]),
  }),
  data: WebhookEndpoint,
});

export const webhookEndpointList = defineCall({
  method: 'GET',
  path: '/webhooks/endpoints/list',
  access: 'active',
  data: z.array(WebhookEndpoint),
});

/** Deletes the endpoint with its delivery log; deliveries still pending are not sent. */
export const webhookEndpointDelete = defineCall({
  method: 'POST',
  path: '/webhooks/endpoints/delete',
  access: 'active',
  body: z.strictObject({ endpointId: Id }),
  data: z.object({}),
});

/**
 * Turns an endpoint off or on again. While off, no event is written for it and its pending deliveries wait; turned on,
 * they are sent as due and new events reach it again (decision "Webhooks").
 */
export const webhookEndpointUpdate = defineCall({
  method: 'POST',
  path: '/webhooks/endpoints/update',
  access: 'active',
  body: z.strictObject({ endpointId: Id, enabled: z.boolean() }),
  data: WebhookEndpoint,
});

/** An endpoint's deliveries, newest first. */
export const webhookDeliveryList = defineCall({
  method: 'POST',
  path: '/webhooks/deliveries/list',
  access: 'active',
  body: Page.extend({ endpointId: Id }),
  data: z.object({ list: z.array(WebhookDelivery), total: z.number().int() }),
});

/** Sends a delivery's event again: a new delivery with the same event id and payload, so receivers can deduplicate. */
export const webhookDeliveryResend = defineCall({
  method: 'POST',
  path: '/webhooks/deliveries/resend',
  access: 'active',
  body: z.strictObject({ deliveryId: Id }),
  data: WebhookDelivery,
});
