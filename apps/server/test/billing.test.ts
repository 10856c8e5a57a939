// Buying credits (decision "Buying credits") against a local fake of Stripe's API, with the real SDK pointed at it and
// webhooks signed with Stripe's scheme: the checkout, the portal, and every way Stripe's events may arrive (once,
// thrice at once, out of order, forged, stale, late), with the ledger audited after each.
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { ERRORS } from '@reelsmith/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../test-support/fakeStripe.js';
import { waitFor } from '../../../test-support/wait.js';
import type { AppContext } from '../src/context.js';
import { billingEvents, billingPurchases, pointsLedger, pointsLots } from '../src/db/schema.js';
import { runAdminCommand } from '../src/modules/admin/commands.js';
import { createInviteCodes } from '../src/modules/invites/service.js';
import { charge } from '../src/modules/points/ledger.js';
import { priceOf, setPrice } from '../src/modules/points/prices.js';
import { readAccount } from '../src/modules/points/queries.js';
import { loadSettings } from '../src/settings.js';
import { API, appOn, Browser, PUBLIC_URL } from './support/app.js';
import { testDatabases } from './support/databases.js';
import { expectConsistent } from './support/points.js';

const PACK_PRICE = 'price_pack500';
const PLAN_PRICE = 'price_plan1000';
const BIG_PLAN_PRICE = 'price_plan3000';

describe('billing settings', () => {
  const base = { DATA_DIR: '/tmp/reelsmith-billing-settings', PUBLIC_URL };
  it('refuses half of the Stripe settings, and takes both or neither', () => {
    expect(() => loadSettings({ ...base, STRIPE_SECRET_KEY: 'sk_test_abc' })).toThrow(
      'STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET: set both to sell credits, or neither',
    );
    expect(() => loadSettings({ ...base, STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow('set both');
    expect(() => loadSettings({ ...base, STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(
      'must be a Stripe secret or restricted key',
    );
    expect(loadSettings(base).stripe).toBeUndefined();
    expect(loadSettings({ ...base, STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' }).stripe).toEqual({
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_abc',
      apiUrl: 'https://api.stripe.com',
    });
  });
});

describe.each(testDatabases())('buying credits without Stripe on $name', (testDb) => {
  const t = appOn(testDb, () => ({ SIGNUP_CREDITS: '0' }));
  it('offers nothing, and refuses a checkout with "Ask your administrator for credits."', async () => {
    const browser = await activeBrowser(t, 'nobilling@example.com');
    expect(await browser.ok('GET', '/billing/offers')).toEqual({ enabled: false, packs: [], plans: [], plan: null });
    const { body } = await browser.call('POST', '/billing/checkout', { body: { offer: 'pack-500' } });
    expect(body).toMatchObject({ code: 40130, message: 'Ask your administrator for credits.' });
    const webhook = await t.app.inject({
      method: 'POST',
      url: `${API}/billing/stripe/webhook`,
      payload: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(webhook.statusCode).toBe(404);
  });
});

/** A signed-in, activated user of the web app, starting at 0 credits (SIGNUP_CREDITS 0). */
async function activeBrowser(t: { app: FastifyInstance; ctx: AppContext }, email: string, locale = 'en') {
  const browser = new Browser(t.app, locale);
  const user = await browser.devLogin(email);
  const [code] = await createInviteCodes(t.ctx.db, { count: 1, maxUses: 1 });
  await browser.ok('POST', '/users/activate', { query: { inviteCode: code as string } });
  return Object.assign(browser, { userId: user.userId });
}

describe.each(testDatabases())('buying credits through Stripe on $name', (testDb) => {
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await startFakeStripe({ retryMs: 50 });
    stripe.addPrice({ id: PACK_PRICE, unitAmount: 990, currency: 'usd', currencyOptions: { brl: 4990 } });
    stripe.addPrice({ id: PLAN_PRICE, unitAmount: 1900, currency: 'usd', recurring: true, nickname: 'Starter' });
    stripe.addPrice({ id: BIG_PLAN_PRICE, unitAmount: 4900, currency: 'usd', recurring: true, nickname: 'Pro' });
  });
  afterAll(() => stripe.close());

  const t = appOn(testDb, () => ({
    SIGNUP_CREDITS: '0',
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.base,
  }));

  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    stripe.setWebhookUrl(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${API}/billing/stripe/webhook`);
    const admin = (command: Parameters<typeof runAdminCommand>[1]) => runAdminCommand(t.ctx, command);
    expect(await admin({ command: 'billing packs', action: 'add', code: 'pack-500', credits: 500, stripePrice: PACK_PRICE })).toEqual([
      `pack-500 is on sale: 500 credits for ${PACK_PRICE} (checked with Stripe)`,
    ]);
    await admin({ command: 'billing plans', action: 'add', code: 'plan-1000', credits: 1000, stripePrice: PLAN_PRICE });
    await admin({ command: 'billing plans', action: 'add', code: 'plan-3000', credits: 3000, stripePrice: BIG_PLAN_PRICE });
  });

  async function buyer(email: string, locale = 'en') {
    return activeBrowser(t, email, locale);
  }

  /** Opens a checkout as the page does and answers its session id. */
  async function checkout(browser: Browser, offer: string): Promise<string> {
    const { url } = (await browser.ok('POST', '/billing/checkout', { body: { offer } })) as { url: string };
    const sessionId = url.split('/pay/')[1] as string;
    expect(url).toBe(`${stripe.base}/pay/${sessionId}`);
    return sessionId;
  }

  const available = async (userId: string) => (await readAccount(t.ctx.db, userId)).availablePoints;
  const purchasesOf = (userId: string) => t.ctx.db.select().from(billingPurchases).where(eq(billingPurchases.userId, userId));
  const ledgerOf = (userId: string) => t.ctx.db.select().from(pointsLedger).where(eq(pointsLedger.userId, userId)).orderBy(pointsLedger.id);
  const state = async (browser: Browser, session: string) =>
    ((await browser.ok('GET', '/billing/purchase', { query: { session } })) as { state: string }).state;

  it("shows the packs and plans at Stripe's prices, in the currency of the user's language where the price has it", async () => {
    const en = await buyer('offers-en@example.com');
    expect(await en.ok('GET', '/billing/offers')).toEqual({
      enabled: true,
      packs: [{ code: 'pack-500', kind: 'pack', credits: 500, price: { amount: 990, currency: 'usd' }, expiresDays: null }],
      plans: [
        { code: 'plan-1000', kind: 'plan', credits: 1000, price: { amount: 1900, currency: 'usd' }, expiresDays: null },
        { code: 'plan-3000', kind: 'plan', credits: 3000, price: { amount: 4900, currency: 'usd' }, expiresDays: null },
      ],
      plan: null,
    });
    const pt = await buyer('offers-pt@example.com', 'pt');
    const offers = (await pt.ok('GET', '/billing/offers')) as { packs: Array<{ price: unknown }> };
    expect(offers.packs[0]?.price).toEqual({ amount: 4990, currency: 'brl' });
    // Checkout charges the currency the page showed.
    const session = await checkout(pt, 'pack-500');
    expect(stripe.sessions.get(session)).toMatchObject({ currency: 'brl', locale: 'pt-BR', mode: 'payment' });
  });

  it('grants a pack once, from the signed webhook only, though Stripe delivers the event three times at once', async () => {
    const browser = await buyer('topup@example.com');
    const session = await checkout(browser, 'pack-500');
    expect(await state(browser, session)).toBe('waiting');
    stripe.autoDeliver = false;
    await stripe.pay(session);
    // Paid at Stripe, not yet told: the return page waits, nothing is granted from the browser's side.
    expect(await state(browser, session)).toBe('waiting');
    expect(await available(browser.userId)).toBe(0);
    const completed = stripe.events.find((e) => e.type === 'checkout.session.completed' && e.payload.includes(session));
    if (!completed) throw new Error('no checkout.session.completed');
    const statuses = await stripe.deliver(completed, { times: 3, concurrent: true });
    stripe.autoDeliver = true;
    expect(statuses).toEqual([200, 200, 200]);
    expect(await available(browser.userId)).toBe(500);
    expect(await state(browser, session)).toBe('granted');
    const [purchase] = await purchasesOf(browser.userId);
    expect(purchase).toMatchObject({ kind: 'pack', credits: 500, amount: 990, currency: 'usd', offerCode: 'pack-500' });
    const rows = await ledgerOf(browser.userId);
    expect(rows).toEqual([expect.objectContaining({ operationType: 'RECHARGE', pointsChange: 500 })]);
    const [lot] = await t.ctx.db.select().from(pointsLots).where(eq(pointsLots.userId, browser.userId));
    expect(lot?.expiresAt).toBeNull();
    const [stored] = await t.ctx.db.select().from(billingEvents).where(eq(billingEvents.id, completed.id));
    expect(stored).toMatchObject({ outcome: `granted 500 credits for checkout:${session}`, userId: browser.userId });
    await expectConsistent(t.ctx.db);
  });

  it('refuses a forged or stale signature: 400, nothing stored, nothing granted', async () => {
    const browser = await buyer('forged@example.com');
    const session = await checkout(browser, 'pack-500');
    stripe.autoDeliver = false;
    await stripe.pay(session);
    stripe.autoDeliver = true;
    const completed = stripe.events.find((e) => e.type === 'checkout.session.completed' && e.payload.includes(session));
    if (!completed) throw new Error('no checkout.session.completed');
    const sign = (secret: string, at: number) =>
      `t=${at},v1=${createHmac('sha256', secret).update(`${at}.${completed.payload}`).digest('hex')}`;
    const now = Math.floor(Date.now() / 1000);
    const forged = await stripe.deliver(completed, { signature: sign('whsec_someone_else', now) });
    const stale = await stripe.deliver(completed, { signature: sign(stripe.webhookSecret, now - 3600) });
    const none = await t.app.inject({
      method: 'POST',
      url: `${API}/billing/stripe/webhook`,
      payload: completed.payload,
      headers: { 'content-type': 'application/json' },
    });
    expect([...forged, ...stale, none.statusCode]).toEqual([400, 400, 400]);
    expect(await t.ctx.db.select().from(billingEvents).where(eq(billingEvents.id, completed.id))).toEqual([]);
    expect(await available(browser.userId)).toBe(0);
    // The genuine delivery still acts.
    expect(await stripe.deliver(completed)).toEqual([200]);
    expect(await available(browser.userId)).toBe(500);
  });

  it('grants a delayed payment (Boleto, Pix) only when Stripe says it succeeded', async () => {
    const browser = await buyer('boleto@example.com');
    const session = await checkout(browser, 'pack-500');
    await stripe.pay(session, { delayed: true });
    await waitFor(
      async () =>
        (await t.ctx.db.select().from(billingEvents)).some((e) => e.payload && e.outcome?.includes('waits for a delayed payment')),
      'the completed event',
    );
    expect(await available(browser.userId)).toBe(0);
    expect(await state(browser, session)).toBe('waiting');
    await stripe.settle(session);
    await waitFor(async () => (await available(browser.userId)) === 500, 'the grant');
    expect(await state(browser, session)).toBe('granted');
    await expectConsistent(t.ctx.db);
  });

  it("opens ten checkouts a minute for one buyer, then refuses the next before asking Stripe; another buyer's are theirs", async () => {
    const [eager, other] = [await buyer('eager@example.com'), await buyer('other@example.com')];
    for (let i = 0; i < 10; i++) await checkout(eager, 'pack-500');
    const asked = stripe.sessions.size;
    const refused = await eager.call('POST', '/billing/checkout', { body: { offer: 'pack-500' } });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 429, message: ERRORS.rateLimited.en, data: null });
    expect(stripe.sessions.size).toBe(asked);
    await checkout(other, 'pack-500');
    expect(stripe.sessions.size).toBe(asked + 1);
  });

  it('grants two purchases made at the same time, each once', async () => {
    const browser = await buyer('twice@example.com');
    const sessions = await Promise.all([checkout(browser, 'pack-500'), checkout(browser, 'pack-500')]);
    await Promise.all(sessions.map((s) => stripe.pay(s)));
    await waitFor(async () => (await available(browser.userId)) === 1000, 'both grants');
    expect(await purchasesOf(browser.userId)).toHaveLength(2);
    await expectConsistent(t.ctx.db);
  });

  it('a refund after half the credits were spent takes back the unspent half and records the rest as owed', async () => {
    const browser = await buyer('refund@example.com');
    const session = await checkout(browser, 'pack-500');
    await stripe.pay(session);
    await waitFor(async () => (await available(browser.userId)) === 500, 'the grant');
    const price = await priceOf(t.ctx.db, 'imageGen');
    await setPrice(t.ctx.db, 'imageGen', 250);
    await charge(t.ctx.db, browser.userId, 'imageGen', 1, { taskId: 'refund-spend', key: 'refund-spend' });
    await setPrice(t.ctx.db, 'imageGen', price);
    // Credits earned otherwise are never taken for the debt.
    await runAdminCommand(t.ctx, { command: 'credits grant', email: 'refund@example.com', amount: 40, type: 'PROMOTION' });
    expect(await available(browser.userId)).toBe(290);
    const [purchase] = await purchasesOf(browser.userId);
    if (!purchase?.paymentIntentId) throw new Error('no payment intent');
    await stripe.refund(purchase.paymentIntentId);
    await waitFor(async () => (await purchasesOf(browser.userId))[0]?.reversedAmount === 990, 'the refund');
    expect((await purchasesOf(browser.userId))[0]).toMatchObject({ takenBack: 250, owed: 250 });
    expect(await available(browser.userId)).toBe(40);
    expect((await ledgerOf(browser.userId)).map((r) => [r.operationType, r.pointsChange])).toEqual([
      ['RECHARGE', 500],
      ['TEXT_TO_IMAGE', -250],
      ['PROMOTION', 40],
      ['DEDUCTION', -250],
    ]);
    const lines = await runAdminCommand(t.ctx, { command: 'credits audit' });
    expect(lines).toEqual(['The ledger adds up.', 'refund@example.com owes 250 credits: spent before a purchase was refunded']);
    await expectConsistent(t.ctx.db);
  });

  it('a partial refund takes back its share; a lost dispute the rest; a replay of either takes nothing more', async () => {
    const browser = await buyer('partial@example.com');
    const session = await checkout(browser, 'pack-500');
    await stripe.pay(session);
    await waitFor(async () => (await available(browser.userId)) === 500, 'the grant');
    const [purchase] = await purchasesOf(browser.userId);
    const paymentIntent = purchase?.paymentIntentId as string;
    await stripe.refund(paymentIntent, 495);
    await waitFor(async () => (await available(browser.userId)) === 250, 'half taken back');
    const refunded = stripe.events.filter((e) => e.type === 'charge.refunded' && e.payload.includes(paymentIntent)).at(-1);
    await stripe.dispute(paymentIntent, 'lost');
    await waitFor(async () => (await available(browser.userId)) === 0, 'the rest taken back');
    if (refunded) expect(await stripe.deliver(refunded)).toEqual([200]);
    expect(await available(browser.userId)).toBe(0);
    expect((await purchasesOf(browser.userId))[0]).toMatchObject({ reversedAmount: 990, takenBack: 500, owed: 0 });
    await expectConsistent(t.ctx.db);
  });

  it('a plan grants its credits for each paid month, expiring with it, whatever order its events arrive in', async () => {
    const browser = await buyer('plan@example.com');
    const session = await checkout(browser, 'plan-1000');
    stripe.autoDeliver = false;
    const before = stripe.events.length;
    await stripe.pay(session);
    const events = stripe.events.slice(before);
    expect(events.map((e) => e.type)).toEqual(['customer.subscription.created', 'invoice.paid', 'checkout.session.completed']);
    // Backwards: the completion first, the invoice, then the subscription's creation.
    for (const event of [...events].reverse()) expect(await stripe.deliver(event)).toEqual([200]);
    stripe.autoDeliver = true;
    expect(await available(browser.userId)).toBe(1000);
    expect(await state(browser, session)).toBe('granted');
    const [lot] = await t.ctx.db.select().from(pointsLots).where(eq(pointsLots.userId, browser.userId));
    const subscription = [...stripe.subscriptions.values()].find(
      (s) => s.customer && (s.metadata as { userId?: string })?.userId === browser.userId,
    );
    if (!subscription) throw new Error('no subscription');
    const periodEnd = (subscription.items as { data: Array<{ current_period_end: number }> }).data[0]?.current_period_end as number;
    expect(lot).toMatchObject({ operationType: 'SUBSCRIPTION_PLAN', amount: 1000, expiresAt: new Date(periodEnd * 1000) });
    const offers = (await browser.ok('GET', '/billing/offers')) as { plan: unknown };
    expect(offers.plan).toEqual({
      code: 'plan-1000',
      credits: 1000,
      status: 'active',
      periodEnd: new Date(periodEnd * 1000).toISOString(),
      endsAtPeriodEnd: false,
    });
    // A second plan would bill twice: refused, changes go through the portal.
    const second = await browser.call('POST', '/billing/checkout', { body: { offer: 'plan-3000' } });
    expect(second.body).toMatchObject({ code: 40132 });
    const { url } = (await browser.ok('POST', '/billing/portal')) as { url: string };
    expect(url).toMatch(new RegExp(`^${stripe.base}/portal/`));
    // The next month: another grant, once, however often its event arrives.
    await stripe.renew(subscription.id as string);
    await waitFor(async () => (await available(browser.userId)) === 2000, 'the renewal');
    const renewal = stripe.events.filter((e) => e.type === 'invoice.paid').at(-1);
    if (renewal) await stripe.deliver(renewal, { times: 2, concurrent: true });
    expect(await available(browser.userId)).toBe(2000);
    // Cancelled: no more months; the plan is gone from the page, its credits stay until they expire.
    await stripe.cancelNow(subscription.id as string);
    await waitFor(async () => ((await browser.ok('GET', '/billing/offers')) as { plan: unknown }).plan === null, 'the plan to end');
    expect(await available(browser.userId)).toBe(2000);
    await expectConsistent(t.ctx.db);
  });

  it('a pack the operator gave a lifetime grants credits that expire after it; a retired pack is sold no more', async () => {
    stripe.addPrice({ id: 'price_pack100', unitAmount: 290, currency: 'usd' });
    await runAdminCommand(t.ctx, {
      command: 'billing packs',
      action: 'add',
      code: 'pack-100',
      credits: 100,
      stripePrice: 'price_pack100',
      expiresDays: 90,
    });
    const browser = await buyer('lifetime@example.com');
    const offers = (await browser.ok('GET', '/billing/offers')) as { packs: Array<{ code: string; expiresDays: number | null }> };
    expect(offers.packs.find((p) => p.code === 'pack-100')?.expiresDays).toBe(90);
    const session = await checkout(browser, 'pack-100');
    const paidAt = Date.now();
    await stripe.pay(session);
    await waitFor(async () => (await available(browser.userId)) === 100, 'the grant');
    const [lot] = await t.ctx.db.select().from(pointsLots).where(eq(pointsLots.userId, browser.userId));
    expect(Math.abs((lot?.expiresAt?.getTime() ?? 0) - (paidAt + 90 * 86_400_000))).toBeLessThan(60_000);
    expect(await runAdminCommand(t.ctx, { command: 'billing packs', action: 'retire', code: 'pack-100' })).toEqual([
      'pack-100 is on sale no more; what was bought keeps its credits',
    ]);
    expect((await browser.call('POST', '/billing/checkout', { body: { offer: 'pack-100' } })).body.code).toBe(40131);
    // A recurring price is no pack.
    await expect(
      runAdminCommand(t.ctx, { command: 'billing packs', action: 'add', code: 'pack-x', credits: 1, stripePrice: PLAN_PRICE }),
    ).rejects.toMatchObject({ key: 'validation', params: { detail: `a pack needs a one-time price; ${PLAN_PRICE} is recurring` } });
  });

  it("the page after paying answers only for the user's own checkout", async () => {
    const owner = await buyer('owner@example.com');
    const other = await buyer('other@example.com');
    const session = await checkout(owner, 'pack-500');
    expect((await other.call('GET', '/billing/purchase', { query: { session } })).body.code).toBe(404);
    const unknown = await owner.call('POST', '/billing/checkout', { body: { offer: 'pack-9999' } });
    expect(unknown.body).toMatchObject({ code: 40131 });
  });

  it('counts purchases and webhooks in /metrics and lists events for the operator', async () => {
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/reelsmith_purchases_total\{kind="pack"\} [1-9]/);
    expect(metrics.body).toMatch(/reelsmith_billing_webhooks_total\{type="checkout.session.completed",outcome="duplicate"\} [1-9]/);
    expect(metrics.body).toMatch(/reelsmith_billing_webhooks_total\{type="unknown",outcome="refused"\} [1-9]/);
    const lines = await runAdminCommand(t.ctx, { command: 'billing events', email: 'topup@example.com' });
    expect(lines[0]).toMatch(/^RECEIVED\s+EVENT\s+TYPE\s+OUTCOME$/);
    expect(lines.join('\n')).toContain('granted 500 credits for checkout:');
    expect(await runAdminCommand(t.ctx, { command: 'billing packs', action: 'list' })).toEqual([
      'CODE      CREDITS  STRIPE PRICE   EXPIRES',
      `pack-500  500      ${PACK_PRICE}  never`,
    ]);
  });
});
