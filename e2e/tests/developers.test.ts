// The Developers page in a real browser against `npm start` (decisions "API keys" and "Webhooks"): a key
// made in the page works for a script's call to the public API until it is revoked in the page, and a webhook
// endpoint added there is turned off and on again.
import { describe, expect, it } from 'vitest';
import { openOverlay, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { PREFIX } from '../support/product.js';
import { activeUser } from '../support/users.js';

const running = productInBrowser();

/** The balance as a script asks for it: the key alone, no cookie, no `client` header, no Origin. */
async function balanceWith(key: string) {
  const res = await fetch(`${running.product.base}/${PREFIX}/api/v1/public/points/account`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return { status: res.status, body: (await res.json()) as { code: number; data: { availablePoints?: number } } };
}

describe('developers page', () => {
  it('makes a key shown once that a script can use, and revokes it once confirmed', async () => {
    const { page } = running.browser;
    await activeUser(page, running.product, 'developers@example.com');
    await visit(page, running.product.base, '/account/developers');

    await openOverlay(page, page.getByRole('button', { name: 'New key' }));
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Catalogue sync');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Your new API key' });
    const key = await shown.getByRole('textbox', { name: 'New API key' }).inputValue();
    expect(key).toMatch(/^rsk_/);
    await expect(shown.innerText()).resolves.toContain('It will not be shown again.');
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'hidden' });

    // The list names the key by its prefix only: the key itself is nowhere on the page any more.
    await page.getByText('Catalogue sync').waitFor();
    await expect(page.locator('body').innerText()).resolves.toContain(`${key.slice(0, 12)}…`);
    await expect(page.content()).resolves.not.toContain(key);

    const before = await balanceWith(key);
    expect(before.status).toBe(200);
    expect(before.body.code).toBe(0);
    expect(before.body.data.availablePoints).toEqual(expect.any(Number));

    await openOverlay(page, page.getByRole('button', { name: 'Revoke' }));
    await page.getByText('Revoke “Catalogue sync”? Calls made with it will stop working at once.').waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Key revoked').waitFor();
    await page.locator('.ant-tag', { hasText: 'Revoked' }).waitFor();

    const after = await balanceWith(key);
    expect(after.status).toBe(401);
    expect(after.body.code).not.toBe(0);
  });

  it('adds a webhook endpoint, turns it off and on again, and the list says which it is', async () => {
    const { page } = running.browser;
    await visit(page, running.product.base, '/account/developers');
    const url = 'https://hooks.example.com/reelsmith/events';
    await page.getByRole('textbox', { name: 'Endpoint URL' }).fill(url);
    await page.getByRole('checkbox', { name: /A batch finished/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Endpoint added').waitFor();

    const card = page.getByRole('listitem').filter({ hasText: url });
    const toggle = card.getByRole('switch', { name: 'Send events to this endpoint' });
    await expect(toggle.getAttribute('aria-checked')).resolves.toBe('true');

    await toggle.click();
    await page.getByText('Endpoint turned off: no events are sent to it').waitFor();
    await card.getByText(/^Off since .*: events that happen meanwhile are not sent to it/).waitFor();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    await expect(card.locator('.ant-tag', { hasText: /^Off$/ }).count()).resolves.toBe(1);

    // The state is the server's: a reload shows the endpoint still off.
    await page.reload();
    await expect(card.getByRole('switch').getAttribute('aria-checked')).resolves.toBe('false');

    await card.getByRole('switch').click();
    await page.getByText('Endpoint turned on: events are sent to it again').waitFor();
    await card.getByText(/^Off since/).waitFor({ state: 'detached' });
    await expect.poll(() => card.getByRole('switch').getAttribute('aria-checked')).toBe('true');
    await expect(card.locator('.ant-tag', { hasText: /^Off$/ }).count()).resolves.toBe(0);
  });
});
