// Credits in real Chromium against `npm start`: the header's balance, the credit details modal's Earned and
// Used infinite lists over 130 records seeded with the admin CLI, and the invite-friends page and link.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api.js';
import { type Browser, bodyText, openBrowser, openOverlay, pathOf, visit } from '../support/browser.js';
import { type Product, startProduct } from '../support/product.js';
import { activeUser, devSignIn } from '../support/users.js';

const EMAIL = 'credits-owner@example.com';
const SEEDED = 130;
/** The grant types the admin CLI offers, with the English source the modal names them by. */
const GRANTS = { PROMOTION: 'Promotion', ADJUSTMENT: 'Adjustment', RECHARGE: 'Top-up', SUBSCRIPTION_PLAN: 'Subscription' };
/** Sources the service adds on its own: the sign-up bonus, a referral reward. */
const SOURCES: Record<string, string> = { ...GRANTS, SIGNUP: 'Sign-up bonus', REFERRAL_REWARD: 'Referral reward' };

interface PointsRecord {
  referenceId: string;
  operationType: string;
  pointsChange: number;
  createTime: string;
}
interface Account {
  availablePoints: number;
}
interface ReferralInfo {
  inviteCode: string;
  inviteLink: string;
}

/**
 * The first grant goes through the admin CLI exactly as an operator types it; the rest through the same
 * command sent to the server's admin RPC, since 130 CLI processes would take minutes.
 */
async function seedGrants(product: Product, email: string, count: number) {
  const types = Object.keys(GRANTS);
  const typeOf = (amount: number) => types[amount % types.length] ?? 'PROMOTION';
  product.admin('credits', 'grant', '--email', email, '--amount', '1001', '--type', typeOf(1001));
  for (let amount = 1002; amount < 1001 + count; amount++) {
    await product.adminRpc({ command: 'credits grant', email, amount, type: typeOf(amount) });
  }
}

/** Every record of a tab, as the service lists it. */
async function allRecords(api: ApiClient, operationType: 'gained' | 'used'): Promise<PointsRecord[]> {
  const records: PointsRecord[] = [];
  for (let page = 1; ; page++) {
    const batch = await api.ok<PointsRecord[]>('POST', '/points/list', { body: { page, pageSize: 100, operationType } });
    records.push(...batch);
    if (batch.length < 100) return records;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD HH:mm:ss in local time: the browser runs in this process's time zone. */
function localTime(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A row as the modal should show it: source, amount (earned with a plus sign), date. */
const expectedRow = (record: PointsRecord) => [
  SOURCES[record.operationType] ?? record.operationType,
  record.pointsChange > 0 ? `+${record.pointsChange}` : String(record.pointsChange),
  localTime(record.createTime),
];

/** Scrolls a list with the mouse wheel until it says it has no more, then reads its rows. */
async function scrollToEnd(page: Page, list: Locator): Promise<string[][]> {
  const rows = list.locator('tbody tr.ant-table-row');
  for (let i = 0; i < 40 && (await list.getByText('No more records').count()) === 0; i++) {
    await list.hover();
    await page.mouse.wheel(0, 4000);
    await page.waitForTimeout(300);
  }
  return rows.evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
}

describe('credits', () => {
  let product: Product;
  let browser: Browser;
  /** The same user as the browser's, asking the service directly what the page should show. */
  let owner: ApiClient;

  beforeAll(async () => {
    product = await startProduct();
    browser = await openBrowser();
    await activeUser(browser.page, product, EMAIL);
    await seedGrants(product, EMAIL, SEEDED);
    owner = new ApiClient(product.base);
    await owner.ok('POST', '/auth/dev-login', { body: { email: EMAIL } });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('the header shows the available points as plain digits', async () => {
    const { availablePoints } = await owner.ok<Account>('GET', '/points/account');
    await visit(browser.page, product.base, '/tools/link-to-video');
    const header = browser.page.locator('header');
    await expect.poll(() => header.innerText()).toContain(String(availablePoints));
    await expect(browser.page.getByRole('button', { name: `${availablePoints} credits` }).count()).resolves.toBe(1);
  });

  it('the Earned list shows every record once, in order, after scrolling to its end', async () => {
    const { page } = browser;
    const gained = await allRecords(owner, 'gained');
    const seededAmounts = gained.map((record) => record.pointsChange).filter((amount) => amount > 1000);
    expect(seededAmounts.sort((a, b) => a - b)).toEqual(Array.from({ length: SEEDED }, (_, i) => 1001 + i));

    await visit(page, product.base, '/tools/link-to-video');
    await openOverlay(page, page.getByRole('button', { name: /credits$/ }));
    const dialog = page.getByRole('dialog', { name: 'Credit details' });
    const earned = dialog.getByRole('region', { name: 'Earned credit records' });
    await expect.poll(() => earned.locator('tbody tr.ant-table-row').count()).toBe(40);

    const rows = await scrollToEnd(page, earned);
    expect(rows).toHaveLength(gained.length);
    expect(rows).toEqual(gained.map(expectedRow));
  });

  it('the Used list shows what the service lists, or says there is nothing', async () => {
    const { page } = browser;
    const used = await allRecords(owner, 'used');
    const dialog = page.getByRole('dialog', { name: 'Credit details' });
    await dialog.getByRole('tab', { name: 'Used' }).click();
    const list = dialog.getByRole('region', { name: 'Used credit records' });
    if (used.length === 0) {
      await expect.poll(() => list.innerText()).toContain('No records yet');
    } else {
      expect(await scrollToEnd(page, list)).toEqual(used.map(expectedRow));
    }
  });

  it('closing the modal resets the lists: reopened, it starts again from the first page', async () => {
    const { page } = browser;
    const dialog = page.getByRole('dialog', { name: 'Credit details' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await openOverlay(page, page.getByRole('button', { name: /credits$/ }));
    const earned = page.getByRole('dialog', { name: 'Credit details' }).getByRole('region', { name: 'Earned credit records' });
    await expect.poll(() => earned.locator('tbody tr.ant-table-row').count()).toBe(40);
    await page.keyboard.press('Escape');
  });

  it('the invite page shows the personal link, and the modal leads there', async () => {
    const { page } = browser;
    const info = await owner.ok<ReferralInfo>('GET', '/referral/info');
    await visit(page, product.base, '/tools/link-to-video');
    await openOverlay(page, page.getByRole('button', { name: /credits$/ }));
    await page.getByRole('dialog', { name: 'Credit details' }).getByRole('link', { name: 'Invite friends' }).click();
    await page.waitForURL('**/account/invite');
    const link = page.getByRole('textbox', { name: 'Invite link' });
    await expect.poll(() => link.inputValue()).toBe(info.inviteLink);
    expect(info.inviteLink).toContain(info.inviteCode);
    await expect.poll(() => bodyText(page)).toContain('Your friend gets a free trial and 100 credits on sign-up.');
  });

  it('a friend who opens the link finds the code filled in on activation, and joins with it', async () => {
    const info = await owner.ok<ReferralInfo>('GET', '/referral/info');
    const friend = await openBrowser();
    try {
      const { page } = friend;
      await page.goto(info.inviteLink);
      await expect.poll(() => page.evaluate(() => localStorage.getItem('referralCode'))).toBe(info.inviteCode);
      await devSignIn(page, product, 'invited-friend@example.com');
      expect(pathOf(page)).toBe('/account/activate');
      await expect.poll(() => page.locator('#invite-code').inputValue()).toBe(info.inviteCode);
      await page.getByRole('button', { name: /get start/i }).click();
      await page.waitForURL((url) => url.pathname !== '/account/activate', { timeout: 15_000 });
      expect(await page.evaluate(() => localStorage.getItem('referralCode'))).toBeNull();
    } finally {
      await friend.close();
    }
    await visit(browser.page, product.base, '/account/invite');
    const friends = browser.page.getByRole('region', { name: 'Friends who joined' });
    await expect.poll(() => friends.locator('tbody tr.ant-table-row').count()).toBe(1);
  });
});
