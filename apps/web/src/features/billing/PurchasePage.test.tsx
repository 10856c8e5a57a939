import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeClock } from '../../test/clock';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';
import { PURCHASE_LATE_MS } from './billingApi';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const PAGE = '/account/credits/purchase?session_id=cs_test_1';
const WAITING = 'Payment received — adding your credits…';
const UNPAID = 'The payment was not completed. Nothing was charged.';

const account = (availablePoints: number) =>
  ok({ totalPoints: availablePoints, availablePoints, usedPoints: 0, expiredPoints: 0, expiring: [] });
const purchase = (state: string, kind = 'pack', credits = 500) => ok({ state, kind, credits });

/** The service's answers about the purchase, one after another (the last one repeated); keeps what was asked. */
function purchaseService(answers: ReturnType<typeof purchase>[], extra: Parameters<typeof stubApi>[0] = {}) {
  const sessions: (string | null)[] = [];
  const calls = stubApi({
    '/points/account': account(40),
    '/points/refresh': account(1540),
    '/billing/purchase': (_, query) => {
      sessions.push(query.get('session'));
      return answers[Math.min(sessions.length, answers.length) - 1] ?? purchase('waiting');
    },
    ...extra,
  });
  return { calls, sessions };
}

describe('purchase page (the return from paying)', () => {
  it('says the payment is being added while the service waits, then the credits added and the new balance', async () => {
    fakeClock();
    const { calls, sessions } = purchaseService([purchase('waiting'), purchase('waiting'), purchase('granted')]);
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByText(WAITING)).toBeTruthy();
    expect(await screen.findByText('500 credits added.')).toBeTruthy();
    expect(await screen.findByText('Your balance is now 1,540 credits.')).toBeTruthy();
    // The header's balance is recounted with the credits.
    expect(await screen.findByRole('button', { name: '1540 credits' })).toBeTruthy();
    expect(calls).toContain('/points/refresh');
    expect(sessions).toEqual(['cs_test_1', 'cs_test_1', 'cs_test_1']);
    expect(screen.getByRole('link', { name: 'Start creating' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Back to Get credits' }).getAttribute('href')).toBe('/account/credits');
    // Granted ends the asking.
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    expect(sessions).toHaveLength(3);
  });

  it('says a plan is active with its credits every month', async () => {
    purchaseService([purchase('granted', 'plan', 1000)]);
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByText('1,000 credits added.')).toBeTruthy();
    expect(screen.getByText('Your plan is active: 1,000 credits every month.')).toBeTruthy();
  });

  it('says nothing was charged when the payment did not go through, with the way back', async () => {
    purchaseService([purchase('unpaid')]);
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByText(UNPAID)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Get credits' }).getAttribute('href')).toBe('/account/credits');
    expect(screen.queryByText(WAITING)).toBeNull();
  });

  it('says the same of a return that names no payment, without asking the service', async () => {
    const { calls } = purchaseService([purchase('granted')]);
    renderApp('/account/credits/purchase', userWith('ACTIVE'));
    expect(await screen.findByText(UNPAID)).toBeTruthy();
    expect(calls.some((call) => call.startsWith('/billing/purchase'))).toBe(false);
  });

  it('says after two minutes that the bank is still confirming, and keeps asking', async () => {
    fakeClock();
    const { sessions } = purchaseService([purchase('waiting')]);
    renderApp(PAGE, userWith('ACTIVE'));
    expect(await screen.findByText(WAITING)).toBeTruthy();
    expect(screen.queryByText(/still being confirmed/)).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(PURCHASE_LATE_MS));
    expect(
      await screen.findByText(
        'Your payment is still being confirmed by the bank. Your credits will appear as soon as it is; you can leave this page.',
      ),
    ).toBeTruthy();
    expect(screen.getByText(WAITING)).toBeTruthy();
    const asked = sessions.length;
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await waitFor(() => expect(sessions.length).toBeGreaterThan(asked));
  });
});
