import { billingCheckout, billingOffers, billingPortal, billingPurchase } from '@reelsmith/contract';
import type Stripe from 'stripe';
import { AppError } from '../../errors.js';
import { localeOf } from '../../http/locale.js';
import { defineModule } from '../../http/module.js';
import { billingEventsReceived } from '../metrics/registry.js';
import { offerOfCode, offersOnSale, pricedOffers } from './catalogue.js';
import { livePlanOf, openPortal, purchaseState, startCheckout } from './checkout.js';
import { ForgedEvent, receive, verify } from './events.js';

/** Where Stripe sends its events, under the API prefix: the address docs/deploy.md tells operators to register. */
export const STRIPE_WEBHOOK_PATH = '/billing/stripe/webhook';
/** Stripe's events are small; a checkout session with its line items is a few kilobytes. */
const WEBHOOK_BODY_MAX = 1024 * 1024;
/**
 * Each checkout and each portal visit is a call to Stripe, whose rate limit is the whole account's: a user opening
 * them in a loop would spend everyone's. A buyer clicks a few times a minute at most. Counted per user, since buyers
 * behind one address are many, and only for requests that passed validation: a malformed one never reaches Stripe
 * and gets its own clear error.
 */
const STRIPE_CALLS = { max: 10, windowMs: 60_000 };

/** Refuses a user's call past `max` in any `windowMs` (kept in this process, as the other rate limits are). */
function perUserLimit({ max, windowMs }: { max: number; windowMs: number }) {
  const calls = new Map<string, number[]>();
  return (userId: string) => {
    const now = Date.now();
    const recent = (calls.get(userId) ?? []).filter((at) => now - at < windowMs);
    if (recent.length >= max) throw new AppError('rateLimited');
    // Buyers whose window has passed are forgotten now and then, so the map holds only recent ones.
    if (calls.size >= 1000) for (const [id, times] of calls) if (now - (times.at(-1) ?? 0) >= windowMs) calls.delete(id);
    calls.set(userId, [...recent, now]);
  };
}

export const billingModule = defineModule(async (api, { route, ctx: { db, settings, stripe } }) => {
  const stripeCall = perUserLimit(STRIPE_CALLS);
  const stripeOrRefuse = (): Stripe => {
    if (!stripe) throw new AppError('billingOff');
    return stripe;
  };

  route(billingOffers, async ({ user, req }) => {
    if (!stripe) return { enabled: false, packs: [], plans: [], plan: null };
    const skipped = (offer: { code: string }, why: string) => req.log.warn({ offer: offer.code, why }, 'an offer is not shown');
    const offers = await pricedOffers(stripe, await offersOnSale(db), localeOf(req.headers['accept-language']), skipped);
    const live = await livePlanOf(db, user.userId);
    // Only a plan still running is the user's plan; an ended one is history, not shown.
    const offer = live?.offerCode ? await offerOfCode(db, live.offerCode) : undefined;
    return {
      enabled: true,
      packs: offers.filter((o) => o.kind === 'pack'),
      plans: offers.filter((o) => o.kind === 'plan'),
      plan:
        live && offer
          ? {
              code: offer.code,
              credits: offer.credits,
              status: live.status,
              periodEnd: live.periodEnd?.toISOString() ?? null,
              endsAtPeriodEnd: live.endsAtPeriodEnd,
            }
          : null,
    };
  });

  route(billingCheckout, async ({ user, body, req }) => {
    const client = stripeOrRefuse();
    stripeCall(user.userId);
    const url = await startCheckout(db, client, {
      buyer: { userId: user.userId, email: user.email, name: user.username },
      offerCode: body.offer,
      locale: localeOf(req.headers['accept-language']),
      publicUrl: settings.publicUrl,
    });
    return { url };
  });

  route(billingPortal, async ({ user, req }) => {
    const client = stripeOrRefuse();
    stripeCall(user.userId);
    return { url: await openPortal(db, client, user.userId, localeOf(req.headers['accept-language']), settings.publicUrl) };
  });

  route(billingPurchase, ({ user, query }) => purchaseState(db, stripeOrRefuse(), user.userId, query.session));

  // Stripe's deliveries: the raw body is what the signature covers, so this route reads it unparsed.
  await api.register(async (webhook) => {
    webhook.removeContentTypeParser('application/json');
    webhook.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_MAX }, (_req, body, done) =>
      done(null, body),
    );
    webhook.post(STRIPE_WEBHOOK_PATH, { config: { skipClientChecks: true }, bodyLimit: WEBHOOK_BODY_MAX }, async (req, reply) => {
      if (!stripe || !settings.stripe) throw new AppError('notFound');
      const signature = req.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        event = verify(
          stripe,
          settings.stripe.webhookSecret,
          String(req.body ?? ''),
          typeof signature === 'string' ? signature : undefined,
        );
      } catch (error) {
        if (!(error instanceof ForgedEvent)) throw error;
        billingEventsReceived.inc({ type: 'unknown', outcome: 'refused' });
        req.log.warn({ why: error.message }, 'a Stripe webhook delivery was refused: its signature does not verify');
        return reply.code(400).send({ received: false, error: 'The signature does not verify.' });
      }
      try {
        const outcome = await receive(db, stripe, event);
        billingEventsReceived.inc({ type: event.type, outcome });
        req.log.info({ event: event.id, type: event.type, outcome }, 'Stripe event');
        return { received: true, outcome };
      } catch (error) {
        billingEventsReceived.inc({ type: event.type, outcome: 'failed' });
        // Answered 500: Stripe delivers it again, and the next delivery acts.
        req.log.error({ err: error, event: event.id, type: event.type }, 'a Stripe event could not be acted on; Stripe will send it again');
        return reply.code(500).send({ received: false });
      }
    });
  });
});
