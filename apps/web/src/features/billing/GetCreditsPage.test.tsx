import type { BillingOffer, BillingPlan } from '@reelsmith/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../shared/i18n/i18n';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';
import { paymentService } from './billingApi';

vi.setConfig({ testTimeout: 30_000 });

afterEach(async () => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

const PAGE = '/account/credits';
const CHECKOUT_URL = 'https://checkout.stripe.com/c/pay/cs_test_1';
const PORTAL_URL = 'https://billing.stripe.com/p/session/test_1';

const offer = (
  code: string,
  kind: BillingOffer['kind'],
  credits: number,
  amount: number,
  currency = 'usd',
  expiresDays: number | null = null,
): BillingOffer => ({
  code,
  kind,
  credits,
  price: { amount, currency },
  expiresDays,
});
const PACKS = [offer('pack-500', 'pack', 500, 990), offer('pack-2000', 'pack', 2000, 2990, 'usd', 365)];
const PLANS = [offer('plan-1000', 'plan', 1000, 1900), offer('plan-5000', 'plan', 5000, 7900)];
const plan = (change: Partial<BillingPlan> = {}): BillingPlan => ({
  code: 'plan-1000',
  credits: 1000,
  status: 'active',
  periodEnd: '2026-12-24T10:00:00.000Z',
  endsAtPeriodEnd: false,
  ...change,
});

const ACCOUNT = ok({ totalPoints: 40, availablePoints: 40, usedPoints: 0, expiredPoints: 0, expiring: [] });
const refused = (code: number, message: string) => ({ body: { code, message, data: null } });

/** The billing service: what is on sale, and a checkout and portal that answer where to go; keeps what checkouts asked for. */
function billing(
  offers: { enabled?: boolean; packs?: BillingOffer[]; plans?: BillingOffer[]; plan?: BillingPlan | null },
  checkout = ok({ url: CHECKOUT_URL }),
) {
  const checkouts: unknown[] = [];
  const calls = stubApi({
    '/points/account': ACCOUNT,
    '/billing/offers': ok({ enabled: true, packs: PACKS, plans: PLANS, plan: null, ...offers }),
    '/billing/checkout': (body) => {
      checkouts.push(body);
      return checkout;
    },
    '/billing/portal': ok({ url: PORTAL_URL }),
  });
  const open = vi.spyOn(paymentService, 'open').mockImplementation(() => {});
  return { calls, checkouts, open };
}

const card = (name: string) => screen.findByRole('listitem', { name });
/** Intl writes a no-break space between a symbol and the amount where a language puts one. */
const plain = (text: string | null) => text?.replace(/\u00a0/g, ' ');

describe('Get credits page', () => {
  it('says only to ask the administrator when buying is off, with the way to earn credits by inviting friends', async () => {
    const { calls } = billing({ enabled: false, packs: [], plans: [] });
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByText('Ask your administrator for credits.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Get credits' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Invite friends' }).getAttribute('href')).toBe('/account/invite');
    expect(screen.queryByRole('button', { name: 'Buy' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).toBeNull();
    expect(screen.queryByText('Top-up packs')).toBeNull();
    expect(calls).not.toContain('/billing/checkout');
  });

  it('shows each pack with its credits and price, and Buy sends the browser to the checkout of that pack', async () => {
    const { checkouts, open } = billing({});
    renderApp(PAGE, userWith('ACTIVE'));
    const pack = await card('500 credits');
    expect(pack.textContent).toContain('$9.90');
    expect(pack.textContent).toContain('Never expires');
    expect((await card('2,000 credits')).textContent).toContain('$29.90');
    // A pack the operator gave a lifetime says so.
    expect((await card('2,000 credits')).textContent).toContain('Valid for 365 days');
    expect((await card('1,000 credits a month')).textContent).toContain('$19.00 / month');
    expect(screen.getByRole('heading', { name: 'Top-up packs' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Monthly plans' })).toBeTruthy();

    const buy = within(pack).getByRole('button', { name: 'Buy' });
    fireEvent.click(buy);
    await waitFor(() => expect(open).toHaveBeenCalledWith(CHECKOUT_URL));
    expect(checkouts).toEqual([{ offer: 'pack-500' }]);
    // The button spins until the browser has left, and the other offers wait.
    expect(buy.className).toContain('ant-btn-loading');
    expect(within(await card('2,000 credits')).getByRole('button', { name: 'Buy' })).toHaveProperty('disabled', true);
  });

  it('writes prices in the reader’s language and currency', async () => {
    await i18n.changeLanguage('pt');
    billing({ packs: [offer('pack-500', 'pack', 500, 4990, 'brl')], plans: [offer('plan-1000', 'plan', 1000, 9900, 'brl')] });
    renderApp(PAGE, userWith('ACTIVE'));
    expect(plain((await card('500 créditos')).textContent)).toContain('R$ 49,90');
    expect(plain((await card('1.000 créditos por mês')).textContent)).toContain('R$ 99,00 / mês');
    expect(screen.getByRole('button', { name: 'Gerenciar cobrança' })).toBeTruthy();
  });

  it('shows the current plan with its renewal date, and its Subscribe is off; another plan is changed under Manage billing', async () => {
    const { open } = billing({ plan: plan() });
    renderApp(PAGE, userWith('ACTIVE'));
    const current = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(current).getByText('1,000 credits a month')).toBeTruthy();
    expect(within(current).getByText('Active')).toBeTruthy();
    expect(within(current).getByText('Renews on December 24, 2026')).toBeTruthy();

    const mine = await card('1,000 credits a month');
    expect(within(mine).getByRole('button', { name: /Your plan/ })).toHaveProperty('disabled', true);
    expect(within(mine).queryByRole('button', { name: 'Subscribe' })).toBeNull();
    const other = await card('5,000 credits a month');
    expect(within(other).getByRole('button', { name: 'Subscribe' })).toHaveProperty('disabled', true);
    expect(within(other).getByText('To switch plans, use Manage billing.')).toBeTruthy();
    // Packs can still be bought beside a plan, and credits earned by inviting friends.
    expect(screen.getByRole('link', { name: 'Invite friends' }).getAttribute('href')).toBe('/account/invite');
    expect(within(await card('500 credits')).getByRole('button', { name: 'Buy' })).toHaveProperty('disabled', false);

    fireEvent.click(screen.getByRole('button', { name: 'Manage billing' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith(PORTAL_URL));
  });

  it('says when a cancelled plan ends instead of renewing', async () => {
    billing({ plan: plan({ endsAtPeriodEnd: true }) });
    renderApp(PAGE, userWith('ACTIVE'));
    const current = await screen.findByRole('region', { name: 'Your plan' });
    expect(within(current).getByText('Ends on December 24, 2026')).toBeTruthy();
  });

  it('shows the service’s message when it refuses a checkout, and the buttons work again', async () => {
    const message = 'You already have a plan. Change it under "Manage billing".';
    const { open } = billing({}, refused(40132, message));
    renderApp(PAGE, userWith('ACTIVE'));
    const subscribe = within(await card('1,000 credits a month')).getByRole('button', { name: 'Subscribe' });
    fireEvent.click(subscribe);
    expect(await screen.findByText(message)).toBeTruthy();
    await waitFor(() => expect(subscribe.className).not.toContain('ant-btn-loading'));
    expect(within(await card('500 credits')).getByRole('button', { name: 'Buy' })).toHaveProperty('disabled', false);
    expect(open).not.toHaveBeenCalled();
  });

  it('says a cancelled payment charged nothing', async () => {
    billing({});
    renderApp(`${PAGE}?cancelled=1`, userWith('ACTIVE'));
    expect(await screen.findByText('Payment cancelled. Nothing was charged.')).toBeTruthy();
    await card('500 credits');
  });

  it('is reached from the credit details', async () => {
    stubApi({
      '/points/account': ACCOUNT,
      '/points/list': ok([]),
      '/billing/offers': ok({ enabled: true, packs: PACKS, plans: PLANS, plan: null }),
    });
    const { router } = renderApp('/tools/link-to-video', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: '40 credits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credit details' });
    const link = within(dialog).getByRole('link', { name: /Get credits/ });
    expect(link.getAttribute('href')).toBe('/account/credits');
    fireEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/credits'));
    await card('500 credits');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Credit details' })).toBeNull());
  });

  it('sends a signed-out visitor to sign in first', async () => {
    stubApi({ '/auth/config': ok({ google: false, devLogin: true }) });
    const { router } = renderApp(PAGE, null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/login'));
  });
});
