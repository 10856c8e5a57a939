// Buying credits through Stripe (decision "Buying credits"): the API key, the webhook's signing secret and where
// Stripe's API is. Unset, nothing about buying is offered. What is on sale is the operator's catalogue, kept in the
// database (`npm run admin -- billing packs|plans …`), not here, so it changes without a restart.
import { z } from 'zod';
import { baseUrl, optional, refuse, setting } from './fields.js';

export const BillingEnv = z.object({
  STRIPE_SECRET_KEY: setting(
    optional.pipe(
      z
        .string()
        .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret or restricted key (sk_… or rk_…)')
        .optional(),
    ),
    "Stripe's secret key (or a restricted key allowed customers, Checkout and billing portal sessions, prices, subscriptions, invoices and charges): turns on buying credits",
    'unset: buying credits is not offered',
  ),
  STRIPE_WEBHOOK_SECRET: setting(
    optional.pipe(
      z
        .string()
        .regex(/^whsec_\w+$/, 'must be the endpoint signing secret Stripe shows (whsec_…)')
        .optional(),
    ),
    'the signing secret of the webhook endpoint `{PUBLIC_URL}/{API_PREFIX}/api/billing/stripe/webhook` (docs/deploy.md lists its events)',
    'required with `STRIPE_SECRET_KEY`',
  ),
  STRIPE_API_URL: setting(
    baseUrl('https://api.stripe.com'),
    "Stripe's API: another address only for a proxy, or a local stand-in in tests",
  ),
});

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  apiUrl: string;
}

export function billingSettings(e: z.output<typeof BillingEnv>) {
  // Half the settings would sell credits that are never granted (no verified webhook), or verify events of no account.
  if (Boolean(e.STRIPE_SECRET_KEY) !== Boolean(e.STRIPE_WEBHOOK_SECRET))
    refuse('STRIPE_SECRET_KEY / STRIPE_WEBHOOK_SECRET: set both to sell credits, or neither');
  const stripe: StripeSettings | undefined =
    e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiUrl: e.STRIPE_API_URL }
      : undefined;
  return {
    /** Stripe, when the operator sells credits; undefined: "Ask your administrator for credits". */
    stripe,
  };
}
