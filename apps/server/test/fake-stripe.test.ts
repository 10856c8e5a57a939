// The fake Stripe of test-support/fakeStripe.ts, checked with the real `stripe` SDK pointed at it and a real webhook
// receiver on 127.0.0.1 that verifies every signature as the product does: customers, prices with currency options,
// Stripe's errors and idempotency, a paid payment-mode and subscription-mode Checkout Session with their events, the
// checkout and portal pages, a refund, and a retry after the receiver answered 500.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test-support/fakeStripe.js';
import { waitFor } from '../../../test-support/wait.js';

let fake: FakeStripe;
let stripe: Stripe;
let receiver: Server;
/** Every event the receiver got, verified with the webhook secret. */
const received: Stripe.Event[] = [];
/** How many of the next deliveries the receiver answers 500. */
let failures = 0;

const eventsOf = (type: string, objectId: string) =>
  received.filter((e) => e.type === type && (e.data.object as { id?: string }).id === objectId);

beforeAll(async () => {
  fake = await startFakeStripe({ retryMs: 20 });
  stripe = new Stripe(fake.secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failures > 0) {
        failures--;
        return res.writeHead(500).end();
      }
      try {
        received.push(
          stripe.webhooks.constructEvent(Buffer.concat(chunks).toString('utf8'), req.headers['stripe-signature'] ?? '', fake.webhookSecret),
        );
        res.writeHead(200).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  fake.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/stripe`);
  fake.addPrice({ id: 'price_pack', unitAmount: 990, currency: 'usd', nickname: 'Pack 500', currencyOptions: { brl: 4990 } });
  fake.addPrice({ id: 'price_basic', unitAmount: 1900, currency: 'usd', recurring: true, nickname: 'Basic' });
  fake.addPrice({ id: 'price_pro', unitAmount: 4900, currency: 'usd', recurring: true, nickname: 'Pro' });
});

afterAll(async () => {
  await fake?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('the fake Stripe', () => {
  it('answers the SDK as Stripe does: customers, prices with currency options, errors, idempotency', async () => {
    const customer = await stripe.customers.create({ email: 'ana@example.com', name: 'Ana', metadata: { userId: 'u1' } });
    expect(customer).toMatchObject({ object: 'customer', email: 'ana@example.com', metadata: { userId: 'u1' } });
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);

    const price = await stripe.prices.retrieve('price_pack', { expand: ['currency_options'] });
    expect(price).toMatchObject({ object: 'price', type: 'one_time', unit_amount: 990, currency: 'usd', recurring: null });
    expect(price.currency_options?.brl?.unit_amount).toBe(4990);
    expect((await stripe.prices.retrieve('price_pack')).currency_options).toBeUndefined();
    expect((await stripe.prices.retrieve('price_pro')).recurring).toMatchObject({ interval: 'month', interval_count: 1 });

    await expect(stripe.customers.retrieve('cus_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'id',
    });
    const stranger = new Stripe('sk_test_wrong', { host: '127.0.0.1', port: fake.port, protocol: 'http' });
    await expect(stranger.customers.retrieve(customer.id)).rejects.toMatchObject({ statusCode: 401, type: 'StripeAuthenticationError' });

    const once = await stripe.customers.create({ email: 'bo@example.com' }, { idempotencyKey: 'signup-bo' });
    const again = await stripe.customers.create({ email: 'bo@example.com' }, { idempotencyKey: 'signup-bo' });
    expect(again.id).toBe(once.id);
  });

  it('pays a payment-mode session: a signed checkout.session.completed, the session paid, the pages', async () => {
    const customer = await stripe.customers.create({ email: 'cy@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      client_reference_id: 'u2',
      line_items: [{ price: 'price_pack', quantity: 1 }],
      success_url: 'http://app.test/billing?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/billing',
      metadata: { userId: 'u2', offer: 'pack-500' },
      payment_intent_data: { metadata: { userId: 'u2' } },
      locale: 'en',
    });
    expect(session).toMatchObject({ status: 'open', payment_status: 'unpaid', url: `${fake.base}/pay/${session.id}`, amount_total: 990 });
    const page = await (await fetch(session.url ?? '')).text();
    expect(page).toContain('<h1>Fake Stripe Checkout</h1>');
    expect(page).toContain('USD 9.90');
    expect(page).toContain('>Pay</button>');

    await fake.pay(session.id);
    const [completed] = eventsOf('checkout.session.completed', session.id);
    expect(completed?.api_version).toBe('2026-10-28.endive');
    expect(completed?.data.object).toMatchObject({
      payment_status: 'paid',
      status: 'complete',
      metadata: { userId: 'u2', offer: 'pack-500' },
    });

    const paid = await stripe.checkout.sessions.retrieve(session.id);
    const paymentIntent = await stripe.paymentIntents.retrieve(String(paid.payment_intent));
    expect(paymentIntent).toMatchObject({ status: 'succeeded', amount: 990, metadata: { userId: 'u2' } });
    const charge = await stripe.charges.retrieve(String(paymentIntent.latest_charge));
    expect(charge).toMatchObject({ payment_intent: paymentIntent.id, amount: 990, amount_refunded: 0, refunded: false });
    const found = await stripe.checkout.sessions.list({ payment_intent: paymentIntent.id });
    expect(found.data.map((s) => s.id)).toEqual([session.id]);

    const inBrl = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: 'price_pack', quantity: 1 }],
      currency: 'brl',
      success_url: 'http://app.test/billing?session={CHECKOUT_SESSION_ID}',
    });
    expect(inBrl.amount_total).toBe(4990);
    const clicked = await fetch(`${fake.base}/pay/${inBrl.id}`, { method: 'POST', redirect: 'manual' });
    expect(clicked.status).toBe(303);
    expect(clicked.headers.get('location')).toBe(`http://app.test/billing?session=${inBrl.id}`);
    expect(eventsOf('checkout.session.completed', inBrl.id)).toHaveLength(1);
  });

  it('pays a subscription-mode session: subscription, invoice and session events, the period on the item, the portal', async () => {
    const customer = await stripe.customers.create({ email: 'di@example.com' });
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: 'price_basic', quantity: 1 }],
      success_url: 'http://app.test/billing',
      subscription_data: { metadata: { userId: 'u3' } },
    });
    const before = received.length;
    await fake.pay(session.id);
    expect(received.slice(before).map((e) => e.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'checkout.session.completed',
    ]);

    const paid = await stripe.checkout.sessions.retrieve(session.id);
    const subscription = await stripe.subscriptions.retrieve(String(paid.subscription));
    const item = subscription.items.data[0];
    expect(subscription).toMatchObject({
      status: 'active',
      customer: customer.id,
      cancel_at_period_end: false,
      metadata: { userId: 'u3' },
    });
    expect(item?.price.id).toBe('price_basic');
    expect((item?.current_period_end ?? 0) - (item?.current_period_start ?? 0)).toBe(30 * 86_400);

    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 1900, billing_reason: 'subscription_create' });
    expect(invoice.parent?.subscription_details).toMatchObject({ subscription: subscription.id, metadata: { userId: 'u3' } });
    expect(invoice.lines.data[0]?.pricing?.price_details?.price).toBe('price_basic');
    const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id })).data;
    expect(payment).toMatchObject({ status: 'paid', is_default: true, amount_paid: 1900, payment: { type: 'payment_intent' } });
    const byIntent = await stripe.invoicePayments.list({
      payment: { type: 'payment_intent', payment_intent: String(payment?.payment.payment_intent) },
    });
    expect(byIntent.data.map((p) => p.invoice)).toEqual([invoice.id]);

    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: 'http://app.test/billing' });
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('<h1>Fake Stripe customer portal</h1>');
    expect(page).toContain('>Switch to Pro</button>');
    const switched = await fetch(`${fake.base}/portal/${portal.id}/switch`, {
      method: 'POST',
      body: new URLSearchParams({ price: 'price_pro' }),
      redirect: 'manual',
    });
    expect(switched.status).toBe(303);
    const [, updateInvoice] = received.slice(-2);
    expect(received.slice(-2).map((e) => e.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    expect(updateInvoice?.data.object).toMatchObject({ billing_reason: 'subscription_update', amount_paid: 4900 });
    expect((await stripe.subscriptions.retrieve(subscription.id)).items.data[0]?.price.id).toBe('price_pro');
  });

  it('refunds the charge of a payment intent with charge.refunded', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: 'price_pack', quantity: 2 }],
      success_url: 'http://app.test/',
    });
    await fake.pay(session.id);
    const paymentIntent = String((await stripe.checkout.sessions.retrieve(session.id)).payment_intent);
    await fake.refund(paymentIntent, 500);
    const refunded = received.at(-1);
    expect(refunded?.type).toBe('charge.refunded');
    expect(refunded?.data.object).toMatchObject({
      object: 'charge',
      payment_intent: paymentIntent,
      amount: 1980,
      amount_refunded: 500,
      refunded: false,
    });
    await fake.refund(paymentIntent);
    expect(received.at(-1)?.data.object).toMatchObject({ amount_refunded: 1980, refunded: true });
  });

  it('retries a delivery the receiver answered 500', async () => {
    const session = await stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ price: 'price_pack' }],
      success_url: 'http://app.test/',
    });
    failures = 1;
    await fake.pay(session.id);
    const [event] = fake.events.filter((e) => e.type === 'checkout.session.completed' && e.payload.includes(session.id));
    const statuses = () => fake.deliveries.filter((d) => d.eventId === event?.id).map((d) => d.status);
    await waitFor(() => statuses().length === 2, 'the retried delivery', 2_000, 10);
    expect(statuses()).toEqual([500, 200]);
    expect(eventsOf('checkout.session.completed', session.id)).toHaveLength(1);
    expect(await fake.deliver(event ?? { id: '', type: '', payload: '' }, { times: 2 })).toEqual([200, 200]);
    expect(await fake.deliver(event ?? { id: '', type: '', payload: '' }, { signature: 't=1,v1=forged' })).toEqual([400]);
  });
});
