import type { HistoryTab, PointsRecord } from '@reelsmith/contract';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';
import { useSession } from '../auth';
import { refreshCredits } from './credits';

// Antd's tables of 40 and more rows take a while to mount in jsdom on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

/** A light page with the header that asks the service nothing itself, so the queries over the whole document stay quick. */
const PAGE = '/tools/link-to-video';

const account = (availablePoints: number) => ({
  totalPoints: availablePoints + 100,
  availablePoints,
  usedPoints: 100,
  expiredPoints: 0,
  expiring: [],
});

/** `count` records of a tab, newest first, told apart by their amount. */
const records = (tab: HistoryTab, count: number): PointsRecord[] =>
  Array.from({ length: count }, (_, i) => ({
    referenceId: `${tab}-${i + 1}`,
    operationType: tab === 'gained' ? 'PROMOTION' : 'TEXT_TO_IMAGE',
    pointsChange: tab === 'gained' ? i + 1 : -(i + 1),
    createTime: new Date(Date.UTC(2024, 0, 1, 0, 0, 0) - i * 60_000).toISOString(),
  }));

/** Answers /points/list like the service, a page at a time, and keeps every request body. */
function historyService(history: Record<HistoryTab, PointsRecord[]>) {
  const requests: { page: number; pageSize: number; operationType: HistoryTab }[] = [];
  const answer = (body: unknown) => {
    const request = body as (typeof requests)[number];
    requests.push(request);
    const start = (request.page - 1) * request.pageSize;
    return ok(history[request.operationType].slice(start, start + request.pageSize));
  };
  return { requests, answer };
}

const headerText = () => document.querySelector('header')?.textContent ?? '';
const rowsIn = (element: HTMLElement) => element.querySelectorAll('tbody tr.ant-table-row');

describe('credit card in the header', () => {
  it('shows an active user the available points as plain digits with their unit', async () => {
    const calls = stubApi({ '/points/account': ok(account(1200)) });
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByRole('button', { name: '1200 credits' })).toBeTruthy();
    expect(headerText()).toContain('1200');
    expect(headerText()).not.toContain('1,200');
    expect(calls.filter((call) => call === '/points/account')).toHaveLength(1);
  });

  it('is not there without a signed-in user, and their balance is not asked for', async () => {
    const calls = stubApi({ '/points/account': ok(account(1200)) });
    renderApp('/tools/link-to-video', null);
    await screen.findByRole('button', { name: 'Sign in' });
    expect(screen.queryByRole('button', { name: /credits/ })).toBeNull();
    expect(calls).not.toContain('/points/account');
  });

  it('is not loaded for an inactive user, and loads once the user becomes active', async () => {
    const calls = stubApi({ '/points/account': ok(account(300)) });
    renderApp('/account/activate', userWith('INACTIVE'));
    await screen.findByRole('button', { name: /get start/i });
    expect(calls).not.toContain('/points/account');
    act(() => useSession.getState().setUser(userWith('ACTIVE')));
    await waitFor(() => expect(calls).toContain('/points/account'));
  });

  it('shows the recounted balance after refreshCredits', async () => {
    const calls = stubApi({ '/points/account': ok(account(1200)), '/points/refresh': ok(account(1150)) });
    renderApp(PAGE, userWith('ACTIVE'));
    await screen.findByRole('button', { name: '1200 credits' });
    await act(() => refreshCredits());
    expect(await screen.findByRole('button', { name: '1150 credits' })).toBeTruthy();
    expect(calls).toContain('/points/refresh');
  });
});

describe('credit details modal', () => {
  it('lists Earned and Used records page by page as the list is scrolled, and starts over when reopened', async () => {
    const service = historyService({ gained: records('gained', 50), used: records('used', 3) });
    stubApi({ '/points/account': ok(account(1200)), '/points/list': service.answer });
    renderApp(PAGE, userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: '1200 credits' }));

    const dialog = await screen.findByRole('dialog', { name: 'Credit details' });
    expect(within(dialog).getByRole('tab', { name: 'Earned', selected: true })).toBeTruthy();
    const earned = within(dialog).getByRole('region', { name: 'Earned credit records' });
    await waitFor(() => expect(rowsIn(earned)).toHaveLength(40));
    const first = rowsIn(earned)[0] as HTMLElement;
    expect(within(first).getByText('Promotion')).toBeTruthy();
    expect(within(first).getByText('+1')).toBeTruthy();
    expect(first.textContent).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);

    // jsdom lays nothing out, so every scroll position counts as the bottom.
    fireEvent.scroll(earned);
    await waitFor(() => expect(rowsIn(earned)).toHaveLength(50));
    expect(within(earned).getByText('No more records')).toBeTruthy();
    fireEvent.scroll(earned);
    const amounts = [...rowsIn(earned)].map((row) => row.children[1]?.textContent);
    expect(amounts).toEqual(Array.from({ length: 50 }, (_, i) => `+${i + 1}`));

    fireEvent.click(within(dialog).getByRole('tab', { name: 'Used' }));
    // Unlike the earned list, the used list must show amounts as they come: negative, no sign added.
    const used = await within(dialog).findByRole('region', { name: 'Used credit records' });
    await waitFor(() => expect(rowsIn(used)).toHaveLength(3));
    expect(within(used).getByText('-2')).toBeTruthy();
    expect(within(used).getAllByText('Text to image')).toHaveLength(3);
    expect(service.requests).toEqual([
      { page: 1, pageSize: 40, operationType: 'gained' },
      { page: 2, pageSize: 40, operationType: 'gained' },
      { page: 1, pageSize: 40, operationType: 'used' },
    ]);

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: '1200 credits' }));
    const again = await screen.findByRole('region', { name: 'Earned credit records' });
    await waitFor(() => expect(rowsIn(again)).toHaveLength(40));
    expect(service.requests.at(-1)).toEqual({ page: 1, pageSize: 40, operationType: 'gained' });
  });

  it('says which credits expire and when, and that sign-up credits last 30 days', async () => {
    const expiring = [{ operationType: 'SIGNUP', points: 80, expiresAt: '2026-12-24T10:00:00.000Z' }];
    stubApi({ '/points/account': ok({ ...account(80), expiring }), '/points/list': historyService({ gained: [], used: [] }).answer });
    renderApp(PAGE, userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: '80 credits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credit details' });
    expect(within(dialog).getByText('80 credits (Sign-up bonus) expire on December 24, 2026.')).toBeTruthy();
    expect(within(dialog).getByText(/Sign-up credits are valid for 30 days/)).toBeTruthy();
  });

  it('says when a tab has no records, and leads to the invite page', async () => {
    const service = historyService({ gained: [], used: [] });
    stubApi({ '/points/account': ok(account(0)), '/points/list': service.answer });
    const { router } = renderApp(PAGE, userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: '0 credits' }));
    const dialog = await screen.findByRole('dialog', { name: 'Credit details' });
    expect(await within(dialog).findByText('No records yet')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('link', { name: 'Invite friends' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/invite'));
  });
});
