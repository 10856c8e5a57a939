import { QueryClient } from '@tanstack/react-query';

/** The API client already toasts each failure; retrying would repeat the toast for the same problem. */
export const newQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

let current = newQueryClient();

/**
 * The app's one query cache, also for the code that works outside React: an open project's controller follows its
 * tasks in it, and a charge recounts the balance in it (decision "Server data in queries"). The provider hands the
 * same one to the components.
 */
export const appQueryClient = (): QueryClient => current;

/** Tests: a fresh cache for each mounted app, so no answer cached by one test is seen by the next. */
export function freshQueryClient(): QueryClient {
  current = newQueryClient();
  return current;
}
