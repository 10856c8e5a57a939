import { describe, expect, it, vi } from 'vitest';
import { type FetchPage, Pager } from './pager';

const PAGE_SIZE = 40;
const settle = () => new Promise((resolve) => setTimeout(resolve));

/** A service holding `total` numbered rows, answering pages of PAGE_SIZE; each request waits until released. */
function fakeService(total: number) {
  const requests: { page: number; signal: AbortSignal; release: () => void; fail: () => void }[] = [];
  const fetchPage = vi.fn<FetchPage<number>>(
    (page, signal) =>
      new Promise((resolve, reject) => {
        const first = (page - 1) * PAGE_SIZE;
        const rows = Array.from({ length: Math.max(0, Math.min(PAGE_SIZE, total - first)) }, (_, i) => first + i + 1);
        requests.push({ page, signal, release: () => resolve(rows), fail: () => reject(new Error('offline')) });
      }),
  );
  /** Answers the latest request and lets the pager take it in. */
  const answer = async (outcome: 'release' | 'fail' = 'release') => {
    requests.at(-1)?.[outcome]();
    await settle();
  };
  return { fetchPage, requests, answer };
}

const pagerOn = (service: ReturnType<typeof fakeService>) => new Pager(service.fetchPage, PAGE_SIZE, String);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('Pager (infinite lists)', () => {
  it('appends page after page and stops at the first short page', async () => {
    const service = fakeService(130);
    const pager = pagerOn(service);
    for (let page = 1; page <= 4; page++) {
      pager.loadMore();
      expect(pager.getState().loading).toBe(true);
      await service.answer();
    }
    expect(service.requests.map((request) => request.page)).toEqual([1, 2, 3, 4]);
    expect(pager.getState()).toEqual({ items: range(1, 130), loading: false, finished: true, failed: false });

    pager.loadMore();
    expect(service.fetchPage).toHaveBeenCalledTimes(4);
  });

  it('asks once more after a full last page, and finishes on the empty page', async () => {
    const service = fakeService(80);
    const pager = pagerOn(service);
    for (let i = 0; i < 3; i++) {
      pager.loadMore();
      await service.answer();
    }
    expect(service.requests.map((request) => request.page)).toEqual([1, 2, 3]);
    expect(pager.getState().items).toEqual(range(1, 80));
    expect(pager.getState().finished).toBe(true);
  });

  it('never asks for a page while one is on its way', async () => {
    const service = fakeService(200);
    const pager = pagerOn(service);
    pager.loadMore();
    pager.loadMore();
    pager.loadMore();
    expect(service.fetchPage).toHaveBeenCalledTimes(1);
    await service.answer();
    pager.loadMore();
    pager.loadMore();
    expect(service.requests.map((request) => request.page)).toEqual([1, 2]);
  });

  it('tries the same page again after a failure, skipping nothing', async () => {
    const service = fakeService(100);
    const pager = pagerOn(service);
    pager.loadMore();
    await service.answer();
    pager.loadMore();
    await service.answer('fail');
    expect(pager.getState()).toMatchObject({ loading: false, failed: true, finished: false });
    expect(pager.getState().items).toEqual(range(1, 40));

    pager.loadMore();
    expect(pager.getState().failed).toBe(false);
    await service.answer();
    expect(service.requests.map((request) => request.page)).toEqual([1, 2, 2]);
    expect(pager.getState().items).toEqual(range(1, 80));
  });

  it('drops a row the service repeats on the next page', async () => {
    let page1 = true;
    const fetchPage: FetchPage<string> = async () => {
      const rows = page1 ? range(1, 40) : [40, ...range(41, 45)];
      page1 = false;
      return rows.map(String);
    };
    const pager = new Pager(fetchPage, PAGE_SIZE, (row) => row);
    await pager.loadMore();
    await pager.loadMore();
    expect(pager.getState().items).toEqual(range(1, 45).map(String));
  });

  it('resets to an empty list that starts from page 1, cancelling and ignoring the page on its way', async () => {
    const service = fakeService(130);
    const pager = pagerOn(service);
    const listener = vi.fn();
    pager.subscribe(listener);
    pager.loadMore();
    await service.answer();
    pager.loadMore();
    const travelling = service.requests[1];

    pager.reset();
    expect(travelling?.signal.aborted).toBe(true);
    expect(pager.getState()).toEqual({ items: [], loading: false, finished: false, failed: false });
    travelling?.release();
    await settle();
    expect(pager.getState().items).toEqual([]);

    pager.loadMore();
    await service.answer();
    expect(service.requests.map((request) => request.page)).toEqual([1, 2, 1]);
    expect(pager.getState().items).toEqual(range(1, 40));
    expect(listener).toHaveBeenCalled();
  });

  it('after rows are removed, asks early enough to skip none of the rows that moved up', async () => {
    let rows = range(1, 100);
    const requested: number[] = [];
    const fetchPage: FetchPage<number> = async (page) => {
      requested.push(page);
      return rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    };
    const pager = new Pager(fetchPage, PAGE_SIZE, String);
    await pager.loadMore();
    for (const gone of [3, 7]) {
      rows = rows.filter((row) => row !== gone);
      pager.remove(String(gone));
    }
    expect(pager.getState().items).toHaveLength(38);
    for (let i = 0; i < 3; i++) await pager.loadMore();
    expect(requested).toEqual([1, 1, 2, 3]);
    expect(pager.getState()).toMatchObject({ items: rows, finished: true });
  });

  it('replaces a row in place by its key', async () => {
    const pager = new Pager<{ id: string; name: string }>(
      async () => [
        { id: 'a', name: 'old' },
        { id: 'b', name: 'b' },
      ],
      PAGE_SIZE,
      (row) => row.id,
    );
    await pager.loadMore();
    pager.replace({ id: 'a', name: 'new' });
    expect(pager.getState().items).toEqual([
      { id: 'a', name: 'new' },
      { id: 'b', name: 'b' },
    ]);
  });
});
