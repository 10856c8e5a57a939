// The Batch page in the whole app (route, guards, providers), the API stubbed by path as in the other features'
// tests: the price before starting, the refusal of rows that cannot be used, the progress per row, retry and downloads.
import type { Batch, BatchQuote, BatchRow } from '@reelsmith/contract';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/i18n';
import { ok, renderApp, stubApi, userWith } from '../../../test/renderApp';

vi.setConfig({ testTimeout: 30_000 });

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

const ACCOUNT = { totalPoints: 100, availablePoints: 100, usedPoints: 0, expiredPoints: 0, expiring: [] };
const row = (n: number, patch: Partial<BatchRow>): BatchRow => ({
  row: n,
  link: `https://shop.example/p/${n}`,
  name: null,
  status: 'waiting',
  projectId: `p${n}`,
  error: null,
  previewUrl: null,
  exportUrl: null,
  ...patch,
});
const batchOf = (rows: BatchRow[], status: Batch['status'] = 'running'): Batch => {
  const count = (...of: BatchRow['status'][]) => rows.filter((r) => of.includes(r.status)).length;
  return {
    batchId: 'b1',
    status,
    options: { aspectRatio: '9:16', videoLength: 15, export: true },
    counts: {
      total: rows.length,
      waiting: count('waiting'),
      running: count('analysing', 'rendering', 'exporting'),
      done: count('done'),
      failed: count('failed'),
      cancelled: count('cancelled'),
    },
    createTime: '2026-11-25T10:00:00Z',
    finishTime: null,
    rows,
  };
};

function batchApi(quote: (body: { text: string }) => BatchQuote) {
  const sent: Record<string, unknown[]> = { quote: [], create: [], retry: [], downloads: [] };
  let batch = batchOf([row(1, { status: 'analysing' }), row(2, {})]);
  stubApi({
    '/points/account': ok(ACCOUNT),
    '/link-video/voices': ok([]),
    '/batch/list': ok({ list: [] }),
    '/batch/quote': (body) => {
      sent.quote?.push(body);
      return ok(quote(body as { text: string }));
    },
    '/batch/create': (body) => {
      sent.create?.push(body);
      return ok(batch);
    },
    '/batch/get': () => ok(batch),
    '/batch/retry': (body) => {
      sent.retry?.push(body);
      batch = batchOf([row(1, { status: 'done', previewUrl: '/v/1', exportUrl: '/x/1' }), row(2, { status: 'waiting' })]);
      return ok(batch);
    },
    '/batch/downloads': (_body, query) => {
      sent.downloads?.push(query.get('batchId'));
      return ok({ csvUrl: '/reelsmith/api/batch/results.csv?sig=1', zipUrl: '/reelsmith/api/batch/videos.zip?sig=1' });
    },
  });
  return {
    sent,
    finish: () => {
      batch = batchOf(
        [
          row(1, { status: 'done', previewUrl: '/v/1', exportUrl: '/x/1' }),
          row(2, { status: 'failed', error: 'Analysis failed: the page answered with HTTP 404.' }),
        ],
        'finished',
      );
    },
  };
}

const priced = (rows: number): BatchQuote => ({
  rows,
  creditsPerRow: 10,
  credits: rows * 10,
  availableCredits: 100,
  coverableRows: rows,
  problems: [],
});

describe('batch page', () => {
  it('prices the pasted links before starting, then follows each row to the end, retries failed rows and downloads', async () => {
    const { sent, finish } = batchApi(() => priced(2));
    const { router } = renderApp('/tools/link-to-video/batch', userWith('ACTIVE'));
    const links = await screen.findByLabelText('Product links');
    const start = screen.getByRole('button', { name: 'Start batch' });
    expect((start as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(links, { target: { value: 'https://shop.example/p/1\nhttps://shop.example/p/2' } });
    fireEvent.click(screen.getByRole('switch', { name: /Export each video/ }));
    expect(await screen.findByText('2 rows × 10 credits = 20 credits')).toBeTruthy();
    expect(screen.getByText('You have 100 credits available.')).toBeTruthy();
    await waitFor(() => expect((start as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(start);
    // It charges: confirmed first with the total and what will be left, as a render is.
    expect(await screen.findByText('Start a batch of 2 rows for 20 credits?')).toBeTruthy();
    expect(screen.getByText('You will have 80 credits left.')).toBeTruthy();
    expect(sent.create).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, start' }));

    await waitFor(() => expect(router.state.location.search).toBe('?batch=b1'));
    expect(sent.create).toEqual([
      { text: 'https://shop.example/p/1\nhttps://shop.example/p/2', options: { aspectRatio: '9:16', videoLength: 15, export: true } },
    ]);
    expect(await screen.findByText('Analysing')).toBeTruthy();
    expect(screen.getByText('Waiting')).toBeTruthy();

    finish();
    // The page reads a running batch again by itself.
    expect(await screen.findByText('Analysis failed: the page answered with HTTP 404.', undefined, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByText('1 done · 1 failed · 0 in progress · 0 waiting')).toBeTruthy();
    const done = screen.getByText('https://shop.example/p/1').closest('tr') as HTMLElement;
    expect(within(done).getByRole('link', { name: 'Video' }).getAttribute('href')).toBe('/x/1');
    // Each row's project opens in the editor, at the stage it reached; a failed row's too, to be finished by hand.
    expect(within(done).getByRole('link', { name: 'Open project' }).getAttribute('href')).toBe(
      '/tools/link-to-video/video-export?projectId=p1',
    );
    const failed = screen.getByText('https://shop.example/p/2').closest('tr') as HTMLElement;
    expect(within(failed).getByRole('link', { name: 'Open project' }).getAttribute('href')).toBe(
      '/tools/link-to-video/edit-product?projectId=p2',
    );

    // The signed link is followed as a download: the page stays.
    const followed: (string | null)[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      followed.push(this.getAttribute('href'));
    });
    fireEvent.click(screen.getByRole('button', { name: /Download all \(zip\)/ }));
    await waitFor(() => expect(followed).toEqual(['/reelsmith/api/batch/videos.zip?sig=1']));
    fireEvent.click(screen.getByRole('button', { name: /Results CSV/ }));
    await waitFor(() => expect(followed).toEqual(['/reelsmith/api/batch/videos.zip?sig=1', '/reelsmith/api/batch/results.csv?sig=1']));
    expect(sent.downloads).toEqual(['b1', 'b1']);
    fireEvent.click(screen.getByRole('button', { name: /Retry 1 failed row/ }));
    await waitFor(() => expect(sent.retry).toEqual([{ batchId: 'b1' }]));
    expect(await screen.findByText('Waiting')).toBeTruthy();
  });

  it('names the rows that cannot be used and what the credits cover, and does not start', async () => {
    batchApi(() => ({
      ...priced(3),
      availableCredits: 20,
      coverableRows: 2,
      problems: [{ row: 4, message: 'Row 4: the link "not a link" cannot be used.' }],
    }));
    renderApp('/tools/link-to-video/batch', userWith('ACTIVE'));
    fireEvent.change(await screen.findByLabelText('Product links'), { target: { value: 'link\nhttps://a.example/\nnot a link' } });
    expect(await screen.findByText('Row 4: the link "not a link" cannot be used.')).toBeTruthy();
    expect(screen.getByText(/Your credits cover only 2 rows/)).toBeTruthy();
    // How many are missing, and the ways to get them.
    expect(screen.getByText('You need 10 more credits for this.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get credits' }).getAttribute('href')).toBe('/account/credits');
    expect(screen.getByRole('link', { name: 'Invite friends' }).getAttribute('href')).toBe('/account/invite');
    expect((screen.getByRole('button', { name: 'Start batch' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('speaks Chinese', async () => {
    await i18n.changeLanguage('zh');
    batchApi(() => priced(1));
    renderApp('/tools/link-to-video/batch', userWith('ACTIVE'));
    expect(await screen.findByRole('heading', { name: '批量：一次处理多个商品' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('商品链接'), { target: { value: 'https://shop.example/p/1' } });
    expect(await screen.findByText('1 行：仅预览，免费')).toBeTruthy();
  });
});
