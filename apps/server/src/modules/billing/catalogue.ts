// What is on sale (decision "Buying credits"): the operator's packs and plans, each a Stripe price. The amounts and
// currencies are Stripe's: read from the price (with its currency options), never written here, so what the page
// shows is what Checkout charges.
import type { BillingOffer, Locale } from '@reelsmith/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { Queryable } from '../../db/client.js';
import { type BillingOfferRow, billingOffers } from '../../db/schema.js';
import { AppError } from '../../errors.js';

export type OfferKind = BillingOfferRow['kind'];

/** The currency a locale's users most likely pay in, when the price offers it; otherwise the price's own. */
const LOCAL_CURRENCY: Record<Locale, string> = { en: 'usd', zh: 'cny', pt: 'brl' };

/** Prices are read again after this long: an operator's change in Stripe shows within minutes. */
const PRICE_CACHE_MS = 5 * 60_000;
const priceCache = new Map<string, { price: Stripe.Price; until: number }>();

export async function readPrice(stripe: Stripe, priceId: string, now = Date.now()): Promise<Stripe.Price> {
  const cached = priceCache.get(priceId);
  if (cached && cached.until > now) return cached.price;
  const price = await stripe.prices.retrieve(priceId, { expand: ['currency_options'] });
  priceCache.set(priceId, { price, until: now + PRICE_CACHE_MS });
  return price;
}

/** The amount and currency a user of this locale is charged: the price's option in their currency, or its own. */
export function moneyOf(price: Stripe.Price, locale: Locale): { amount: number; currency: string } {
  const local = LOCAL_CURRENCY[locale];
  const option = price.currency_options?.[local];
  if (option?.unit_amount != null) return { amount: option.unit_amount, currency: local };
  return { amount: price.unit_amount ?? 0, currency: price.currency };
}

/** Whether a Stripe price can be sold as this kind: once for a pack, every month for a plan. */
export function priceProblem(price: Stripe.Price, kind: OfferKind): string | undefined {
  if (!price.active) return `the Stripe price ${price.id} is archived`;
  if (price.unit_amount == null) return `the Stripe price ${price.id} has no fixed amount`;
  if (kind === 'pack' && price.type !== 'one_time') return `a pack needs a one-time price; ${price.id} is recurring`;
  if (kind === 'plan' && (price.recurring?.interval !== 'month' || price.recurring.interval_count !== 1))
    return `a plan needs a price billed every month; ${price.id} is not`;
  return undefined;
}

/** Offers on sale, by kind, in the order they were added. */
export function offersOnSale(db: Queryable, kind?: OfferKind) {
  return db
    .select()
    .from(billingOffers)
    .where(and(isNull(billingOffers.retiredAt), kind ? eq(billingOffers.kind, kind) : undefined))
    .orderBy(asc(billingOffers.createdAt), asc(billingOffers.code));
}

/** An offer on sale, or unknownOffer. */
export async function offerOnSale(db: Queryable, code: string): Promise<BillingOfferRow> {
  const [offer] = await db
    .select()
    .from(billingOffers)
    .where(and(eq(billingOffers.code, code), isNull(billingOffers.retiredAt)));
  if (!offer) throw new AppError('unknownOffer');
  return offer;
}

/** An offer by its code, retired or not: what a checkout named. */
export async function offerOfCode(db: Queryable, code: string): Promise<BillingOfferRow | undefined> {
  const [offer] = await db.select().from(billingOffers).where(eq(billingOffers.code, code));
  return offer;
}

/** The offer a Stripe price belongs to, retired or not: a plan's renewal grants even after the plan left the shop. */
export async function offerOfPrice(db: Queryable, priceId: string): Promise<BillingOfferRow | undefined> {
  const [offer] = await db.select().from(billingOffers).where(eq(billingOffers.stripePriceId, priceId));
  return offer;
}

/** Offers with their prices for a locale; one whose price Stripe no longer sells is left out (`skipped` names it). */
export async function pricedOffers(
  stripe: Stripe,
  offers: readonly BillingOfferRow[],
  locale: Locale,
  skipped: (offer: BillingOfferRow, why: string) => void,
): Promise<BillingOffer[]> {
  const priced = await Promise.all(
    offers.map(async (offer) => {
      const price = await readPrice(stripe, offer.stripePriceId).catch((error: Error) => {
        skipped(offer, error.message);
        return undefined;
      });
      const problem = price && priceProblem(price, offer.kind);
      if (!price || problem) {
        if (problem) skipped(offer, problem);
        return undefined;
      }
      return { code: offer.code, kind: offer.kind, credits: offer.credits, price: moneyOf(price, locale), expiresDays: offer.expiresDays };
    }),
  );
  return priced.filter((offer) => offer !== undefined);
}

export interface OfferInput {
  kind: OfferKind;
  code: string;
  credits: number;
  stripePriceId: string;
  expiresDays?: number | undefined;
}

/** Puts an offer on sale, or changes one (a retired code comes back); what was bought before keeps its own figures. */
export async function putOnSale(db: Queryable, input: OfferInput): Promise<BillingOfferRow> {
  const values = { ...input, expiresDays: input.kind === 'pack' ? (input.expiresDays ?? null) : null, retiredAt: null };
  const [sameCode] = await db.select().from(billingOffers).where(eq(billingOffers.code, input.code));
  if (sameCode && sameCode.kind !== input.kind)
    throw new AppError('validation', { detail: `${input.code} is a ${sameCode.kind}; retire it and choose another code` });
  const [samePrice] = await db.select().from(billingOffers).where(eq(billingOffers.stripePriceId, input.stripePriceId));
  if (samePrice && samePrice.code !== input.code)
    throw new AppError('validation', { detail: `the price ${input.stripePriceId} is already sold as ${samePrice.code}` });
  const [row] = await db.insert(billingOffers).values(values).onConflictDoUpdate({ target: billingOffers.code, set: values }).returning();
  if (!row) throw new Error('offer upsert returned nothing');
  return row;
}

export async function retire(db: Queryable, kind: OfferKind, code: string): Promise<BillingOfferRow> {
  const [row] = await db
    .update(billingOffers)
    .set({ retiredAt: new Date() })
    .where(and(eq(billingOffers.code, code), eq(billingOffers.kind, kind), isNull(billingOffers.retiredAt)))
    .returning();
  if (!row) throw new AppError('validation', { detail: `no ${kind} ${code} is on sale` });
  return row;
}
