import { useEffect, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Answers a second apart place their end up to a second apart (the server counts whole seconds) and the time on
 * the way varies: an end moves only when it is this far from the one shown, so the count never steps back.
 */
const STEADY_MS = 2_000;

/** The end shown: the one given, unless it is within STEADY_MS of the one already shown. */
function useSteadyEnd(endsAt: number): number {
  const [shown, setShown] = useState(endsAt);
  const moved = Math.abs(endsAt - shown) > STEADY_MS;
  // Set while rendering, as React allows for a value that follows a prop: the next render shows it at once.
  if (moved) setShown(endsAt);
  return moved ? endsAt : shown;
}

/** Renders again every second. */
function useEverySecond(): void {
  const [, tick] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, []);
}

/**
 * How long the work should still take, counted down each second between polls: "About 40 s left", "About 3 min
 * left"; past its estimate, that it is taking longer than usual rather than a count below zero (decision "Progress
 * estimates"). A timer, which screen readers do not read out at every tick.
 */
export function TimeLeft({ endsAt, className }: { endsAt: number; className?: string }) {
  const { t } = useTranslation('progress');
  useEverySecond();
  const seconds = Math.ceil((useSteadyEnd(endsAt) - Date.now()) / 1000);
  return (
    <span role="timer" className={className}>
      {seconds <= 0
        ? t('overTime')
        : seconds < 60
          ? t('secondsLeft', { count: seconds })
          : t('minutesLeft', { count: Math.round(seconds / 60) })}
    </span>
  );
}
