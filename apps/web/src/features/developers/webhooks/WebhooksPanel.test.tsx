// The webhooks panel alone, with the app's providers (the Developers page that holds it has its own test):
// the API is stubbed by path, as in the other features' tests.
import type { WebhookDelivery, WebhookEndpoint } from '@reelsmith/contract';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers/AppProviders';
import { newQueryClient } from '../../../shared/api/queryClient';
import { i18n } from '../../../shared/i18n/i18n';
import { ok, stubApi } from '../../../test/renderApp';
import { WebhooksPanel } from './WebhooksPanel';

vi.setConfig({ testTimeout: 30_000 });

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const ENDPOINT: WebhookEndpoint = {
  endpointId: 'e1',
  url: 'https://shop.example/hooks/reelsmith',
  events: ['task.succeeded', 'credits.low'],
  secret: 'whsec_existing',
  createdAt: '2026-11-20T10:00:00Z',
  disabledAt: null,
  disabledReason: null,
  failingSince: null,
};
const DELIVERY: WebhookDelivery = {
  deliveryId: 'd1',
  eventId: 'evt_1',
  event: 'task.succeeded',
  status: 'FAILED',
  attempts: 9,
  statusCode: 500,
  latencyMs: 120,
  error: 'HTTP 500: receiver says no',
  createdAt: '2026-11-20T11:00:00Z',
  nextAttemptAt: null,
};

/** The webhook calls on endpoints kept in memory, recording what each change sends. */
function webhooksApi(start: WebhookEndpoint[] = [ENDPOINT]) {
  let endpoints = start;
  const sent: Record<string, unknown[]> = { create: [], update: [], delete: [], resend: [], deliveries: [] };
  stubApi({
    '/webhooks/endpoints/list': () => ok(endpoints),
    '/webhooks/endpoints/create': (body) => {
      sent.create?.push(body);
      const created = { ...ENDPOINT, ...(body as object), endpointId: 'e2', secret: 'whsec_new' };
      endpoints = [...endpoints, created];
      return ok(created);
    },
    '/webhooks/endpoints/update': (body) => {
      sent.update?.push(body);
      const { endpointId, enabled } = body as { endpointId: string; enabled: boolean };
      const turned: Partial<WebhookEndpoint> = enabled
        ? { disabledAt: null, disabledReason: null, failingSince: null }
        : { disabledAt: '2026-11-21T09:30:00Z', disabledReason: 'owner' };
      endpoints = endpoints.map((e) => (e.endpointId === endpointId ? { ...e, ...turned } : e));
      return ok(endpoints.find((e) => e.endpointId === endpointId));
    },
    '/webhooks/endpoints/delete': (body) => {
      sent.delete?.push(body);
      endpoints = endpoints.filter((e) => e.endpointId !== (body as { endpointId: string }).endpointId);
      return ok({});
    },
    '/webhooks/deliveries/list': (body) => {
      sent.deliveries?.push(body);
      return ok({ list: [DELIVERY], total: 1 });
    },
    '/webhooks/deliveries/resend': (body) => {
      sent.resend?.push(body);
      return ok({ ...DELIVERY, deliveryId: 'd2', status: 'PENDING', attempts: 0 });
    },
  });
  return sent;
}

const renderPanel = () =>
  render(
    <AppProviders queryClient={newQueryClient()}>
      <WebhooksPanel />
    </AppProviders>,
  );

describe('webhooks panel', () => {
  it('adds an endpoint with the chosen events and shows its signing secret', async () => {
    const sent = webhooksApi([]);
    renderPanel();
    expect(await screen.findByText('No endpoints yet. Add one above to start receiving events.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: ' https://hooks.example/in ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Credits are running low/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /A task failed/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(await screen.findByText('Endpoint added')).toBeTruthy();
    expect(sent.create).toEqual([{ url: 'https://hooks.example/in', events: ['task.succeeded', 'credits.low'] }]);
    const secrets = await screen.findAllByLabelText('Signing secret');
    expect(secrets.map((input) => (input as HTMLInputElement).value)).toContain('whsec_new');
  });

  it('lists an endpoint with its events, and deletes it once confirmed', async () => {
    const sent = webhooksApi();
    renderPanel();
    expect(await screen.findByText(ENDPOINT.url)).toBeTruthy();
    expect(screen.getByText('A task succeeded', { selector: '.ant-tag' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Delete/ }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete endpoint' }));
    await waitFor(() => expect(sent.delete).toEqual([{ endpointId: 'e1' }]));
    expect(await screen.findByText('No endpoints yet. Add one above to start receiving events.')).toBeTruthy();
  });

  it('shows the delivery log and resends a delivery', async () => {
    const sent = webhooksApi();
    renderPanel();
    fireEvent.click(await screen.findByRole('button', { name: 'Show deliveries' }));
    const row = (await screen.findByText('evt_1')).closest('tr') as HTMLElement;
    expect(within(row).getByText('Failed')).toBeTruthy();
    expect(within(row).getByText('500')).toBeTruthy();
    expect(within(row).getByText('HTTP 500: receiver says no')).toBeTruthy();
    expect(sent.deliveries).toEqual([{ endpointId: 'e1', page: 1, pageSize: 10 }]);
    fireEvent.click(within(row).getByRole('button', { name: /Resend/ }));
    await waitFor(() => expect(sent.resend).toEqual([{ deliveryId: 'd1' }]));
    expect(await screen.findByText('Sent again with the same event ID')).toBeTruthy();
  });

  it('turns an endpoint off, says so in the list, and turns it on again', async () => {
    const sent = webhooksApi();
    renderPanel();
    const toggle = await screen.findByRole('switch', { name: 'Send events to this endpoint' });
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('On')).toBeTruthy();
    fireEvent.click(toggle);
    await waitFor(() => expect(sent.update).toEqual([{ endpointId: 'e1', enabled: false }]));
    expect(await screen.findByText('Endpoint turned off: no events are sent to it')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('switch').getAttribute('aria-checked')).toBe('false'));
    expect(screen.getByText('Off', { selector: '.ant-tag' })).toBeTruthy();
    expect(screen.getByText(/^Off since 2026-11-21 .*: events that happen meanwhile are not sent to it/)).toBeTruthy();
    // Its log can still be read, but nothing in it can be resent until it is on.
    fireEvent.click(screen.getByRole('button', { name: 'Show deliveries' }));
    const row = (await screen.findByText('evt_1')).closest('tr') as HTMLElement;
    expect((within(row).getByRole('button', { name: /Resend/ }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('switch'));
    await waitFor(() =>
      expect(sent.update).toEqual([
        { endpointId: 'e1', enabled: false },
        { endpointId: 'e1', enabled: true },
      ]),
    );
    await waitFor(() => expect(screen.getByRole('switch').getAttribute('aria-checked')).toBe('true'));
    expect(screen.queryByText('Off', { selector: '.ant-tag' })).toBeNull();
    expect((within(row).getByRole('button', { name: /Resend/ }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says when an endpoint keeps failing, and why the server turned it off, in each language', async () => {
    const failing = { ...ENDPOINT, failingSince: '2026-11-21T08:00:00Z' };
    webhooksApi([
      failing,
      {
        ...ENDPOINT,
        endpointId: 'e3',
        url: 'https://gone.example/in',
        disabledAt: '2026-11-22T08:05:00Z',
        disabledReason: 'failing',
        failingSince: '2026-11-21T08:00:00Z',
      },
    ]);
    const { unmount } = renderPanel();
    expect(
      await screen.findByText(
        /^Every attempt to reach it has failed since 2026-11-21 .*If it keeps failing for a day, it is turned off\.$/,
      ),
    ).toBeTruthy();
    expect(
      screen.getByText(
        /^Turned off on 2026-11-22 .*: every attempt to reach it had failed since 2026-11-21 .*Fix the endpoint, then turn it back on/,
      ),
    ).toBeTruthy();
    unmount();
    for (const [language, words] of [
      ['zh', /^已于 2026-11-22 .*关闭：自 2026-11-21 .*起每次发送都失败了/],
      ['pt', /^Desativado em 2026-11-22 .*: todas as tentativas de entrega falhavam desde 2026-11-21/],
    ] as const) {
      await i18n.changeLanguage(language);
      const view = renderPanel();
      expect(await screen.findByText(words)).toBeTruthy();
      view.unmount();
    }
  });

  it('speaks Chinese and Portuguese', async () => {
    webhooksApi();
    await i18n.changeLanguage('zh');
    const { unmount } = renderPanel();
    expect(await screen.findByText('您的端点')).toBeTruthy();
    expect(screen.getByRole('button', { name: '添加端点' })).toBeTruthy();
    expect(await screen.findByRole('switch', { name: '向此端点发送事件' })).toBeTruthy();
    unmount();
    await i18n.changeLanguage('pt');
    renderPanel();
    expect(await screen.findByText('Seus endpoints')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Adicionar endpoint' })).toBeTruthy();
    expect(await screen.findByRole('switch', { name: 'Enviar eventos para este endpoint' })).toBeTruthy();
  });
});
