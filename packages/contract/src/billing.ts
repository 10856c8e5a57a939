import { z } from 'zod';
import { defineCall } from './call.js';
import { Timestamp } from './common.js';

/** A price as the payment service states it: an amount in the currency's smallest unit (cents, fen, centavos). */
export const Money = z.object({
  amount: z.number().int(),
  /** ISO 4217, lower case as Stripe writes it: usd, cny, brl. */
  currency: z.string(),
});
export type Money = z.infer<typeof Money>;

/** Something a user can buy: a top-up pack (credits once) or a plan (credits every month). */
export const BillingOffer = z.object({
  /** The operator's name for it, e.g. `pack-500`: what a checkout names. */
  code: z.string(),
  kind: z.enum(['pack', 'plan']),
  /** The credits it grants: once for a pack, each paid month for a plan. */
  credits: z.number().int(),
  price: Money,
  /** How many days a pack's credits last; null: they never expire (a plan's last the month they are for). */
  expiresDays: z.number().int().nullable(),
});
export type BillingOffer = z.infer<typeof BillingOffer>;

/** The user's monthly plan as the payment service last said it. */
export const BillingPlan = z.object({
  code: z.string(),
  credits: z.number().int(),
  /** active, past_due, canceled…: Stripe's subscription status. */
  status: z.string(),
  /** The end of the paid month: the next renewal, or the end when the plan is cancelled. */
  periodEnd: Timestamp.nullable(),
  /** The plan ends at periodEnd instead of renewing. */
  endsAtPeriodEnd: z.boolean(),
});
export type BillingPlan = z.infer<typeof BillingPlan>;

/** The "Get credits" page: whether buying is offered here at all, what is on sale, and the user's plan. */
export const billingOffers = defineCall({
  method: 'GET',
  path: '/billing/offers',
  access: 'active',
  data: z.object({
    /** False when the operator has not connected a payment service: the page says to ask the administrator. */
    enabled: z.boolean(),
    packs: z.array(BillingOffer),
    plans: z.array(BillingOffer),
    plan: BillingPlan.nullable(),
  }),
});

/** Starts a payment for an offer on the payment service's own page; the answer is where to send the browser. */
export const billingCheckout = defineCall({
  method: 'POST',
  path: '/billing/checkout',
  access: 'active',
  body: z.strictObject({ offer: z.string().min(1).max(64) }),
  data: z.object({ url: z.string() }),
});

/** The payment service's page where a user changes or cancels their plan and sees their invoices. */
export const billingPortal = defineCall({
  method: 'POST',
  path: '/billing/portal',
  access: 'active',
  data: z.object({ url: z.string() }),
});

/** One checkout as the page after paying follows it: paid and granted, still waiting for the payment service, or not paid. */
export const PurchaseState = z.enum(['waiting', 'granted', 'unpaid']);
export type PurchaseState = z.infer<typeof PurchaseState>;

export const billingPurchase = defineCall({
  method: 'GET',
  path: '/billing/purchase',
  access: 'active',
  query: z.strictObject({ session: z.string().min(1).max(255) }),
  data: z.object({
    state: PurchaseState,
    kind: z.enum(['pack', 'plan']),
    /** The credits this purchase grants (for a plan, its first month). */
    credits: z.number().int(),
  }),
});
