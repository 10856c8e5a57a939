import { useEffect } from 'react';

const WIDE_SCREEN_CLASS = 'wide-screen';

/** Larger-screen routes style the whole body (spec "Screens and routes"), and give it back when the visitor leaves. */
export function useWideScreen(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    document.body.classList.add(WIDE_SCREEN_CLASS);
    return () => document.body.classList.remove(WIDE_SCREEN_CLASS);
  }, [on]);
}
