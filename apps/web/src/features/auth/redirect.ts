import { REDIRECT_STORAGE_KEY } from '@reelsmith/contract';

/** Remembers where a visitor was headed, so sign-in and activation can land there (spec "Screens and routes" route guard). */
export function rememberRedirect(path: string): void {
  localStorage.setItem(REDIRECT_STORAGE_KEY, path);
}

/** The remembered path, cleared as it is read: it is used once. */
export function takeRedirect(): string | null {
  const path = localStorage.getItem(REDIRECT_STORAGE_KEY);
  localStorage.removeItem(REDIRECT_STORAGE_KEY);
  return path;
}
