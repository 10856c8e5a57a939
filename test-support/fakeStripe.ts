// A test fake of the parts of Stripe's HTTP API that Reelsmith calls, for the server tests and the browser tests; it is
// never part of the product. It speaks Stripe's own protocol (form-encoded requests with bracketed keys, Bearer keys,
// Stripe's error JSON, Idempotency-Key, lists, expand, objects shaped as in API version 2026-10-28.endive), so the
// real `stripe` SDK pointed at it works: `new Stripe(fake.secretKey, { host: '127.0.0.1', port: fake.port,
// protocol: 'http' })`. It also serves plain HTML stand-ins for the hosted Checkout page (/pay/:id) and the customer
// portal (/portal/:id), and POSTs events signed with the SDK's own helper to one webhook URL, retrying failures with a
// short doubling backoff. Test controls (pay, renew, refund, dispute, replay an event…) are on the object
// `startFakeStripe` answers. Objects carry the fields the product reads, not every field Stripe sends.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const FAKE_STRIPE_API_VERSION = '2026-10-28.endive';
const PERIOD_S = 30 * 86_400;
const MAX_ATTEMPTS = 6;
const DELIVERY_TIMEOUT_MS = 10_000;
const ZERO_DECIMAL = /^(bif|clp|djf|gnf|jpy|kmf|krw|mga|pyg|rwf|ugx|vnd|vuv|xaf|xof|xpf)$/i;

// biome-ignore lint/suspicious/noExplicitAny: Stripe objects here are plain JSON, shaped like the SDK's types but partial.
type Obj = Record<string, any>;

export interface FakePrice {
  id: string;
  unitAmount: number;
  currency: string;
  recurring?: boolean;
  nickname?: string;
  /** Amounts in other currencies (minor units), keyed by currency code. */
  currencyOptions?: Record<string, number>;
  /** The product id; `prod_<price id>` when absent. */
  product?: string;
}
export interface FakeEvent {
  id: string;
  type: string;
  payload: string;
}
export interface FakeDelivery {
  eventId: string;
  status: number | 'error';
  at: number;
}

export interface FakeStripe {
  /** http://127.0.0.1:PORT */
  base: string;
  port: number;
  /** The key the SDK must use. */
  secretKey: string;
  /** whsec_… the product verifies with. */
  webhookSecret: string;
  setWebhookUrl(url: string): void;
  addPrice(p: FakePrice): void;
  /** Pays an open session as the Pay button does; `delayed` (mode payment only) for Boleto/Pix-like methods: first
   * `checkout.session.completed` with payment_status 'unpaid', and only `settle` later sends
   * `checkout.session.async_payment_succeeded` (payment_status paid). */
  pay(sessionId: string, options?: { delayed?: boolean }): Promise<void>;
  settle(sessionId: string): Promise<void>;
  /** Bills the next month of a subscription: new period, paid invoice (subscription_cycle), `invoice.paid`. */
  renew(subscriptionId: string): Promise<void>;
  /** Ends a subscription now: status canceled, `customer.subscription.deleted`. */
  cancelNow(subscriptionId: string): Promise<void>;
  /** Refunds `amount` (minor units; the whole remaining amount when absent) of the charge of a payment intent. */
  refund(paymentIntentId: string, amount?: number): Promise<void>;
  /** Opens and closes a dispute on the charge of a payment intent: `charge.dispute.created`, then `charge.dispute.closed`. */
  dispute(paymentIntentId: string, outcome: 'lost' | 'won'): Promise<void>;
  /** Builds (and records) an event without sending it; it is signed afresh at each delivery. */
  event(type: string, object: unknown): FakeEvent;
  /** Sends an event `times` times (one attempt each, no retries), concurrently when `concurrent`, with `signature` as
   * the Stripe-Signature header when given; answers each delivery's status, 0 for a connection error. */
  deliver(event: FakeEvent, options?: { times?: number; concurrent?: boolean; signature?: string }): Promise<number[]>;
  /** Every event made so far, oldest first, and every delivery attempt. */
  events: FakeEvent[];
  deliveries: FakeDelivery[];
  sessions: Map<string, Obj>;
  subscriptions: Map<string, Obj>;
  customers: Map<string, Obj>;
  invoices: Map<string, Obj>;
  charges: Map<string, Obj>;
  paymentIntents: Map<string, Obj>;
  /** Off: events are recorded but not sent until `flush()`; for tests that send them in their own order. Events made
   * while no webhook URL is set also wait for `flush()`. */
  autoDeliver: boolean;
  flush(): Promise<void>;
  /** Leaves API requests whose `METHOD /path` starts with `prefix` unanswered (a caller stuck on Stripe, for a test that
   * kills it there); `seen` resolves at the first such request, `release` answers the held ones and stops holding. */
  hold(prefix: string): { seen: Promise<void>; release(): void };
  close(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Obj,
  ) {
    super(String(body.message));
  }
}
const invalid = (message: string, param: string, code?: string) =>
  new ApiError(400, { type: 'invalid_request_error', message, param, ...(code ? { code } : {}) });
const noSuch = (kind: string, id: string, param = 'id', status = 404) =>
  new ApiError(status, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'`, param });

/** Stripe's bracket encoding (`a[b][0][c]=v`) into nested objects, all-numeric keys becoming arrays. */
export function parseStripeParams(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = root;
    path.forEach((part, i) => {
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (i === path.length - 1) node[name] = value;
      else node = node[name] ??= {};
    });
  }
  const arrays = (v: unknown): unknown => {
    if (!v || typeof v !== 'object') return v;
    const entries = Object.entries(v).map(([k, x]) => [k, arrays(x)] as const);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k)))
      return entries.sort((a, b) => Number(a[0]) - Number(b[0])).map(([, x]) => x);
    return Object.fromEntries(entries);
  };
  return arrays(root) as Obj;
}

const now = () => Math.floor(Date.now() / 1000);
let seq = 0;
const newId = (prefix: string) => `${prefix}_${(++seq).toString(36)}${randomBytes(7).toString('hex')}`;
/** A new Stripe object: id and object first, then created, livemode, empty metadata, and the fields given in groups. */
const make = (...fields: Obj[]): Obj => Object.assign({ id: '', object: '', created: now(), livemode: false, metadata: {} }, ...fields);
const list = (data: Obj[], url: string) => ({ object: 'list', data, has_more: false, total_count: data.length, url });
export const formatAmount = (amount: number, currency: string) =>
  `${currency.toUpperCase()} ${ZERO_DECIMAL.test(currency) ? amount : (amount / 100).toFixed(2)}`;
const esc = (s: unknown) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><h1>${esc(title)}</h1>${body}</body></html>`;
const button = (action: string, label: string, fields: Record<string, string> = {}) => {
  const hidden = Object.entries(fields).map(([k, v]) => `<input type="hidden" name="${esc(k)}" value="${esc(v)}">`);
  return `<form method="post" action="${esc(action)}">${hidden.join('')}<button type="submit">${esc(label)}</button></form>`;
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** One POST of a webhook; answers the status, or 'error' when the connection failed or timed out. */
function post(url: string, body: string, signature: string): Promise<number | 'error'> {
  const headers = { 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Stripe/1.0', 'stripe-signature': signature };
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', timeout: DELIVERY_TIMEOUT_MS, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve('error'));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve('error'));
    req.end(body);
  });
}

export async function startFakeStripe(
  options: { webhookUrl?: string; retryMs?: number; port?: number; secretKey?: string; webhookSecret?: string } = {},
): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(8).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_fake_${randomBytes(12).toString('hex')}`;
  const retryMs = options.retryMs ?? 200;
  let webhookUrl = options.webhookUrl;
  let base = '';

  const prices = new Map<string, Obj>();
  const priceOptions = new Map<string, Record<string, number>>();
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const sessionLines = new Map<string, { price: string; quantity: number; piMetadata: Obj; subMetadata: Obj }>();
  const subscriptions = new Map<string, Obj>();
  const invoices = new Map<string, Obj>();
  const invoicePayments = new Map<string, Obj>();
  const paymentIntents = new Map<string, Obj>();
  const charges = new Map<string, Obj>();
  const disputes = new Map<string, Obj>();
  const portalSessions = new Map<string, Obj>();
  /** What GET /v1/<collection>[/:id] reads, and the kind named in "No such …" errors. */
  const collections: Record<string, [Map<string, Obj>, string]> = {
    customers: [customers, 'customer'],
    prices: [prices, 'price'],
    'checkout/sessions': [sessions, 'checkout.session'],
    subscriptions: [subscriptions, 'subscription'],
    invoices: [invoices, 'invoice'],
    invoice_payments: [invoicePayments, 'invoice_payment'],
    payment_intents: [paymentIntents, 'payment_intent'],
    charges: [charges, 'charge'],
    disputes: [disputes, 'dispute'],
  };
  const lookup = (id: string) =>
    Object.values(collections)
      .find(([store]) => store.has(id))?.[0]
      .get(id);
  const idempotent = new Map<string, { fingerprint: string; status: number; body: string }>();

  // ---- Webhooks: events recorded in order, sent one after another (first attempts awaited), retried in the background.
  const events: FakeEvent[] = [];
  const deliveries: FakeDelivery[] = [];
  const pending: FakeEvent[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const inflight = new Set<Promise<unknown>>();
  let chain: Promise<unknown> = Promise.resolve();
  let closed = false;

  const attempt = (ev: FakeEvent, signature?: string): Promise<number | 'error'> => {
    if (!webhookUrl) throw new Error('fake Stripe: no webhook URL set');
    const header = signature ?? Stripe.webhooks.generateTestHeaderString({ payload: ev.payload, secret: webhookSecret });
    const sent = post(webhookUrl, ev.payload, header).then((status) => {
      deliveries.push({ eventId: ev.id, status, at: Date.now() });
      return status;
    });
    inflight.add(sent);
    void sent.finally(() => inflight.delete(sent));
    return sent;
  };
  const ok = (status: number | 'error') => typeof status === 'number' && status >= 200 && status < 300;
  const retry = (ev: FakeEvent, attempts: number, waitMs: number) => {
    if (attempts >= MAX_ATTEMPTS || closed) return;
    const timer = setTimeout(async () => {
      timers.delete(timer);
      if (!closed && !ok(await attempt(ev))) retry(ev, attempts + 1, waitMs * 2);
    }, waitMs);
    timers.add(timer);
  };
  const send = (ev: FakeEvent) => {
    chain = chain
      .then(async () => {
        if (!closed && !ok(await attempt(ev))) retry(ev, 1, retryMs);
      })
      .catch((error: unknown) => console.error(`fake Stripe: could not send ${ev.type}`, error));
    return chain;
  };
  const makeEvent = (type: string, object: unknown, previous?: Obj): FakeEvent => {
    const id = newId('evt');
    const data = { object: structuredClone(object), ...(previous ? { previous_attributes: previous } : {}) };
    const head = { id, object: 'event', api_version: FAKE_STRIPE_API_VERSION, created: now(), data, livemode: false };
    const event = { ...head, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type };
    const made = { id, type, payload: JSON.stringify(event, null, 2) };
    events.push(made);
    return made;
  };
  /** Makes and (unless held) sends an event; the answer settles once its first attempt, and those before it, are done. */
  const emit = (type: string, object: unknown, previous?: Obj): Promise<unknown> => {
    const ev = makeEvent(type, object, previous);
    if (fake.autoDeliver && webhookUrl) return send(ev);
    pending.push(ev);
    return Promise.resolve();
  };

  // ---- Objects, in this API version's shapes.
  const amountOf = (priceId: string, currency: string) => {
    if (!prices.has(priceId)) throw noSuch('price', priceId);
    const amount = priceOptions.get(priceId)?.[currency];
    if (amount === undefined) throw invalid(`The price ${priceId} has no amount in ${currency}.`, 'currency');
    return amount;
  };
  const createCustomer = (p: Obj) => {
    const customer = make(
      { id: newId('cus'), object: 'customer', email: p.email ?? null, name: p.name ?? null, metadata: p.metadata ?? {} },
      { balance: 0, default_source: null, description: p.description ?? null, shipping: null },
      { invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null } },
    );
    customers.set(customer.id, customer);
    return customer;
  };
  /** A succeeded payment (or a processing one, without its charge yet): a PaymentIntent and its Charge. */
  const createPayment = (amount: number, currency: string, customer: string | null, metadata: Obj, processing = false) => {
    const pi = make(
      { id: newId('pi'), object: 'payment_intent', amount, amount_received: 0, currency, customer, metadata },
      { latest_charge: null, payment_method_types: ['card'], status: 'processing' },
    );
    paymentIntents.set(pi.id, pi);
    if (!processing) succeed(pi);
    return pi;
  };
  const succeed = (pi: Obj) => {
    const { amount, currency, customer } = pi;
    const charge = make(
      { id: newId('ch'), object: 'charge', amount, amount_captured: amount, amount_refunded: 0, currency, customer },
      { captured: true, disputed: false, paid: true, payment_intent: pi.id, refunded: false, status: 'succeeded' },
    );
    charges.set(charge.id, charge);
    Object.assign(pi, { status: 'succeeded', amount_received: amount, latest_charge: charge.id });
  };
  const chargeOf = (paymentIntentId: string) => {
    const pi = paymentIntents.get(paymentIntentId);
    const charge = pi?.latest_charge ? charges.get(pi.latest_charge) : undefined;
    if (!charge) throw new Error(`fake Stripe: no charge for payment intent ${paymentIntentId}`);
    return charge;
  };
  /** A paid invoice for the subscription item's current period, with its invoice payment, payment intent and charge.
   * The invoice's own period_start/period_end are Stripe's "usage" period (for a renewal: the month that just ended);
   * the service period is the line's `period`. */
  const bill = (sub: Obj, reason: string, usageStart: number, usageEnd: number) => {
    const { currency, customer } = sub;
    const item = sub.items.data[0];
    const unit = amountOf(item.price.id, currency);
    const amount = unit * item.quantity;
    const pi = createPayment(amount, currency, customer, {});
    const id = newId('in');
    const t = now();
    const proration = { proration: false, proration_details: { credited_items: null } };
    const itemDetails = { invoice_item: null, ...proration, subscription: sub.id, subscription_item: item.id };
    const priceDetails = { price: item.price.id, product: item.price.product };
    const line = make(
      { id: newId('il'), object: 'line_item', amount, currency, invoice: id, quantity: item.quantity, subtotal: amount },
      { description: `${item.quantity} × ${item.price.nickname ?? item.price.id}`, subscription: sub.id },
      { period: { start: item.current_period_start, end: item.current_period_end } },
      { parent: { type: 'subscription_item_details', invoice_item_details: null, subscription_item_details: itemDetails } },
      { pricing: { type: 'price_details', price_details: priceDetails, unit_amount_decimal: String(unit) } },
    );
    const subscriptionDetails = { metadata: sub.metadata, subscription: sub.id };
    const invoice = make(
      { id, object: 'invoice', customer, customer_email: customers.get(customer)?.email ?? null, currency, status: 'paid' },
      { amount_due: amount, amount_paid: amount, amount_remaining: 0, subtotal: amount, total: amount },
      { attempt_count: 1, attempted: true },
      { billing_reason: reason, collection_method: 'charge_automatically', number: `FAKE-${invoices.size + 1}` },
      { lines: list([line], `/v1/invoices/${id}/lines`), period_start: usageStart, period_end: usageEnd },
      { parent: { type: 'subscription_details', quote_details: null, subscription_details: subscriptionDetails } },
      { status_transitions: { finalized_at: t, marked_uncollectible_at: null, paid_at: t, voided_at: null } },
    );
    invoices.set(id, invoice);
    const payment = make(
      { id: newId('inpay'), object: 'invoice_payment', amount_paid: amount, amount_requested: amount, currency, invoice: id },
      { is_default: true, payment: { type: 'payment_intent', payment_intent: pi.id }, status: 'paid' },
      { status_transitions: { canceled_at: null, paid_at: t } },
    );
    delete payment.metadata; // an InvoicePayment has none
    invoicePayments.set(payment.id, payment);
    sub.latest_invoice = id;
    return invoice;
  };
  const setPeriod = (sub: Obj, start: number) =>
    Object.assign(sub.items.data[0], { current_period_start: start, current_period_end: start + PERIOD_S });
  const createSubscription = (customer: string, priceId: string, quantity: number, currency: string, metadata: Obj) => {
    const id = newId('sub');
    const price = structuredClone(prices.get(priceId));
    const item = make({ id: newId('si'), object: 'subscription_item', price, quantity, subscription: id, discounts: [], tax_rates: [] });
    const sub = make(
      { id, object: 'subscription', customer, currency, status: 'active', metadata },
      { items: list([item], `/v1/subscription_items?subscription=${id}`), latest_invoice: null },
      { cancel_at: null, cancel_at_period_end: false, canceled_at: null, ended_at: null, trial_end: null, trial_start: null },
      { billing_cycle_anchor: now(), start_date: now(), collection_method: 'charge_automatically' },
      { cancellation_details: { comment: null, feedback: null, reason: null } },
    );
    setPeriod(sub, now());
    subscriptions.set(id, sub);
    return sub;
  };
  const subscription = (id: string) => {
    const sub = subscriptions.get(id);
    if (!sub) throw noSuch('subscription', id);
    return sub;
  };
  const setCancelAtPeriodEnd = (sub: Obj, on: boolean) => {
    const previous = { cancel_at_period_end: sub.cancel_at_period_end, cancel_at: sub.cancel_at, canceled_at: sub.canceled_at };
    const cancellation_details = { comment: null, feedback: null, reason: on ? 'cancellation_requested' : null };
    const cancel_at = on ? sub.items.data[0].current_period_end : null;
    Object.assign(sub, { cancel_at_period_end: on, cancel_at, canceled_at: on ? now() : null, cancellation_details });
    return emit('customer.subscription.updated', sub, previous);
  };
  const switchPrice = async (sub: Obj, priceId: string) => {
    amountOf(priceId, sub.currency);
    const previous = { items: structuredClone(sub.items) };
    sub.items.data[0].price = structuredClone(prices.get(priceId));
    setPeriod(sub, now());
    const invoice = bill(sub, 'subscription_update', now(), now());
    void emit('customer.subscription.updated', sub, previous);
    await emit('invoice.paid', invoice);
  };
  const cancelNow = async (id: string) => {
    const sub = subscription(id);
    Object.assign(sub, { status: 'canceled', canceled_at: sub.canceled_at ?? now(), ended_at: now() });
    await emit('customer.subscription.deleted', sub);
  };

  const createSession = (p: Obj) => {
    if (p.mode !== 'payment' && p.mode !== 'subscription') throw invalid('Invalid mode: must be payment or subscription.', 'mode');
    if (!p.success_url) throw invalid('Missing required param: success_url.', 'success_url', 'parameter_missing');
    const line = p.line_items?.[0];
    if (!line?.price) throw invalid('Missing required param: line_items[0][price].', 'line_items[0][price]', 'parameter_missing');
    const price = prices.get(line.price);
    if (!price) throw noSuch('price', line.price, 'line_items[0][price]', 400);
    if ((p.mode === 'subscription') !== (price.type === 'recurring'))
      throw invalid(`The price ${price.id} is ${price.type} and cannot be used in ${p.mode} mode.`, 'line_items[0][price]');
    if (p.customer && !customers.has(p.customer)) throw noSuch('customer', p.customer, 'customer', 400);
    const currency = String(p.currency ?? price.currency).toLowerCase();
    const quantity = Number(line.quantity ?? 1);
    const total = amountOf(price.id, currency) * quantity;
    const id = newId('cs_test');
    const session = make(
      { id, object: 'checkout.session', mode: p.mode, status: 'open', payment_status: 'unpaid', url: `${base}/pay/${id}` },
      { success_url: p.success_url, cancel_url: p.cancel_url ?? null, client_reference_id: p.client_reference_id ?? null },
      { amount_subtotal: total, amount_total: total, currency, locale: p.locale ?? null, metadata: p.metadata ?? {} },
      { customer: p.customer ?? null, customer_email: p.customer_email ?? null, customer_details: null },
      { customer_creation: p.customer ? null : p.mode === 'subscription' ? 'always' : 'if_required' },
      { payment_intent: null, subscription: null, invoice: null, payment_method_types: p.payment_method_types ?? ['card'] },
      { expires_at: now() + 86_400, ui_mode: 'hosted' },
    );
    sessions.set(id, session);
    const piMetadata = p.payment_intent_data?.metadata ?? {};
    sessionLines.set(id, { price: price.id, quantity, piMetadata, subMetadata: p.subscription_data?.metadata ?? {} });
    return session;
  };
  const pay = async (sessionId: string, opts: { delayed?: boolean } = {}) => {
    const s = sessions.get(sessionId);
    const line = sessionLines.get(sessionId);
    if (!s || !line) throw new Error(`fake Stripe: no checkout session ${sessionId}`);
    if (s.status !== 'open') throw new Error(`fake Stripe: checkout session ${sessionId} is ${s.status}, not open`);
    if (opts.delayed && s.mode !== 'payment') throw new Error('fake Stripe: delayed payments are faked for mode payment only');
    if (!s.customer && s.mode === 'subscription') s.customer = createCustomer({ email: s.customer_email }).id;
    const customer = s.customer ? customers.get(s.customer) : undefined;
    const email = customer?.email ?? s.customer_email ?? 'buyer@example.com';
    Object.assign(s, { status: 'complete', url: null, customer_details: { email, name: customer?.name ?? null } });
    if (s.mode === 'payment') {
      const pi = createPayment(s.amount_total, s.currency, s.customer, line.piMetadata, opts.delayed);
      Object.assign(s, { payment_intent: pi.id, payment_status: opts.delayed ? 'unpaid' : 'paid' });
      await emit('checkout.session.completed', s);
      return;
    }
    const sub = createSubscription(s.customer, line.price, line.quantity, s.currency, line.subMetadata);
    const invoice = bill(sub, 'subscription_create', sub.created, sub.created);
    Object.assign(s, { subscription: sub.id, invoice: invoice.id, payment_status: 'paid' });
    void emit('customer.subscription.created', sub);
    void emit('invoice.paid', invoice);
    await emit('checkout.session.completed', s);
  };

  // ---- The API: routes answer the object to send, or throw an ApiError.
  const currencyOptions = (priceId: string) => {
    const option = (amount: number) => ({
      custom_unit_amount: null,
      tax_behavior: 'unspecified',
      unit_amount: amount,
      unit_amount_decimal: String(amount),
    });
    return Object.fromEntries(Object.entries(priceOptions.get(priceId) ?? {}).map(([cur, amount]) => [cur, option(amount)]));
  };
  const lineItems = (sessionId: string) => {
    const [s, line] = [sessions.get(sessionId), sessionLines.get(sessionId)];
    if (!s || !line) throw noSuch('checkout.session', sessionId);
    const price = prices.get(line.price) ?? {};
    const amounts = { amount_subtotal: s.amount_subtotal, amount_total: s.amount_total, currency: s.currency };
    const item = {
      id: `li_${sessionId}`,
      object: 'item',
      ...amounts,
      description: price.nickname ?? price.id,
      price,
      quantity: line.quantity,
    };
    return list([item], `/v1/checkout/sessions/${sessionId}/line_items`);
  };
  /** Expands `expand[]` paths: ids become their objects, plus a price's currency_options and a session's line_items. */
  const render = (object: Obj, expand: string[]) => {
    const walk = (node: unknown, parts: string[]): unknown => {
      const [head, ...rest] = parts;
      if (!head || !node || typeof node !== 'object') return node;
      if (Array.isArray(node)) return node.map((n) => walk(n, parts));
      const o = node as Obj;
      if (head === 'currency_options' && o.object === 'price') o.currency_options = currencyOptions(o.id);
      else if (head === 'line_items' && o.object === 'checkout.session') o.line_items = lineItems(o.id);
      else {
        const found = typeof o[head] === 'string' ? lookup(o[head]) : undefined;
        o[head] = walk(found ? structuredClone(found) : o[head], rest);
      }
      return o;
    };
    const out = structuredClone(object);
    for (const path of expand) walk(out, path.split('.'));
    return out;
  };
  const matches = (object: unknown, filter: unknown): boolean =>
    filter && typeof filter === 'object'
      ? Object.entries(filter).every(([k, v]) => matches((object as Obj | null)?.[k], v))
      : String(object) === String(filter);

  const route = (method: string, path: string, p: Obj): Obj => {
    const [, collection = '', id, extra] =
      /^\/v1\/(checkout\/sessions|billing_portal\/sessions|[a-z_]+)(?:\/([^/]+))?(\/.*)?$/.exec(path) ?? [];
    const [store, kind = ''] = collections[collection] ?? [];
    if (method === 'POST' && path === '/v1/customers') return createCustomer(p);
    if (method === 'POST' && path === '/v1/checkout/sessions') return createSession(p);
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!customers.has(p.customer)) throw noSuch('customer', String(p.customer), 'customer', 400);
      const id = newId('bps');
      const ps = { id, object: 'billing_portal.session', configuration: 'bpc_fake', created: now(), customer: p.customer };
      const session = { ...ps, livemode: false, locale: p.locale ?? null, return_url: p.return_url ?? null, url: `${base}/portal/${id}` };
      portalSessions.set(id, session);
      return session;
    }
    if (collection === 'subscriptions' && id && !extra && (method === 'POST' || method === 'DELETE')) {
      const sub = subscription(id);
      if (method === 'DELETE') void cancelNow(id);
      else if (p.cancel_at_period_end !== undefined) void setCancelAtPeriodEnd(sub, p.cancel_at_period_end === 'true');
      return sub;
    }
    if (method === 'GET' && collection === 'checkout/sessions' && id && extra === '/line_items') return lineItems(id);
    if (method === 'GET' && store && id && !extra) {
      const object = store.get(id);
      if (!object) throw noSuch(kind, id);
      return object;
    }
    if (method === 'GET' && store && !id) {
      const { limit, starting_after: _after, ending_before: _before, expand: _expand, created: _created, ...filter } = p;
      if (collection === 'subscriptions' && filter.status === 'all') delete filter.status;
      const found = [...store.values()].reverse().filter((o) => matches(o, filter));
      const max = Number(limit ?? 10);
      return { ...list(found.slice(0, max), `/v1/${collection}`), has_more: found.length > max };
    }
    throw new ApiError(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` });
  };

  const api = (req: IncomingMessage, res: ServerResponse, url: URL, raw: string) => {
    const reply = (status: number, body: string, headers: Record<string, string> = {}) => {
      const common = { 'content-type': 'application/json', 'request-id': newId('req'), 'stripe-version': FAKE_STRIPE_API_VERSION };
      res.writeHead(status, { ...common, ...headers }).end(body);
    };
    const auth = req.headers.authorization;
    if (auth !== `Bearer ${secretKey}`) {
      const message = auth ? `Invalid API Key provided: ${auth.slice(7, 19)}****` : 'You did not provide an API key.';
      return reply(401, JSON.stringify({ error: { type: 'invalid_request_error', message } }));
    }
    const method = req.method ?? 'GET';
    const params = parseStripeParams(method === 'POST' ? raw : url.search.slice(1));
    const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const fingerprint = `${method} ${url.pathname} ${raw}`;
    const prior = typeof key === 'string' ? idempotent.get(key) : undefined;
    if (prior && prior.fingerprint !== fingerprint) {
      const message = 'Keys for idempotent requests can only be used with the same parameters they were first used with.';
      return reply(400, JSON.stringify({ error: { type: 'idempotency_error', message } }));
    }
    if (prior) return reply(prior.status, prior.body, { 'idempotent-replayed': 'true' });
    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(render(route(method, url.pathname, params), Array.isArray(params.expand) ? params.expand : []));
    } catch (error) {
      status = error instanceof ApiError ? error.status : 500;
      body = JSON.stringify({ error: error instanceof ApiError ? error.body : { type: 'api_error', message: String(error) } });
    }
    // Like Stripe, a request refused before it ran (bad parameters, unknown ids) is not saved: a fixed retry may succeed.
    if (typeof key === 'string' && status < 400) idempotent.set(key, { fingerprint, status, body });
    reply(status, body);
  };

  // ---- The pages a browser sees instead of Stripe's hosted ones.
  const html = (res: ServerResponse, status: number, body: string, location?: string) =>
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...(location ? { location } : {}) }).end(body);
  const perMonth = (price: Obj) => (price.type === 'recurring' ? ' per month' : '');
  const checkoutPage = (s: Obj) => {
    const line = sessionLines.get(s.id);
    const price = line && prices.get(line.price);
    if (s.status !== 'open' || !price || !line) return page('Fake Stripe Checkout', '<p>This checkout session is no longer open.</p>');
    const what = `${esc(price.nickname ?? price.id)}${line.quantity > 1 ? ` × ${line.quantity}` : ''}`;
    const amount = `<strong>${esc(formatAmount(s.amount_total, s.currency))}</strong>${perMonth(price)}`;
    const cancel = s.cancel_url ? `<p><a href="${esc(s.cancel_url)}">Cancel</a></p>` : '';
    return page('Fake Stripe Checkout', `<p>${what}: ${amount}</p>${button(`/pay/${s.id}`, 'Pay')}${cancel}`);
  };
  const activeSubscription = (customer: string) =>
    [...subscriptions.values()].reverse().find((s) => s.customer === customer && ['active', 'trialing', 'past_due'].includes(s.status));
  const portalPage = (ps: Obj) => {
    const sub = activeSubscription(ps.customer);
    const back = ps.return_url ? `<p><a href="${esc(ps.return_url)}">Return</a></p>` : '';
    if (!sub) return page('Fake Stripe customer portal', `<p>No active plan.</p>${back}`);
    const { price, current_period_end } = sub.items.data[0];
    const amount = `${formatAmount(amountOf(price.id, sub.currency), sub.currency)}${perMonth(price)}`;
    const until = `${sub.cancel_at_period_end ? 'ends' : 'renews'} on ${new Date(current_period_end * 1000).toISOString().slice(0, 10)}`;
    const plan = `<p>Current plan: <strong>${esc(price.nickname ?? price.id)}</strong> (${esc(amount)}), ${until}</p>`;
    const others = [...prices.values()].filter(
      (p) => p.type === 'recurring' && p.id !== price.id && priceOptions.get(p.id)?.[sub.currency] !== undefined,
    );
    const switches = others.map((p) => button(`/portal/${ps.id}/switch`, `Switch to ${p.nickname ?? p.id}`, { price: p.id }));
    const cancel = sub.cancel_at_period_end ? '' : button(`/portal/${ps.id}/cancel`, 'Cancel plan');
    return page('Fake Stripe customer portal', `${plan}${switches.join('')}${cancel}${back}`);
  };
  const pages = async (req: IncomingMessage, res: ServerResponse, url: URL, raw: string) => {
    const [, area, id = '', action] = /^\/(pay|portal)\/([^/]+)(?:\/(switch|cancel))?$/.exec(url.pathname) ?? [];
    const s = area === 'pay' && !action ? sessions.get(id) : undefined;
    if (s && req.method === 'GET') return html(res, 200, checkoutPage(s));
    if (s && s.status !== 'open') return html(res, 409, checkoutPage(s));
    if (s) {
      await pay(id);
      return html(res, 303, '', String(s.success_url).replaceAll('{CHECKOUT_SESSION_ID}', id));
    }
    const ps = area === 'portal' ? portalSessions.get(id) : undefined;
    if (!ps) return html(res, 404, page('Not found', '<p>No such page in the fake Stripe.</p>'));
    if (req.method === 'GET' && !action) return html(res, 200, portalPage(ps));
    const sub = activeSubscription(ps.customer);
    if (req.method === 'POST' && sub && action === 'cancel' && !sub.cancel_at_period_end) await setCancelAtPeriodEnd(sub, true);
    if (req.method === 'POST' && sub && action === 'switch') await switchPrice(sub, String(parseStripeParams(raw).price));
    return html(res, 303, '', `/portal/${ps.id}`);
  };

  const holds: Array<{ prefix: string; arrived: () => void; waiting: Array<() => void> }> = [];
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', base);
      const raw = await readBody(req);
      const held = holds.find((h) => `${req.method} ${url.pathname}`.startsWith(h.prefix));
      if (held && url.pathname.startsWith('/v1/')) {
        held.arrived();
        held.waiting.push(() => api(req, res, url, raw));
        return;
      }
      if (url.pathname.startsWith('/v1/')) api(req, res, url, raw);
      else await pages(req, res, url, raw);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake Stripe failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;

  const fake: FakeStripe = {
    base,
    port,
    secretKey,
    webhookSecret,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    addPrice(p) {
      const currency = p.currency.toLowerCase();
      const recurring = p.recurring
        ? { interval: 'month', interval_count: 1, meter: null, trial_period_days: null, usage_type: 'licensed' }
        : null;
      const price = make(
        { id: p.id, object: 'price', active: true, currency, unit_amount: p.unitAmount, unit_amount_decimal: String(p.unitAmount) },
        { nickname: p.nickname ?? null, product: p.product ?? `prod_${p.id}`, type: p.recurring ? 'recurring' : 'one_time', recurring },
        { billing_scheme: 'per_unit', custom_unit_amount: null, lookup_key: null, tax_behavior: 'unspecified', tiers_mode: null },
        { transform_quantity: null },
      );
      prices.set(p.id, price);
      const others = Object.entries(p.currencyOptions ?? {}).map(([cur, amount]) => [cur.toLowerCase(), amount]);
      priceOptions.set(p.id, { [currency]: p.unitAmount, ...Object.fromEntries(others) });
    },
    pay,
    async settle(sessionId) {
      const s = sessions.get(sessionId);
      const pi = s?.payment_intent ? paymentIntents.get(s.payment_intent) : undefined;
      if (!s || pi?.status !== 'processing') throw new Error(`fake Stripe: checkout session ${sessionId} has no payment to settle`);
      succeed(pi);
      s.payment_status = 'paid';
      await emit('checkout.session.async_payment_succeeded', s);
    },
    async renew(subscriptionId) {
      const sub = subscription(subscriptionId);
      const { current_period_start: usageStart, current_period_end: usageEnd } = sub.items.data[0];
      setPeriod(sub, usageEnd);
      await emit('invoice.paid', bill(sub, 'subscription_cycle', usageStart, usageEnd));
    },
    cancelNow,
    async refund(paymentIntentId, amount) {
      const charge = chargeOf(paymentIntentId);
      const remaining = charge.amount - charge.amount_refunded;
      const refunding = amount ?? remaining;
      if (refunding <= 0 || refunding > remaining) throw new Error(`fake Stripe: cannot refund ${refunding} of ${remaining} left`);
      const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
      charge.amount_refunded += refunding;
      charge.refunded = charge.amount_refunded === charge.amount;
      await emit('charge.refunded', charge, previous);
    },
    async dispute(paymentIntentId, outcome) {
      const charge = chargeOf(paymentIntentId);
      const evidence_details = { due_by: now() + 7 * 86_400, has_evidence: false, past_due: false, submission_count: 0 };
      const dispute = make(
        { id: newId('dp'), object: 'dispute', amount: charge.amount, currency: charge.currency, charge: charge.id },
        { payment_intent: paymentIntentId, reason: 'fraudulent', status: 'needs_response', is_charge_refundable: false },
        { balance_transactions: [], evidence_details },
      );
      disputes.set(dispute.id, dispute);
      charge.disputed = true;
      void emit('charge.dispute.created', dispute);
      dispute.status = outcome;
      await emit('charge.dispute.closed', dispute, { status: 'needs_response' });
    },
    event: (type, object) => makeEvent(type, object),
    async deliver(ev, opts = {}) {
      const once = async () => {
        const status = await attempt(ev, opts.signature);
        return status === 'error' ? 0 : status;
      };
      const times = opts.times ?? 1;
      if (opts.concurrent) return Promise.all(Array.from({ length: times }, once));
      const statuses: number[] = [];
      while (statuses.length < times) statuses.push(await once());
      return statuses;
    },
    events,
    deliveries,
    sessions,
    subscriptions,
    customers,
    invoices,
    charges,
    paymentIntents,
    autoDeliver: true,
    async flush() {
      if (!webhookUrl) throw new Error('fake Stripe: no webhook URL set');
      for (const ev of pending.splice(0)) void send(ev);
      await chain;
    },
    hold(prefix) {
      let arrived = () => {};
      const seen = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const held = { prefix, arrived, waiting: [] as Array<() => void> };
      holds.push(held);
      return {
        seen,
        release() {
          holds.splice(holds.indexOf(held), 1);
          for (const answer of held.waiting.splice(0)) answer();
        },
      };
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...inflight]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}
