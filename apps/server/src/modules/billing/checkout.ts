// Paying happens on Stripe's pages, never here (decision "Buying credits"): a checkout is a Checkout Session for one
// offer, and changing or cancelling a plan is Stripe's customer portal. No card detail reaches this server.
import { GET_CREDITS_ROUTE, type Locale, PURCHASE_ROUTE, type PurchaseState } from '@reelsmith/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Db } from '../../db/client.js';
import { billingCheckouts, billingCustomers, billingPurchases, billingSubscriptions } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { moneyOf, offerOnSale, readPrice } from './catalogue.js';

/** Stripe's names for the app's languages, for its pages. */
const STRIPE_LOCALE: Record<Locale, 'en' | 'zh' | 'pt-BR'> = { en: 'en', zh: 'zh', pt: 'pt-BR' };

/** A plan in one of these states is the user's plan: a second one would bill them twice. */
export const LIVE_PLAN = ['active', 'trialing', 'past_due', 'unpaid', 'incomplete'];

export interface Buyer {
  userId: string;
  email: string;
  name: string;
}

/** The user's Stripe customer, made once (Stripe's idempotency key makes two first checkouts at once agree on it). */
async function customerOf(db: Db, stripe: Stripe, buyer: Buyer): Promise<string> {
  const [known] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, buyer.userId));
  if (known) return known.stripeCustomerId;
  const customer = await stripe.customers.create(
    { email: buyer.email, name: buyer.name, metadata: { userId: buyer.userId } },
    { idempotencyKey: `reelsmith-customer-${buyer.userId}` },
  );
  await db.insert(billingCustomers).values({ userId: buyer.userId, stripeCustomerId: customer.id }).onConflictDoNothing();
  const [row] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, buyer.userId));
  return row?.stripeCustomerId ?? customer.id;
}

/** The user's plan that is still running, if any. */
export async function livePlanOf(db: Db, userId: string) {
  const [plan] = await db
    .select()
    .from(billingSubscriptions)
    .where(and(eq(billingSubscriptions.userId, userId), inArray(billingSubscriptions.status, LIVE_PLAN)))
    .limit(1);
  return plan;
}

/** Opens a Checkout Session for an offer and answers the address of Stripe's page. */
export async function startCheckout(
  db: Db,
  stripe: Stripe,
  { buyer, offerCode, locale, publicUrl }: { buyer: Buyer; offerCode: string; locale: Locale; publicUrl: string },
): Promise<string> {
  const offer = await offerOnSale(db, offerCode);
  if (offer.kind === 'plan' && (await livePlanOf(db, buyer.userId))) throw new AppError('planActive');
  const price = await readPrice(stripe, offer.stripePriceId);
  const customer = await customerOf(db, stripe, buyer);
  const metadata = { userId: buyer.userId, offer: offer.code };
  const session = await stripe.checkout.sessions.create({
    mode: offer.kind === 'pack' ? 'payment' : 'subscription',
    customer,
    client_reference_id: buyer.userId,
    line_items: [{ price: offer.stripePriceId, quantity: 1 }],
    // Charged in the currency the page showed (a currency option of the price, or its own).
    currency: moneyOf(price, locale).currency,
    locale: STRIPE_LOCALE[locale],
    success_url: `${publicUrl}${PURCHASE_ROUTE}?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${publicUrl}${GET_CREDITS_ROUTE}?cancelled=1`,
    metadata,
    ...(offer.kind === 'pack' ? { payment_intent_data: { metadata } } : { subscription_data: { metadata } }),
  });
  if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a page address`);
  await db.insert(billingCheckouts).values({
    id: session.id,
    userId: buyer.userId,
    offerCode: offer.code,
    kind: offer.kind,
    credits: offer.credits,
  });
  return session.url;
}

/** Opens Stripe's customer portal for the user (plans, payment methods, invoices) and answers its address. */
export async function openPortal(db: Db, stripe: Stripe, userId: string, locale: Locale, publicUrl: string): Promise<string> {
  const [customer] = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId));
  if (!customer) throw new AppError('noBillingAccount');
  const portal = await stripe.billingPortal.sessions.create({
    customer: customer.stripeCustomerId,
    return_url: `${publicUrl}${GET_CREDITS_ROUTE}`,
    locale: STRIPE_LOCALE[locale],
  });
  return portal.url;
}

/**
 * Where one of the user's checkouts stands, for the page after paying: granted once the credits are in the ledger
 * (the webhook's doing, never this call's); otherwise Stripe's session says whether a payment may still come.
 */
export async function purchaseState(
  db: Db,
  stripe: Stripe,
  userId: string,
  sessionId: string,
): Promise<{ state: PurchaseState; kind: 'pack' | 'plan'; credits: number }> {
  const [checkout] = await db
    .select()
    .from(billingCheckouts)
    .where(and(eq(billingCheckouts.id, sessionId), eq(billingCheckouts.userId, userId)));
  if (!checkout) throw new AppError('notFound');
  const answer = (state: PurchaseState) => ({ state, kind: checkout.kind, credits: checkout.credits });
  if (await granted(db, `checkout:${sessionId}`)) return answer('granted');
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  // A plan's credits come with its first paid invoice, which the session names.
  const invoice = typeof session.invoice === 'string' ? session.invoice : session.invoice?.id;
  if (checkout.kind === 'plan' && invoice && (await granted(db, `invoice:${invoice}`))) return answer('granted');
  if (session.status === 'expired') return answer('unpaid');
  return answer('waiting');
}

async function granted(db: Db, purchaseId: string): Promise<boolean> {
  const [row] = await db.select({ id: billingPurchases.id }).from(billingPurchases).where(eq(billingPurchases.id, purchaseId));
  return Boolean(row);
}
