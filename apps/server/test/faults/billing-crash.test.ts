// Fault: the server killed between storing a Stripe event and granting its credits (decision "Buying credits"). A
// real server process receives a paid checkout's webhook, stores the event, and is stuck asking Stripe for the session
// when it gets SIGKILL; the delivery fails, as Stripe sees it. A new process on the same database gets Stripe's next
// delivery of the same event and grants the pack: once, the event then marked processed, the ledger adding up.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../../../test-support/fakeStripe.js';
import { billingEvents, pointsLedger } from '../../src/db/schema.js';
import { putOnSale } from '../../src/modules/billing/catalogue.js';
import type { TestDb } from '../support/databases.js';
import { availableOf, expectLedgerConsistent, faultDatabase, serverEnv, signUp } from '../support/faults.js';
import { freePort, type ServerProcess, startServer, whenHealthy } from '../support/serverProcess.js';

describe('a server killed between storing a Stripe event and granting it', () => {
  let database: TestDb;
  let dataDir: string;
  let stripe: FakeStripe;
  let server: ServerProcess;
  let env: Record<string, string>;
  let port: number;

  beforeAll(async () => {
    database = await faultDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'reelsmith-fault-billing-'));
    stripe = await startFakeStripe();
    stripe.addPrice({ id: 'price_pack500', unitAmount: 990, currency: 'usd' });
    await putOnSale(database.db, { kind: 'pack', code: 'pack-500', credits: 500, stripePriceId: 'price_pack500' });
    port = await freePort();
    env = serverEnv(database.url as string, dataDir, {
      SIGNUP_CREDITS: '0',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.base,
    });
    server = startServer(env, port);
    await whenHealthy(server);
    stripe.setWebhookUrl(`${server.base}/reelsmith/api/billing/stripe/webhook`);
  }, 120_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await server?.exited;
    await stripe?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('grants the purchase once when Stripe delivers the event again to the restarted server', async () => {
    const db = database.db;
    const { client, userId } = await signUp(db, server.base, 'crash-buyer@example.com');
    const { url } = await client.ok<{ url: string }>('POST', '/billing/checkout', { body: { offer: 'pack-500' } });
    const session = url.split('/pay/')[1] as string;
    stripe.autoDeliver = false;
    await stripe.pay(session);
    const completed = stripe.events.find((e) => e.type === 'checkout.session.completed');
    if (!completed) throw new Error('no checkout.session.completed');

    const stuck = stripe.hold('GET /v1/checkout/sessions/');
    const delivery = stripe.deliver(completed);
    await stuck.seen;
    const [stored] = await db.select().from(billingEvents).where(eq(billingEvents.id, completed.id));
    expect(stored).toMatchObject({ type: 'checkout.session.completed', processedAt: null });
    server.child.kill('SIGKILL');
    await server.exited;
    stuck.release();
    expect(await delivery).toEqual([0]);
    expect(await availableOf(db, userId)).toBe(0);

    server = startServer(env, port);
    await whenHealthy(server);
    expect(await stripe.deliver(completed)).toEqual([200]);
    expect(await availableOf(db, userId)).toBe(500);
    // A late duplicate, twice at once, grants nothing more.
    expect(await stripe.deliver(completed, { times: 2, concurrent: true })).toEqual([200, 200]);
    expect(await availableOf(db, userId)).toBe(500);
    const rows = await db.select().from(pointsLedger).where(eq(pointsLedger.userId, userId));
    expect(rows.map((r) => [r.operationType, r.pointsChange])).toEqual([['RECHARGE', 500]]);
    const [acted] = await db.select().from(billingEvents).where(eq(billingEvents.id, completed.id));
    expect(acted?.processedAt).toBeInstanceOf(Date);
    expect(acted?.outcome).toBe(`granted 500 credits for checkout:${session}`);
    await expectLedgerConsistent(db);
    // What the server printed names the event and what it did, never the operator's secrets.
    const printed = server.lines.join('\n');
    expect(printed).toContain(completed.id);
    expect(printed).not.toContain(stripe.secretKey);
    expect(printed).not.toContain(stripe.webhookSecret);
  }, 120_000);
});
