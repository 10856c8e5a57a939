// Sign-in (dev e-mail and the real OpenID Connect flow against oauth2-mock-server), activation messages,
// sign out and the language switch, in real Chromium against `npm start`.
import { OAuth2Server } from 'oauth2-mock-server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, bodyText, openBrowser, openOverlay, pathOf, visit } from '../support/browser.js';
import { newInviteCode, PREFIX, type Product, startProduct } from '../support/product.js';
import { devSignIn } from '../support/users.js';

/** Chooses a language in the header's switch (once the menu stands still: `openOverlay`) and waits for the reload it makes. */
async function chooseLanguage(page: Page, current: RegExp, language: string) {
  await openOverlay(page, page.getByRole('button', { name: current }));
  const reloaded = page.waitForEvent('load', { timeout: 20_000 });
  await page.getByRole('menuitem', { name: language }).click();
  await reloaded;
}

describe('dev sign-in and activation', () => {
  let product: Product;
  let browser: Browser;

  beforeAll(async () => {
    product = await startProduct();
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('the login page offers the e-mail form and links the terms and privacy policy', async () => {
    await visit(browser.page, product.base, '/account/login');
    await expect(browser.page.locator('input[type=email][name=email]').count()).resolves.toBe(1);
    await expect(browser.page.locator('a[href="/public/terms-of-use"]').count()).resolves.toBeGreaterThan(0);
    await expect(browser.page.locator('a[href="/public/privacy-policy"]').count()).resolves.toBeGreaterThan(0);
  });

  it('a new user lands on activation, sees each message, and ends on the page they first asked for', async () => {
    const { page } = browser;
    await visit(page, product.base, '/tools/image/ai-model?tab=top');
    await devSignIn(page, product, 'first-timer@example.com');
    expect(pathOf(page)).toBe('/account/activate');

    const getStart = page.getByRole('button', { name: /get start/i });
    await getStart.click();
    await expect.poll(() => bodyText(page)).toContain('Please enter invitation code');

    await page.locator('#invite-code').fill('NOT-A-CODE-42');
    await getStart.click();
    await expect.poll(() => bodyText(page)).toContain('Invalid invitation code');

    await page.locator('#invite-code').fill(newInviteCode(product));
    await getStart.click();
    await expect.poll(() => bodyText(page)).toContain('Account activated successfully!');
    await page.waitForURL('**/tools/image/ai-model?tab=top');
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain('/tools/image/ai-model');
  });

  it('the user menu shows the first letter of the name and signs out', async () => {
    const { page } = browser;
    await visit(page, product.base, '/tools/link-to-video');
    // The header settles once the credits have loaded; a menu opened before that closes as it re-renders.
    await page.getByRole('button', { name: /credits$/ }).waitFor();
    const menu = page.getByRole('button', { name: 'Account menu' });
    await expect(menu.innerText()).resolves.toBe('F');
    await openOverlay(page, menu);
    const signOut = page.getByRole('menuitem', { name: 'Sign out' });
    // The message shows for a second before the page reloads: watch for it from before the click.
    const said = page.getByText('Sign out successfully').waitFor({ timeout: 15_000 });
    await signOut.click();
    await said;
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).count(), { timeout: 10_000 }).toBe(1);
    const me = await page.request.get(`${product.base}/${PREFIX}/api/users/me`, { headers: { client: 'WEB' } });
    expect(((await me.json()) as { code: number }).code).not.toBe(0);
  });

  it('the language switch stores the choice for a year and reloads in that language', async () => {
    const { page, context } = browser;
    // English to start with, also when this test runs again after a try that changed the language.
    await context.addCookies([{ name: `${PREFIX}-locale`, value: 'en', url: product.base }]);
    await visit(page, product.base, '/tools/link-to-video');
    await page.evaluate((k) => localStorage.removeItem(k), `${PREFIX}-locale`);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await chooseLanguage(page, /^Language: English$/, '简体中文');
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toMatch(/[\u4e00-\u9fff]/);
    const cookie = (await context.cookies()).find((c) => c.name === `${PREFIX}-locale`);
    expect(cookie?.value).toBe('zh');
    const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(360);
    expect(days).toBeLessThan(367);
    expect(await page.evaluate((k) => localStorage.getItem(k), `${PREFIX}-locale`)).toBe('zh');

    await chooseLanguage(page, /简体中文/, 'Português');
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toMatch(/Início|Vídeo|Imagem/);
    // Server messages follow the chosen language too.
    const res = await page.request.get(`${product.base}/${PREFIX}/api/users/me`, {
      headers: { client: 'WEB', 'accept-language': 'pt' },
    });
    const pt = ((await res.json()) as { message: string }).message;
    expect(pt).not.toBe('Please sign in first.');
    await context.addCookies([{ name: `${PREFIX}-locale`, value: 'en', url: product.base }]);
  });
});

describe('Google sign-in through a real OpenID Connect server', () => {
  let oidc: OAuth2Server;
  let product: Product;
  let browser: Browser;

  beforeAll(async () => {
    oidc = new OAuth2Server();
    await oidc.issuer.keys.generate('RS256');
    await oidc.start(0, '127.0.0.1');
    const issuer = `http://127.0.0.1:${oidc.address().port}`;
    oidc.issuer.url = issuer;
    oidc.service.on('beforeTokenSigning', (token) => {
      token.payload.sub = 'google-sub-1234';
      token.payload.email = 'ana.google@example.com';
      // As Google says it; an unverified address signs no one in (docs/decisions, "Identity: issuer and subject").
      token.payload.email_verified = true;
      token.payload.name = 'Ana Google';
      token.payload.picture = 'https://example.com/ana.png';
    });
    product = await startProduct({ GOOGLE_CLIENT_ID: 'reelsmith-test', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_ISSUER: issuer });
    browser = await openBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    await oidc?.stop();
  });

  it('offers Google and not the dev form when Google is configured', async () => {
    await visit(browser.page, product.base, '/account/login');
    await expect(browser.page.getByRole('button', { name: 'Sign in with Google' }).count()).resolves.toBe(1);
    await expect(browser.page.locator('input[type=email]').count()).resolves.toBe(0);
    const dev = await fetch(`${product.base}/${PREFIX}/api/auth/dev-login`, {
      method: 'POST',
      headers: { client: 'WEB', origin: product.base, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'intruder@example.com' }),
    });
    expect(((await dev.json()) as { code: number }).code).not.toBe(0);
  });

  it('signs in through the provider, then asks for an invitation code', async () => {
    const { page } = browser;
    await visit(page, product.base, '/dashboard/assets');
    expect(pathOf(page)).toBe('/account/login');
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL('**/account/activate', { timeout: 20_000 });
    const me = await page.request.get(`${product.base}/${PREFIX}/api/users/me`, { headers: { client: 'WEB' } });
    const user = ((await me.json()) as { data: { email: string; username: string; status: string } }).data;
    expect(user).toMatchObject({ email: 'ana.google@example.com', username: 'Ana Google', status: 'INACTIVE' });
    const session = (await browser.context.cookies()).find((c) => c.httpOnly && c.name.includes('session'));
    expect(session?.sameSite).toBe('Lax');
  });

  it('a failed sign-in says so and returns to the login page', async () => {
    const { page } = browser;
    await browser.context.clearCookies();
    await page.goto(`${product.base}/${PREFIX}/api/auth/google/callback?code=forged&state=forged`);
    await page.waitForURL('**/account/login-callback**');
    await expect.poll(() => bodyText(page)).toContain('Login failed, returning to login page...');
    await page.waitForURL('**/account/login', { timeout: 10_000 });
  });
});
