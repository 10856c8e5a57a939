import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ok, renderApp, stubApi, userWith } from '../../test/renderApp';

vi.setConfig({ testTimeout: 30_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
});

const INVITE_LINK = 'http://127.0.0.1:3000/account/login?ref=ADA100';
const info = (invitees: unknown[]) =>
  ok({ inviteCode: 'ADA100', inviteLink: INVITE_LINK, monthlyRewarded: 500, monthlyCap: 500, invitees });

const api = (invitees: unknown[] = []) =>
  stubApi({
    '/points/account': ok({ totalPoints: 0, availablePoints: 0, usedPoints: 0, expiredPoints: 0, expiring: [] }),
    '/referral/info': info(invitees),
  });

const stubClipboard = (writeText: (text: string) => Promise<void>) => {
  const clipboard = { writeText: vi.fn(writeText) };
  vi.stubGlobal('navigator', { ...navigator, clipboard });
  return clipboard;
};

describe('invite friends page', () => {
  it('states the rules, shows the personal link and this month against the cap', async () => {
    api();
    renderApp('/account/invite', userWith('ACTIVE'));
    expect(await screen.findByRole('textbox', { name: 'Invite link' })).toHaveProperty('value', INVITE_LINK);
    const rules = screen.getByRole('region', { name: 'How it works' }).textContent;
    expect(rules).toContain('Your friend gets a free trial and 100 credits on sign-up.');
    expect(rules).toContain('You earn 100 credits for every friend who joins, up to 500 credits per month.');
    expect(rules).toContain('Referral credits are permanently valid.');
    expect(screen.getByText('Invitation code: ADA100')).toBeTruthy();
    expect(screen.getByText('500 / 500 credits earned')).toBeTruthy();
    expect(screen.getByText('No friends have joined yet. Share your link to start earning.')).toBeTruthy();
  });

  it('lists the friends who joined, with their reward or the monthly cap', async () => {
    api([
      { name: 'b***@example.com', joinedAt: '2024-05-02T10:00:00Z', rewardPoints: 0, capped: true },
      { name: 'Grace', joinedAt: '2024-05-01T10:00:00Z', rewardPoints: 100, capped: false },
    ]);
    renderApp('/account/invite', userWith('ACTIVE'));
    const friends = await screen.findByRole('region', { name: 'Friends who joined' });
    const rows = () => [...friends.querySelectorAll('tbody tr.ant-table-row')].map((row) => row.textContent);
    // The app's query cache outlives a test; wait for this test's answer.
    await waitFor(() => expect(rows()).toEqual(['b***@example.com2024-05-02Monthly cap reached', 'Grace2024-05-01+100 credits']));
  });

  it('copies the link and says so', async () => {
    api();
    const clipboard = stubClipboard(async () => {});
    renderApp('/account/invite', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: /Copy link/ }));
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(clipboard.writeText).toHaveBeenCalledWith(INVITE_LINK);
  });

  it('says "Copy failed" when the browser refuses', async () => {
    api();
    stubClipboard(async () => {
      throw new DOMException('Write permission denied.', 'NotAllowedError');
    });
    renderApp('/account/invite', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: /Copy link/ }));
    expect(await screen.findByText('Copy failed')).toBeTruthy();
    expect(screen.queryByText('Link copied')).toBeNull();
  });

  it('is reached from the user menu, and is not in the sidebar', async () => {
    api();
    const { router } = renderApp('/dashboard/assets', userWith('ACTIVE'));
    fireEvent.click(await screen.findByRole('button', { name: 'Account menu' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Invite friends/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/invite'));
    await screen.findByRole('heading', { name: 'Invite friends, earn credits' });
    expect(within(screen.getByRole('navigation', { name: 'Main navigation' })).queryByText(/Invite/)).toBeNull();
  });

  it('sends a signed-out visitor to sign in first', async () => {
    stubApi({ '/auth/config': ok({ google: false, devLogin: true }) });
    const { router } = renderApp('/account/invite', null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/login'));
  });
});
