import { CREDIT_LIST_BOTTOM_THRESHOLD_PX, CREDIT_LIST_THROTTLE_MS } from '@reelsmith/contract';
import { type UIEvent, useEffect, useMemo } from 'react';
import { throttle } from 'throttle-debounce';

type ScrollBox = Pick<HTMLElement, 'scrollHeight' | 'scrollTop' | 'clientHeight'>;

/** Whether a scroll area is within the spec's bottom threshold of its end (spec "Screens and routes", "Business constants"). */
export const isNearBottom = ({ scrollHeight, scrollTop, clientHeight }: ScrollBox): boolean =>
  scrollHeight - scrollTop - clientHeight <= CREDIT_LIST_BOTTOM_THRESHOLD_PX;

/**
 * An onScroll handler that calls `onNearBottom` when the area nears its end, at most once per throttle
 * period; the trailing call sees where a fast scroll stopped. `onNearBottom` should be stable.
 */
export function useNearBottom(onNearBottom: () => void): (event: UIEvent<HTMLElement>) => void {
  const check = useMemo(
    () =>
      throttle(CREDIT_LIST_THROTTLE_MS, (area: HTMLElement) => {
        if (isNearBottom(area)) onNearBottom();
      }),
    [onNearBottom],
  );
  useEffect(() => () => check.cancel(), [check]);
  return (event) => check(event.currentTarget);
}
