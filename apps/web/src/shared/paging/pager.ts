/** What an infinite list shows: the rows so far and where loading stands. */
export interface PagerState<T> {
  items: readonly T[];
  /** A page is on its way. */
  loading: boolean;
  /** A page came back shorter than a full page: there is nothing more to load. */
  finished: boolean;
  /** The last request failed; loading more tries the same page again. */
  failed: boolean;
}

/** Fetches one page (1-based); cancelled through `signal` when the list is reset. */
export type FetchPage<T> = (page: number, signal: AbortSignal) => Promise<T[]>;

const INITIAL: PagerState<never> = { items: [], loading: false, finished: false, failed: false };

/**
 * Page-by-page loading for an infinite list (spec "Business constants": a list is finished when a page returns fewer than a
 * page size). One request at a time, each for the page after the last one that arrived, so no page is
 * asked for twice and none is skipped. Rows the service repeats across pages (a new record pushes the
 * previous page's last row onto the next page) are dropped by key. Rows removed on screen (deleted by the
 * user) shift the service's pages back, so the next request starts early enough to skip nothing.
 * An external store for useSyncExternalStore.
 */
export class Pager<T> {
  private state: PagerState<T> = INITIAL;
  private readonly listeners = new Set<() => void>();
  private readonly seen = new Set<string>();
  private pagesLoaded = 0;
  /** Rows removed since the last page was asked for: the service's later rows moved up by as many. */
  private removed = 0;
  private inFlight: AbortController | null = null;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly pageSize: number,
    private readonly keyOf: (item: T) => string,
  ) {}

  getState = (): PagerState<T> => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Loads the next page, unless one is on its way or the list is finished. */
  async loadMore(): Promise<void> {
    if (this.inFlight || this.state.finished) return;
    const request = new AbortController();
    this.inFlight = request;
    this.update({ loading: true, failed: false });
    // The first page holding a row not seen yet; repeated rows are dropped below.
    const page = Math.floor((this.pagesLoaded * this.pageSize - this.removed) / this.pageSize) + 1;
    const removedBefore = this.removed;
    let rows: T[];
    try {
      rows = await this.fetchPage(page, request.signal);
    } catch {
      if (request !== this.inFlight) return;
      this.inFlight = null;
      this.update({ loading: false, failed: true });
      return;
    }
    // Reset while the page travelled: it belongs to a list that no longer exists.
    if (request !== this.inFlight) return;
    this.inFlight = null;
    this.pagesLoaded = page;
    // A removal while the page travelled may not be in it: counting it again only repeats rows, never skips one.
    this.removed -= removedBefore;
    const fresh = rows.filter((row) => {
      const key = this.keyOf(row);
      if (this.seen.has(key)) return false;
      this.seen.add(key);
      return true;
    });
    this.update({ items: [...this.state.items, ...fresh], loading: false, finished: rows.length < this.pageSize });
  }

  /** Takes a row off the list, as the service has (e.g. it was deleted). */
  remove(key: string): void {
    const items = this.state.items.filter((item) => this.keyOf(item) !== key);
    if (items.length === this.state.items.length) return;
    this.removed++;
    this.update({ items });
  }

  /** Puts a changed row in place of the one with the same key (e.g. renamed). */
  replace(changed: T): void {
    const key = this.keyOf(changed);
    this.update({ items: this.state.items.map((item) => (this.keyOf(item) === key ? changed : item)) });
  }

  /** Back to an empty list that starts again from page 1; a page on its way is cancelled. */
  reset(): void {
    this.inFlight?.abort();
    this.inFlight = null;
    this.pagesLoaded = 0;
    this.removed = 0;
    this.seen.clear();
    this.state = INITIAL;
    this.notify();
  }

  private update(change: Partial<PagerState<T>>): void {
    this.state = { ...this.state, ...change };
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
