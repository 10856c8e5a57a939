import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';
import { EXAMPLE_LINKS } from './exampleLinks';
import { withProject } from './LinkToVideoLanding';
import { resetProjectPages } from './project/pageTesting';
import { currentProject } from './project/store';

// Mounting the whole app with antd's styles is slow on a shared 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

afterEach(resetProjectPages);

function stubCreation(bodies: Record<string, unknown>) {
  return stubApi({
    '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }),
    '/project/createProject': (body) => {
      bodies.create = body;
      return ok({ projectId: 'p7', draftUrl: null });
    },
    '/project/getProjectById': ok({
      projectId: 'p7',
      projectName: 'Untitled project',
      productLink: null,
      coverUrl: null,
      taskStatus: null,
      createTime: '',
      updateTime: '',
    }),
    '/project/saveDraftFile': ok(true),
    '/task/v1/link-analysis/submit': (body) => {
      bodies.analysis = body;
      return ok({ taskId: 't1' });
    },
    '/task/v1/link-analysis/query': ok({ taskId: 't1', status: 'SUBMITTED' }),
  });
}

describe('link-to-video landing', () => {
  it('puts the projectId in the address bar and drops the parameters the link arrived with', () => {
    const search = new URLSearchParams({ inputLink: 'https://a', resKey: 'r', resUrl: 'u', deviceFingerprint: 'd', ref: 'x' });
    expect(withProject(search, 'p7').toString()).toBe('ref=x&projectId=p7');
  });

  it('starts a link arriving from the extension by itself: project, analysis, then the product editor', async () => {
    const bodies: Record<string, unknown> = {};
    stubCreation(bodies);
    const { router } = renderApp(
      '/tools/link-to-video?inputLink=https%3A%2F%2Fshop.example%2Fp%2F1&resKey=html%2Fpage.html&resUrl=x&deviceFingerprint=dev1',
      userWith('ACTIVE'),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video/edit-product'));
    expect(router.state.location.search).toBe('?projectId=p7');
    // Untitled until its product is known, never named after the shop's host.
    expect(bodies.create).toEqual({ deviceFingerprint: 'dev1' });
    expect(bodies.analysis).toEqual({ projectId: 'p7', productLink: 'https://shop.example/p/1', resKey: 'html/page.html' });
    expect(currentProject()).toMatchObject({ projectId: 'p7', taskPath: 'link-analysis', taskId: 't1', taskStatus: 'SUBMITTED' });
    expect(await screen.findByText('Analysing your product…')).toBeTruthy();

    await router.navigate(-1);
    expect(router.state.location.search).toBe('?projectId=p7');
  });

  it('creates the project from a typed link', async () => {
    const bodies: Record<string, unknown> = {};
    stubCreation(bodies);
    const { router } = renderApp('/tools/link-to-video', userWith('ACTIVE'));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Product link' }), { target: { value: ' https://shop.example/p/2 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate video' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tools/link-to-video/edit-product'));
    expect(bodies.analysis).toEqual({ projectId: 'p7', productLink: 'https://shop.example/p/2' });
    expect(bodies.create).toEqual({});
  });

  it('offers examples a server can read, named by their product, and says what to do for shops that turn servers away', async () => {
    stubCreation({});
    renderApp('/tools/link-to-video', userWith('ACTIVE'));
    const handbag = await screen.findByRole('button', { name: 'Handbag' });
    expect(screen.getByRole('button', { name: 'Lip balm' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Carafe set' })).toBeTruthy();
    // Product pages of Shopify's own theme demo stores: public, and serving their JSON-LD to a server.
    for (const { url } of EXAMPLE_LINKS) expect(url).toMatch(/^https:\/\/theme-[a-z]+-demo\.myshopify\.com\/products\/[a-z0-9-]+$/);
    fireEvent.click(handbag);
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Product link' }).value).toBe(EXAMPLE_LINKS[0].url);
    expect(screen.getByText(/Amazon, AliExpress and other marketplaces often turn servers away/).textContent).toContain(
      'Reelsmith browser extension',
    );
  });

  it('links the extension hint to the extension this server serves, with the steps to install it', async () => {
    stubCreation({});
    renderApp('/tools/link-to-video', userWith('ACTIVE'));
    const hint = (await screen.findByText(/Amazon, AliExpress and other marketplaces/)) as HTMLElement;
    fireEvent.click(within(hint).getByRole('button', { name: 'Get the browser extension' }));
    const dialog = screen.getByRole('dialog', { name: 'Install the Reelsmith extension for Chrome' });
    const download = within(dialog).getByRole<HTMLAnchorElement>('link', { name: 'Download the extension (.zip)' });
    expect(download.getAttribute('href')).toBe('/reelsmith/api/extension/download');
    expect(download.hasAttribute('download')).toBe(true);
    const steps = within(dialog)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(steps).toEqual([
      expect.stringContaining('Download'),
      expect.stringContaining('Unzip'),
      expect.stringContaining('chrome://extensions'),
      expect.stringContaining('Developer mode'),
      expect.stringContaining('Load unpacked'),
      expect.stringContaining('Reelsmith button'),
    ]);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('refuses a link that is not a URL', async () => {
    // The balance is answered, so the only alert is the form's (an unanswered call would toast "Not found.").
    const calls = stubApi({ '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }) });
    renderApp('/tools/link-to-video', userWith('ACTIVE'));
    fireEvent.change(await screen.findByRole('textbox', { name: 'Product link' }), { target: { value: 'shop.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Generate video' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please provide a valid product url');
    expect(calls).not.toContain('/project/createProject');
  });
});
