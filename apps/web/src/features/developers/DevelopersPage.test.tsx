// The Developers page is reached from the account menu and holds the keys, a first call and the webhooks
// (decisions "API keys", "Public API" and "Webhooks").
import { cleanup, fireEvent, screen } from '@testing-library/react';
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

describe('Developers page', () => {
  it('opens from the account menu with the keys, a first call to copy and the webhooks', async () => {
    stubApi({
      '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }),
      '/assert/statistics': ok({ total: 0, images: 0, videos: 0, projects: 0, bytes: 0, quotaBytes: 1 }),
      '/project/getProjects': ok({ list: [], total: 0 }),
      '/apiKey/list': ok({ list: [] }),
      '/webhooks/endpoints/list': ok([]),
    });
    renderApp('/dashboard/assets', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Developers/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Developers' })).toBeTruthy();
    expect(await screen.findByText('No API keys yet.')).toBeTruthy();
    expect(screen.getByText(/Authorization: Bearer \$REELSMITH_KEY/).textContent).toContain('/reelsmith/api/v1/public/points/account');
    // The readable reference, and the JSON beside it for tools.
    expect(screen.getByRole('link', { name: 'API reference' }).getAttribute('href')).toBe('/account/developers/api');
    expect(screen.getByRole('link', { name: 'OpenAPI document' }).getAttribute('href')).toMatch(
      /\/reelsmith\/api\/v1\/public\/openapi\.json$/,
    );
    expect(await screen.findByText('No endpoints yet. Add one above to start receiving events.')).toBeTruthy();
  });
});
