// The brand kit in a real browser: opened from the account menu, a logo uploaded, colours and call to action set,
// saved, and still there after a reload; the link-to-video editor opens the same panel.
import { describe, expect, it } from 'vitest';
import { openOverlay, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { solidPng } from '../support/png.js';
import { activeUser } from '../support/users.js';

const running = productInBrowser();

async function openPanel() {
  const { page } = running.browser;
  await openOverlay(page, page.getByRole('button', { name: 'Account menu' }));
  await openOverlay(page, page.getByRole('menuitem', { name: 'Brand kit' }));
  const panel = page.getByRole('dialog', { name: 'Brand kit' });
  await panel.getByRole('textbox', { name: 'Call to action' }).waitFor();
  return panel;
}

describe('brand kit', () => {
  it('saves a kit from the account menu and shows it again after a reload', async () => {
    const { page } = running.browser;
    await activeUser(page, running.product, 'brand-kit@example.com');
    await visit(page, running.product.base, '/dashboard/assets');
    let panel = await openPanel();
    await expect(panel.innerText()).resolves.toContain('You have not set up a brand kit yet');
    await expect(panel.getByRole('textbox', { name: 'Call to action' }).inputValue()).resolves.toBe('Shop now');

    await panel
      .locator('input[type=file]')
      .setInputFiles({ name: 'acme-logo.png', mimeType: 'image/png', buffer: solidPng(200, 80, [20, 40, 200]) });
    await panel.getByRole('img', { name: 'acme-logo.png' }).first().waitFor();
    await panel.getByRole('textbox', { name: 'Call to action' }).fill('Get yours today');
    // The list slides open: an option clicked while it moves is missed (seen under load: the kit saved Noto Sans SC).
    await openOverlay(page, panel.getByRole('combobox', { name: 'Typeface' }));
    await page.locator('.ant-select-item-option', { hasText: 'Noto Serif SC' }).click();
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('body').innerText()).toContain('Brand kit saved.');

    await page.reload();
    panel = await openPanel();
    await expect(panel.getByRole('textbox', { name: 'Call to action' }).inputValue()).resolves.toBe('Get yours today');
    await expect(panel.innerText()).resolves.toContain('Noto Serif SC');
    await expect(panel.innerText()).resolves.not.toContain('You have not set up a brand kit yet');
    await panel.getByRole('img', { name: 'acme-logo.png' }).first().waitFor();
  });
});
