// The API keys panel with the app's providers and the API stubbed by path: a key made is shown once, the list shows
// names and prefixes only, and a key is revoked once confirmed (decision "API keys").
import type { ApiKey } from '@reelsmith/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../app/providers/AppProviders';
import { newQueryClient } from '../../shared/api/queryClient';
import { i18n } from '../../shared/i18n/i18n';
import { ok, stubApi } from '../../test/renderApp';
import { ApiKeysPanel } from './ApiKeysPanel';

vi.setConfig({ testTimeout: 30_000 });

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const SECRET = `rsk_${'a'.repeat(43)}`;
const KEY: ApiKey = {
  id: 'k1',
  name: 'Catalogue sync',
  prefix: 'rsk_Q2a9xK1p',
  createTime: '2026-11-20T10:00:00Z',
  expireTime: null,
  lastUsedTime: null,
  revokeTime: null,
};

function keysApi(start: ApiKey[]) {
  let keys = start;
  const sent: Record<string, unknown[]> = { create: [], revoke: [] };
  stubApi({
    '/apiKey/list': () => ok({ list: keys }),
    '/apiKey/create': (body) => {
      sent.create?.push(body);
      const apiKey = { ...KEY, id: 'k2', name: (body as { name: string }).name, prefix: SECRET.slice(0, 12) };
      keys = [apiKey, ...keys];
      return ok({ key: SECRET, apiKey });
    },
    '/apiKey/revoke': (body) => {
      sent.revoke?.push(body);
      keys = keys.map((key) => (key.id === (body as { id: string }).id ? { ...key, revokeTime: '2026-11-25T09:00:00Z' } : key));
      return ok(keys.find((key) => key.id === (body as { id: string }).id));
    },
  });
  return sent;
}

const renderPanel = () =>
  render(
    <AppProviders queryClient={newQueryClient()}>
      <ApiKeysPanel />
    </AppProviders>,
  );

describe('API keys panel', () => {
  it('makes a key with a name and a lifetime, shows it once, then lists it by its prefix only', async () => {
    const sent = keysApi([]);
    renderPanel();
    expect(await screen.findByText('No API keys yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /New key/ }));
    const create = await screen.findByRole('button', { name: 'Create key' });
    expect((create as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByPlaceholderText('e.g. Catalogue sync'), { target: { value: '  Nightly feed ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByDisplayValue(SECRET)).toBeTruthy();
    expect(screen.getByText('Copy this key now. It will not be shown again.')).toBeTruthy();
    expect(sent.create).toEqual([{ name: 'Nightly feed', expiresInDays: 90 }]);
    fireEvent.click(screen.getByRole('button', { name: 'I have copied it' }));
    await waitFor(() => expect(screen.queryByDisplayValue(SECRET)).toBeNull());
    const row = (await screen.findByText('Nightly feed')).closest('li') as HTMLElement;
    expect(within(row).getByText(`${SECRET.slice(0, 12)}…`)).toBeTruthy();
    expect(within(row).getByText('Never used')).toBeTruthy();
    expect(document.body.textContent).not.toContain(SECRET.slice(12));
  });

  it('revokes a key once confirmed, and shows it revoked', async () => {
    const sent = keysApi([KEY]);
    renderPanel();
    const row = (await screen.findByText('Catalogue sync')).closest('li') as HTMLElement;
    expect(within(row).getByText('Active')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Revoke' }));
    const confirm = await screen.findByText('Revoke “Catalogue sync”? Calls made with it will stop working at once.');
    const popup = confirm.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popup).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(sent.revoke).toEqual([{ id: 'k1' }]));
    const after = (await screen.findByText('Revoked', { selector: '.ant-tag' })).closest('li') as HTMLElement;
    expect(within(after).queryByRole('button', { name: 'Revoke' })).toBeNull();
  });

  it('speaks Chinese and Portuguese', async () => {
    keysApi([KEY]);
    await i18n.changeLanguage('zh');
    const { unmount } = renderPanel();
    expect(await screen.findByText('API 密钥')).toBeTruthy();
    expect(await screen.findByText('从未使用')).toBeTruthy();
    unmount();
    await i18n.changeLanguage('pt');
    renderPanel();
    expect(await screen.findByText('Chaves de API')).toBeTruthy();
    expect(await screen.findByText('Nunca usada')).toBeTruthy();
  });
});
