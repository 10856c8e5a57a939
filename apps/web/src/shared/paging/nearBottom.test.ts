import { CREDIT_LIST_THROTTLE_MS } from '@reelsmith/contract';
import { renderHook } from '@testing-library/react';
import type { UIEvent } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isNearBottom, useNearBottom } from './nearBottom';

afterEach(() => {
  vi.useRealTimers();
});

/** A scroll area 400 px high over 2000 px of rows, scrolled to `scrollTop`. */
const area = (scrollTop: number) => ({ scrollHeight: 2000, clientHeight: 400, scrollTop });
const scrollEvent = (scrollTop: number) => ({ currentTarget: area(scrollTop) }) as unknown as UIEvent<HTMLElement>;

describe('near the bottom of the credit list (10 px, 200 ms)', () => {
  it('counts the last 10 px as the bottom', () => {
    expect(isNearBottom(area(1600))).toBe(true);
    expect(isNearBottom(area(1590))).toBe(true);
    expect(isNearBottom(area(1589))).toBe(false);
    expect(isNearBottom(area(0))).toBe(false);
  });

  it('checks at most once per 200 ms, with a trailing check where the scroll stopped', () => {
    vi.useFakeTimers();
    const onNearBottom = vi.fn();
    const { result } = renderHook(() => useNearBottom(onNearBottom));
    result.current(scrollEvent(1595));
    expect(onNearBottom).toHaveBeenCalledTimes(1);
    for (let top = 1000; top <= 1600; top += 100) result.current(scrollEvent(top));
    expect(onNearBottom).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(CREDIT_LIST_THROTTLE_MS);
    expect(onNearBottom).toHaveBeenCalledTimes(2);
  });

  it('does nothing far from the bottom', () => {
    const onNearBottom = vi.fn();
    const { result } = renderHook(() => useNearBottom(onNearBottom));
    result.current(scrollEvent(200));
    expect(onNearBottom).not.toHaveBeenCalled();
  });
});
