import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Pager, PagerState } from './pager';

/**
 * A pager owned by the component: the first page loads on mount, and unmounting resets it (cancelling a
 * page on its way), so a list shown again starts from page 1.
 */
export function usePager<T>(create: () => Pager<T>): [PagerState<T>, Pager<T>] {
  const [pager] = useState(create);
  const state = useSyncExternalStore(pager.subscribe, pager.getState);
  useEffect(() => {
    pager.loadMore();
    return () => pager.reset();
  }, [pager]);
  return [state, pager];
}
