import { useSyncExternalStore } from 'react';

/**
 * Phones and narrow windows (decision "Phone layout"): below antd's `md` breakpoint (768 px) the sidebar moves into a
 * drawer and the header drops its labels. shell.module.css and global.css use the same width in their media queries.
 */
export const NARROW_SCREEN_QUERY = '(max-width: 767.98px)';

const media = () => window.matchMedia(NARROW_SCREEN_QUERY);
const subscribe = (onChange: () => void) => {
  const list = media();
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
};

/** Whether the window is narrower than the phone breakpoint; follows resizes and rotation. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => media().matches,
    () => false,
  );
}
