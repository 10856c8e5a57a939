// Getting a browser into a signed-in state the way a person does: the dev e-mail form, then an invitation code.
import type { Page } from 'playwright-core';
import { pathOf, visit } from './browser.js';
import { newInviteCode, type Product } from './product.js';

export async function devSignIn(page: Page, product: Product, email: string) {
  await visit(page, product.base, '/account/login');
  const input = page.locator('input[type=email][name=email]');
  await input.fill(email);
  await input.press('Enter');
  await page.waitForURL((url) => url.pathname !== '/account/login', { timeout: 15_000 });
}

export async function activate(page: Page, product: Product) {
  if (pathOf(page) !== '/account/activate') await visit(page, product.base, '/account/activate');
  await page.locator('#invite-code').fill(newInviteCode(product));
  await page.getByRole('button', { name: /get start/i }).click();
  await page.waitForURL((url) => url.pathname !== '/account/activate', { timeout: 15_000 });
}

export async function activeUser(page: Page, product: Product, email: string) {
  await devSignIn(page, product, email);
  await activate(page, product);
}
