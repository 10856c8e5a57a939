// Stripe's webhook: the only way purchased credits enter the ledger (decision "Buying credits"). A delivery is
// verified with Stripe's signature scheme, stored by its event id before anything acts on it, and acted on in one
// transaction that also marks it processed; it is answered 2xx only after that commit. So a duplicate, a replay or a
// delivery racing another acts once; a crash between storing and acting leaves it unprocessed, and Stripe's next
// delivery acts. What an event says is read again from Stripe before acting: events may arrive in any order, and the
// object Stripe has now is the truth.
import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db, Tx } from '../../db/client.js';
import { billingCheckouts, billingCustomers, billingEvents, billingPurchases, billingSubscriptions } from '../../db/schema.js';
import { purchasedCredits, purchases, reversedCredits } from '../metrics/registry.js';
import { grant, lotOfGrant, takeBack } from '../points/ledger.js';
import { offerOfCode, offerOfPrice, readPrice } from './catalogue.js';

/** How old a signed delivery may be: Stripe's own default, against replays of a captured request. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A delivery whose signature does not verify: answered 400 and stored nowhere. */
export class ForgedEvent extends Error {}

/** What acting on an event did: in words for the operator, and for whom. */
interface Outcome {
  acted: boolean;
  words: string;
  userId?: string | undefined;
  /** Counted once the transaction has committed. */
  count?: () => void;
}

/** The writes an event makes, run in the transaction that marks it processed. */
type Effect = (tx: Tx) => Promise<Outcome>;

const ignored =
  (words: string): Effect =>
  async () => ({ acted: false, words });

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : value?.id);
const dateOf = (seconds: number) => new Date(seconds * 1000);
const DAY_MS = 86_400_000;

/** Verifies a delivery and answers its event; ForgedEvent when the signature, the secret or the time do not match. */
export function verify(stripe: Stripe, secret: string, payload: string, signature: string | undefined): Stripe.Event {
  if (!signature) throw new ForgedEvent('no Stripe-Signature header');
  try {
    return stripe.webhooks.constructEvent(payload, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    throw new ForgedEvent((error as Error).message);
  }
}

/** Stores an event (once, by its id) and acts on it unless that was done: 'acted', 'ignored' or 'duplicate'. */
export async function receive(db: Db, stripe: Stripe, event: Stripe.Event): Promise<'acted' | 'ignored' | 'duplicate'> {
  await db.insert(billingEvents).values({ id: event.id, type: event.type, payload: event }).onConflictDoNothing();
  const [stored] = await db.select({ processedAt: billingEvents.processedAt }).from(billingEvents).where(eq(billingEvents.id, event.id));
  if (stored?.processedAt) return 'duplicate';
  try {
    const effect = await effectOf(db, stripe, event);
    const outcome = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(billingEvents).where(eq(billingEvents.id, event.id)).for('update');
      if (locked?.processedAt) return undefined;
      const done = await effect(tx);
      await tx
        .update(billingEvents)
        .set({ processedAt: new Date(), outcome: done.words, userId: done.userId ?? null })
        .where(eq(billingEvents.id, event.id));
      return done;
    });
    if (!outcome) return 'duplicate';
    outcome.count?.();
    return outcome.acted ? 'acted' : 'ignored';
  } catch (error) {
    await db
      .update(billingEvents)
      .set({ failures: sql`${billingEvents.failures} + 1`, lastError: String((error as Error).message).slice(0, 500) })
      .where(eq(billingEvents.id, event.id));
    throw error;
  }
}

/** What an event will write, with what it needs read from Stripe first (no transaction waits on the network). */
async function effectOf(db: Db, stripe: Stripe, event: Stripe.Event): Promise<Effect> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return checkoutEffect(db, stripe, event.data.object.id);
    case 'checkout.session.async_payment_failed': {
      const sessionId = event.data.object.id;
      return async (tx) => {
        const [row] = await tx.update(billingCheckouts).set({ failedAt: new Date() }).where(eq(billingCheckouts.id, sessionId)).returning();
        return {
          acted: Boolean(row),
          words: row ? `delayed payment of ${sessionId} failed` : 'not a checkout of this server',
          userId: row?.userId,
        };
      };
    }
    case 'invoice.paid':
      return invoiceEffect(stripe, event.data.object.id as string);
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = await stripe.subscriptions.retrieve(event.data.object.id);
      return async (tx) => {
        const userId = await recordPlan(tx, subscription);
        return userId
          ? { acted: true, words: `plan ${subscription.id} is ${subscription.status}`, userId }
          : { acted: false, words: 'not a customer of this server' };
      };
    }
    case 'charge.refunded': {
      const charge = await stripe.charges.retrieve(event.data.object.id);
      const paymentIntent = idOf(charge.payment_intent);
      if (!paymentIntent) return ignored('a charge without a payment intent');
      return reversalEffect(db, stripe, paymentIntent, (p) => Math.max(p.reversedAmount, charge.amount_refunded), 'refunded');
    }
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      if (dispute.status !== 'lost') return ignored(`dispute ${dispute.id} closed ${dispute.status}`);
      const paymentIntent = idOf(dispute.payment_intent);
      if (!paymentIntent) return ignored('a dispute without a payment intent');
      return reversalEffect(db, stripe, paymentIntent, (p) => p.reversedAmount + dispute.amount, 'dispute lost');
    }
    default:
      return ignored(`${event.type} is not acted on`);
  }
}

async function userOfCustomer(tx: Tx, customer: string | undefined): Promise<string | undefined> {
  if (!customer) return undefined;
  const [row] = await tx.select().from(billingCustomers).where(eq(billingCustomers.stripeCustomerId, customer));
  return row?.userId;
}

/** Writes a plan as Stripe has it now; answers its user, or undefined for a customer this server did not make. */
async function recordPlan(tx: Tx, subscription: Stripe.Subscription): Promise<string | undefined> {
  const userId = await userOfCustomer(tx, idOf(subscription.customer));
  if (!userId) return undefined;
  const item = subscription.items.data[0];
  const offer = item && (await offerOfPrice(tx, item.price.id));
  const row = {
    id: subscription.id,
    userId,
    offerCode: offer?.code ?? null,
    status: subscription.status,
    periodEnd: item ? dateOf(item.current_period_end) : null,
    endsAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at != null,
    updatedAt: new Date(),
  };
  await tx.insert(billingSubscriptions).values(row).onConflictDoUpdate({ target: billingSubscriptions.id, set: row });
  return userId;
}

interface Paid {
  id: string;
  userId: string;
  kind: 'pack' | 'plan';
  offerCode: string;
  credits: number;
  amount: number;
  currency: string;
  paymentIntentId: string | null;
  expiresAt: Date | undefined;
}

/** Grants a purchase's credits as one lot and records the purchase, both once whatever the deliveries. */
async function grantPurchase(tx: Tx, paid: Paid): Promise<Outcome> {
  const type = paid.kind === 'pack' ? 'RECHARGE' : 'SUBSCRIPTION_PLAN';
  const entry = await grant(tx, paid.userId, paid.credits, type, { key: paid.id, referenceId: paid.id, expiresAt: paid.expiresAt });
  const lotId = await lotOfGrant(tx, entry);
  const { expiresAt: _, ...purchase } = paid;
  const [inserted] = await tx
    .insert(billingPurchases)
    .values({ ...purchase, lotId })
    .onConflictDoNothing()
    .returning({ id: billingPurchases.id });
  return {
    acted: Boolean(inserted),
    words: inserted ? `granted ${paid.credits} credits for ${paid.id}` : `${paid.id} was granted before`,
    userId: paid.userId,
    count: () => {
      if (!inserted) return;
      purchases.inc({ kind: paid.kind });
      purchasedCredits.inc({ kind: paid.kind }, paid.credits);
    },
  };
}

/** A Checkout Session paid (at once, or later for a delayed method): a pack's credits, or a plan recorded. */
async function checkoutEffect(db: Db, stripe: Stripe, sessionId: string): Promise<Effect> {
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  const [checkout] = await db.select().from(billingCheckouts).where(eq(billingCheckouts.id, sessionId));
  if (!checkout) return ignored('not a checkout of this server');
  if (session.mode === 'subscription') {
    // The plan's credits come with each paid invoice (invoice.paid); the session only says the plan began.
    const subscriptionId = idOf(session.subscription);
    const subscription = subscriptionId ? await stripe.subscriptions.retrieve(subscriptionId) : undefined;
    return async (tx) => {
      if (subscription) await recordPlan(tx, subscription);
      return { acted: true, words: `plan ${checkout.offerCode} checked out`, userId: checkout.userId };
    };
  }
  if (session.payment_status !== 'paid')
    return async () => ({ acted: false, words: `${sessionId} waits for a delayed payment`, userId: checkout.userId });
  const expiresDays = (await offerOfCode(db, checkout.offerCode))?.expiresDays;
  return (tx) =>
    grantPurchase(tx, {
      id: `checkout:${sessionId}`,
      userId: checkout.userId,
      kind: 'pack',
      offerCode: checkout.offerCode,
      // The credits the page showed when the user paid, whatever the operator changed since.
      credits: checkout.credits,
      amount: session.amount_total ?? 0,
      currency: session.currency ?? '',
      paymentIntentId: idOf(session.payment_intent) ?? null,
      expiresAt: expiresDays ? new Date(Date.now() + expiresDays * DAY_MS) : undefined,
    });
}

/**
 * A paid invoice of a plan: the month's credits, expiring at the end of the period it pays for. An invoice that pays
 * part of a month (a plan changed mid-way, prorated) grants that part of the plan's credits; one that paid nothing
 * (a free trial) grants none.
 */
async function invoiceEffect(stripe: Stripe, invoiceId: string): Promise<Effect> {
  const invoice = await stripe.invoices.retrieve(invoiceId);
  if (invoice.status !== 'paid') return ignored(`invoice ${invoiceId} is ${invoice.status}`);
  const lines = invoice.lines.data.filter((line) => line.amount > 0 && idOf(line.pricing?.price_details?.price));
  const payments = await stripe.invoicePayments.list({ invoice: invoiceId, limit: 10 });
  const paymentIntent = idOf(payments.data.find((p) => p.status === 'paid')?.payment.payment_intent) ?? null;
  const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
  const subscription = subscriptionId ? await stripe.subscriptions.retrieve(subscriptionId) : undefined;
  const priced = await Promise.all(
    lines.map(async (line) => ({ line, price: await readPrice(stripe, idOf(line.pricing?.price_details?.price) as string) })),
  );
  return async (tx) => {
    const userId = await userOfCustomer(tx, idOf(invoice.customer));
    if (!userId) return { acted: false, words: 'not a customer of this server' };
    if (subscription) await recordPlan(tx, subscription);
    for (const { line, price } of priced) {
      const offer = await offerOfPrice(tx, price.id);
      if (offer?.kind !== 'plan') continue;
      const full = price.currency === invoice.currency ? price.unit_amount : price.currency_options?.[invoice.currency]?.unit_amount;
      const credits = full ? Math.min(offer.credits, Math.floor((offer.credits * line.amount) / full)) : offer.credits;
      if (credits <= 0) return { acted: false, words: `invoice ${invoiceId} paid too little for a credit`, userId };
      return grantPurchase(tx, {
        id: `invoice:${invoiceId}`,
        userId,
        kind: 'plan',
        offerCode: offer.code,
        credits,
        amount: invoice.amount_paid,
        currency: invoice.currency,
        paymentIntentId: paymentIntent,
        expiresAt: dateOf(line.period.end),
      });
    }
    return { acted: false, words: `invoice ${invoiceId} bills no plan on sale here`, userId };
  };
}

/**
 * Money given back (a refund) or taken (a lost dispute) for a purchase: the credits of the reversed share are
 * taken from that purchase's lot while it has them, and the rest is recorded as owed; nothing else of the
 * user's is touched. `reversedTo` answers the purchase's reversed amount after this event.
 */
async function reversalEffect(
  db: Db,
  stripe: Stripe,
  paymentIntent: string,
  reversedTo: (purchase: { reversedAmount: number; amount: number }) => number,
  why: string,
): Promise<Effect> {
  // A reversal may arrive before the purchase's own event was acted on: the purchase is granted first.
  const [known] = await db.select().from(billingPurchases).where(eq(billingPurchases.paymentIntentId, paymentIntent));
  const before = known ? undefined : await purchaseOfPayment(db, stripe, paymentIntent);
  return async (tx) => {
    if (before) await before(tx);
    const [purchase] = await tx.select().from(billingPurchases).where(eq(billingPurchases.paymentIntentId, paymentIntent)).for('update');
    if (!purchase) return { acted: false, words: `payment ${paymentIntent} bought nothing here` };
    const target = Math.min(purchase.amount, reversedTo(purchase));
    if (target <= purchase.reversedAmount)
      return { acted: false, words: `${purchase.id}: nothing more to take back`, userId: purchase.userId };
    const due = purchase.amount === 0 ? purchase.credits : Math.ceil((purchase.credits * target) / purchase.amount);
    const more = Math.max(0, due - purchase.takenBack - purchase.owed);
    const taken = await takeBack(tx, purchase.userId, purchase.lotId, more, {
      key: `reversal:${purchase.id}:${due}`,
      referenceId: purchase.id,
    });
    await tx
      .update(billingPurchases)
      .set({ reversedAmount: target, takenBack: purchase.takenBack + taken, owed: purchase.owed + more - taken })
      .where(eq(billingPurchases.id, purchase.id));
    return {
      acted: true,
      words: `${purchase.id} ${why}: ${taken} credits taken back, ${more - taken} owed`,
      userId: purchase.userId,
      count: () => {
        reversedCredits.inc({ result: 'taken back' }, taken);
        reversedCredits.inc({ result: 'owed' }, more - taken);
      },
    };
  };
}

/** The grant of the checkout or invoice a payment intent paid, found through Stripe; undefined when it was neither of ours. */
async function purchaseOfPayment(db: Db, stripe: Stripe, paymentIntent: string): Promise<Effect | undefined> {
  const sessions = await stripe.checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 });
  const session = sessions.data[0];
  if (session) return checkoutEffect(db, stripe, session.id);
  const payments = await stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: paymentIntent }, limit: 1 });
  const invoice = idOf(payments.data[0]?.invoice);
  return invoice ? invoiceEffect(stripe, invoice) : undefined;
}
