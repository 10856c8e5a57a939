import { type BrandKitView, brandKitDefault } from '@reelsmith/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../shared/i18n/i18n';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';

vi.setConfig({ testTimeout: 30_000 });

afterEach(async () => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const DEFAULT_KIT: BrandKitView = { ...brandKitDefault('en'), logoUrl: null, logoName: null, isDefault: true };

/** The brand kit calls on a kit kept in memory, recording what each save sends. */
function brandKitApi(start: BrandKitView = DEFAULT_KIT) {
  let kit = start;
  const saved: unknown[] = [];
  const calls = stubApi({
    '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }),
    '/assert/statistics': ok({ total: 0, images: 0, videos: 0, projects: 0, bytes: 0, quotaBytes: 1 }),
    '/assert/folders/files': ok({ list: [], total: 0 }),
    '/project/getProjects': ok({ list: [], total: 0 }),
    '/brand-kit/get': () => ok(kit),
    '/brand-kit/save': (body) => {
      saved.push(body);
      kit = { ...kit, ...(body as Partial<BrandKitView>), isDefault: false };
      return ok(kit);
    },
  });
  return { saved, calls };
}

/**
 * The open drawer titled `title`. Not by its accessible name: in tests rc-util gives every generated id the same
 * value ("test-id"), so the drawer's aria-labelledby may point at another element of the page.
 */
async function drawerTitled(title: string) {
  const heading = await screen.findByText(title, { selector: '.ant-drawer-title' });
  return heading.closest('[role=dialog]') as HTMLElement;
}

async function openFromUserMenu() {
  fireEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
  fireEvent.click(await screen.findByRole('menuitem', { name: /Brand kit/ }));
  return drawerTitled('Brand kit');
}

describe('brand kit panel', () => {
  it('opens from the user menu with the default kit, and saves a changed call to action and typeface', async () => {
    const { saved, calls } = brandKitApi();
    renderApp('/dashboard/assets', userWith('ACTIVE'));
    const panel = await openFromUserMenu();
    expect(await within(panel).findByText(/You have not set up a brand kit yet/)).toBeTruthy();
    const cta = within(panel).getByRole('textbox', { name: 'Call to action' });
    expect(cta).toHaveProperty('value', 'Shop now');
    // The end card sketch shows the kit as it is edited.
    const preview = within(panel).getByRole('figure', { name: 'End card preview' });
    fireEvent.change(cta, { target: { value: '  Get yours  ' } });
    expect(within(preview).getByText('Get yours')).toBeTruthy();

    fireEvent.mouseDown(within(panel).getByRole('combobox', { name: 'Typeface' }));
    fireEvent.click(await screen.findByText(/Noto Serif SC/, { selector: '.ant-select-item-option-content span' }));

    fireEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await screen.findByText('Brand kit saved.');
    expect(saved).toEqual([
      { logoResKey: null, primaryColor: '#f7f5f0', secondaryColor: '#ff7a45', fontId: 'noto-serif', callToAction: 'Get yours' },
    ]);
    // Saving asks for the kit again, so every screen shows the saved one.
    await waitFor(() => expect(calls.filter((call) => call === '/brand-kit/get')).toHaveLength(2));
  });

  it('says when the kit could not be loaded, and loads it on Retry', async () => {
    let failing = true;
    stubApi({
      '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }),
      '/assert/statistics': ok({ total: 0, images: 0, videos: 0, projects: 0, bytes: 0, quotaBytes: 1 }),
      '/assert/folders/files': ok({ list: [], total: 0 }),
      '/project/getProjects': ok({ list: [], total: 0 }),
      '/brand-kit/get': () =>
        failing
          ? { status: 500, body: { code: 500, message: 'Something went wrong on our side, please try again later.', data: null } }
          : ok(DEFAULT_KIT),
    });
    renderApp('/dashboard/assets', userWith('ACTIVE'));
    const panel = await openFromUserMenu();
    expect(await within(panel).findByText('Your brand kit could not be loaded.', {}, { timeout: 15_000 })).toBeTruthy();
    failing = false;
    fireEvent.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await within(panel).findByRole('textbox', { name: 'Call to action' })).toBeTruthy();
  });

  it('keeps Save off while the call to action is empty, and says why', async () => {
    brandKitApi();
    renderApp('/dashboard/assets', userWith('ACTIVE'));
    const panel = await openFromUserMenu();
    fireEvent.change(await within(panel).findByRole('textbox', { name: 'Call to action' }), { target: { value: '   ' } });
    expect(within(panel).getByText('Please enter a call to action.')).toBeTruthy();
    expect(within(panel).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });

  it('shows a saved kit with its logo, in Chinese', async () => {
    await i18n.changeLanguage('zh');
    brandKitApi({
      ...DEFAULT_KIT,
      logoResKey: 'u/u1/logo.png',
      logoUrl: 'http://localhost/logo.png',
      logoName: 'logo.png',
      callToAction: '立即抢购',
      isDefault: false,
    });
    renderApp('/dashboard/assets', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: '账号菜单' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /品牌套件/ }));
    const panel = await drawerTitled('品牌套件');
    expect(await within(panel).findByRole('textbox', { name: '行动号召' })).toHaveProperty('value', '立即抢购');
    expect(within(panel).getByRole('img', { name: 'logo.png' })).toBeTruthy();
    expect(within(panel).queryByText(/您还没有设置品牌套件/)).toBeNull();
  });
});
