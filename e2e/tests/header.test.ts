// The header's project name on a tool page: shows the saved name, renames on blur when the name really
// changed, and keeps to the 100-character limit (spec "Screens and routes", "Validation rules").
import { beforeAll, describe, expect, it } from 'vitest';
import { bodyText, visit } from '../support/browser.js';
import { productInBrowser } from '../support/lifecycle.js';
import { PREFIX } from '../support/product.js';
import { activeUser } from '../support/users.js';

const running = productInBrowser();
let projectId: string;

const apiCall = async (method: 'GET' | 'POST', path: string, data?: unknown) => {
  const url = `${running.product.base}/${PREFIX}/api${path}`;
  const headers = { client: 'WEB', origin: running.product.base };
  const res =
    method === 'GET'
      ? await running.browser.page.request.get(url, { headers })
      : await running.browser.page.request.post(url, { headers, data });
  return (await res.json()) as { code: number; data: { projectName: string; projectId: string } };
};
const savedName = async () => (await apiCall('GET', `/project/getProjectById?projectId=${projectId}`)).data.projectName;

beforeAll(async () => {
  await activeUser(running.browser.page, running.product, 'header-rename@example.com');
  projectId = (await apiCall('POST', '/project/createProject', { projectName: 'Spring campaign' })).data.projectId;
});

describe('project name in the header', () => {
  it('shows the module label when no project is open, and the saved name when one is', async () => {
    const { page } = running.browser;
    await visit(page, running.product.base, '/tools/video/text-to-video');
    await expect(page.locator('header').innerText()).resolves.toContain('Video');
    await visit(page, running.product.base, `/tools/link-to-video/edit-product?projectId=${projectId}`);
    await expect.poll(() => page.locator('header').innerText()).toContain('Spring campaign');
  });

  it('renames on blur, trimmed, and says "Renamed."', async () => {
    const { page } = running.browser;
    await page.locator('header').getByRole('button', { name: 'Spring campaign' }).click();
    const input = page.getByRole('textbox', { name: 'Project name' });
    await input.fill('  Summer campaign  ');
    await input.blur();
    await expect.poll(() => bodyText(page)).toContain('Renamed.');
    await expect.poll(savedName).toBe('Summer campaign');
    await expect.poll(() => page.locator('header').innerText()).toContain('Summer campaign');
  });

  it('an empty or unchanged name sends nothing', async () => {
    const { page } = running.browser;
    let renames = 0;
    page.on('request', (r) => {
      if (r.url().includes('/project/updateProjectFileInfo')) renames++;
    });
    for (const name of ['   ', 'Summer campaign']) {
      await page.locator('header').getByRole('button', { name: 'Summer campaign' }).click();
      const input = page.getByRole('textbox', { name: 'Project name' });
      await input.fill(name);
      await input.press('Enter');
    }
    await page.waitForTimeout(500);
    expect(renames).toBe(0);
    expect(await savedName()).toBe('Summer campaign');
  });

  it('stops typing at 100 characters', async () => {
    const { page } = running.browser;
    await page.locator('header').getByRole('button', { name: 'Summer campaign' }).click();
    const input = page.getByRole('textbox', { name: 'Project name' });
    await input.fill('');
    await input.pressSequentially('y'.repeat(105), { delay: 0 });
    expect((await input.inputValue()).length).toBe(100);
    await input.blur();
    await expect.poll(savedName).toBe('y'.repeat(100));
  });
});
