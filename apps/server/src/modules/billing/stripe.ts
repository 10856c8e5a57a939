// The Stripe SDK for the operator's account (decision "Buying credits"), pointed at STRIPE_API_URL: Stripe itself,
// or a proxy, or the tests' local fake that speaks Stripe's protocol.
import Stripe from 'stripe';
import type { StripeSettings } from '../../settings.js';

export function stripeClient(settings: StripeSettings): Stripe {
  const url = new URL(settings.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(settings.secretKey, {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    // Stripe's own advice: retried with idempotency keys, which the SDK adds to every POST it retries.
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Reelsmith' },
  });
}
