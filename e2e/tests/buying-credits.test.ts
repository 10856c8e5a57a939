// Buying credits in real Chromium against `npm start` (decision "Buying credits"), with Stripe played by the local
// fake that speaks its API and serves stand-ins of its Checkout and customer portal pages: a seller opens "Get
// credits" from the header, buys a pack on the Checkout page, comes back to the page that waits for the grant and sees
// the balance rise; then subscribes to a plan and switches it in the portal. In English and in Chinese.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe } from '../../test-support/fakeStripe.js';
import { type Browser, openBrowser, openOverlay, pathOf, visit } from '../support/browser.js';
import { PREFIX, type Product, startProduct } from '../support/product.js';
import { activeUser } from '../support/users.js';

/** What the pages say, in each language the test walks through (the web app's own words). */
const WORDS = {
  en: {
    getCredits: 'Get credits',
    buy: 'Buy',
    subscribe: 'Subscribe',
    manage: 'Manage billing',
    packAdded: '500 credits added.',
    planStarted: 'Your plan is active: 1,000 credits every month.',
    planName: (credits: string) => `${credits} credits a month`,
    renews: 'Renews on',
  },
  zh: {
    getCredits: '获取积分',
    buy: '购买',
    subscribe: '订阅',
    manage: '管理账单',
    packAdded: '已添加 500 积分。',
    planStarted: '套餐已生效：每月 1,000 积分。',
    planName: (credits: string) => `每月 ${credits} 积分`,
    renews: '续订',
  },
} as const;

describe('buying credits through Stripe', () => {
  let stripe: FakeStripe;
  let product: Product;

  beforeAll(async () => {
    stripe = await startFakeStripe();
    stripe.addPrice({ id: 'price_pack500', unitAmount: 990, currency: 'usd', currencyOptions: { cny: 6900 } });
    stripe.addPrice({
      id: 'price_starter',
      unitAmount: 1900,
      currency: 'usd',
      recurring: true,
      nickname: 'Starter',
      currencyOptions: { cny: 13900 },
    });
    stripe.addPrice({
      id: 'price_pro',
      unitAmount: 4900,
      currency: 'usd',
      recurring: true,
      nickname: 'Pro',
      currencyOptions: { cny: 34900 },
    });
    product = await startProduct({
      SIGNUP_CREDITS: '0',
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_URL: stripe.base,
    });
    stripe.setWebhookUrl(`${product.base}/${PREFIX}/api/billing/stripe/webhook`);
    // As an operator puts offers on sale, through the running server's admin RPC as the CLI sends it (the CLI's own
    // process would block this one, where the fake Stripe answers the price check).
    const sell = (kind: 'packs' | 'plans', code: string, credits: number, stripePrice: string) =>
      product.adminRpc({ command: `billing ${kind}`, action: 'add', code, credits, stripePrice });
    expect(await sell('packs', 'pack-500', 500, 'price_pack500')).toEqual([
      'pack-500 is on sale: 500 credits for price_pack500 (checked with Stripe)',
    ]);
    await sell('plans', 'plan-1000', 1000, 'price_starter');
    await sell('plans', 'plan-3000', 3000, 'price_pro');
  }, 120_000);
  afterAll(async () => {
    await product?.stop();
    await stripe?.close();
  });

  for (const locale of ['en', 'zh'] as const) {
    const w = WORDS[locale];
    it(`buys a pack on the Checkout page and sees the balance rise, then a plan switched in the portal (${locale})`, async () => {
      let browser: Browser | undefined;
      try {
        browser = await openBrowser();
        const { page, context } = browser;
        await activeUser(page, product, `buyer-${locale}@example.com`);
        await context.addCookies([{ name: `${PREFIX}-locale`, value: locale, url: product.base }]);
        await page.evaluate((key) => localStorage.removeItem(key), `${PREFIX}-locale`);
        await visit(page, product.base, '/tools/link-to-video');
        const header = page.locator('header').first();
        const balance = async () => Number((await header.innerText()).match(/(\d[\d,]*)\s*(credits|积分)/)?.[1]?.replace(/,/g, '') ?? NaN);
        await expect.poll(balance).toBe(0);

        // From the header's credit details to the Get credits page.
        await openOverlay(page, header.getByRole('button', { name: /credits|积分/ }));
        await page.getByRole('dialog').getByRole('link', { name: w.getCredits }).click();
        await page.waitForURL((url) => url.pathname === '/account/credits');
        const pack = page.locator('li[data-offer="pack-500"]');
        await expect.poll(() => pack.innerText()).toMatch(locale === 'zh' ? /¥\s?69\.00|CN¥\s?69\.00/ : /\$9\.90/);

        // The pack on Stripe's page, paid, and back to the page that waits for the grant.
        await pack.getByRole('button', { name: w.buy }).click();
        await page.waitForURL((url) => url.origin === stripe.base, { timeout: 15_000 });
        await page.getByRole('button', { name: 'Pay' }).click();
        await page.waitForURL((url) => url.origin === product.base && url.pathname === '/account/credits/purchase', { timeout: 15_000 });
        await expect.poll(() => page.locator('main').innerText(), { timeout: 15_000 }).toContain(w.packAdded);
        await expect.poll(balance, { timeout: 10_000 }).toBe(500);

        // A plan: subscribed on Stripe's page, its first month granted.
        await visit(page, product.base, '/account/credits');
        await page.locator('li[data-offer="plan-1000"]').getByRole('button', { name: w.subscribe }).click();
        await page.waitForURL((url) => url.origin === stripe.base, { timeout: 15_000 });
        await page.getByRole('button', { name: 'Pay' }).click();
        await page.waitForURL((url) => pathOf(page) === '/account/credits/purchase' && url.origin === product.base, { timeout: 15_000 });
        await expect.poll(() => page.locator('main').innerText(), { timeout: 15_000 }).toContain(w.planStarted);
        await expect.poll(balance, { timeout: 10_000 }).toBe(1500);
        await visit(page, product.base, '/account/credits');
        await expect.poll(() => page.locator('main').innerText()).toContain(w.planName('1,000'));
        expect(await page.locator('main').innerText()).toContain(w.renews);

        // Switched to the bigger plan in Stripe's portal: its month is granted, the page names it.
        await page.getByRole('button', { name: w.manage }).click();
        await page.waitForURL((url) => url.origin === stripe.base && url.pathname.startsWith('/portal/'), { timeout: 15_000 });
        await page.getByRole('button', { name: 'Switch to Pro' }).click();
        await page.getByRole('link', { name: 'Return' }).click();
        await page.waitForURL((url) => url.origin === product.base && url.pathname === '/account/credits', { timeout: 15_000 });
        await expect
          .poll(
            async () => {
              // Stripe's events may land after the page came back: read it again until they have.
              await page.reload();
              await page.locator('li[data-offer="plan-3000"]').waitFor();
              return page.locator('main').innerText();
            },
            { timeout: 15_000, interval: 1000 },
          )
          .toContain(w.planName('3,000'));
        await expect.poll(balance, { timeout: 10_000 }).toBe(4500);
      } finally {
        await browser?.close();
      }
    }, 120_000);
  }
});
