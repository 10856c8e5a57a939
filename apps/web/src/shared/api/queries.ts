import type { Call, CallRoute } from '@reelsmith/contract';
import { queryOptions } from '@tanstack/react-query';
import { type ApiOptions, api } from './client';

/**
 * The query key of a call: its method and path, then what it is asked with. Every call of the contract gets its
 * key from this one factory (the key factory per endpoint of bulletproof-react, derived here from the contract
 * instead of written per file), so two screens asking the same thing share the answer, and an invalidation names
 * the call: `callKey(assetStatistics)` matches every answer of that call.
 */
export const callKey = (call: CallRoute, input?: unknown) =>
  input === undefined ? ([call.method, call.path] as const) : ([call.method, call.path, input] as const);

/** Query options for a call: its key and a query function through the API client (with the query's signal). */
export function callQuery<C extends Call>(call: C, options: Omit<ApiOptions<C>, 'signal'> = {}) {
  return queryOptions({
    queryKey: callKey(call, options.query ?? options.body),
    queryFn: ({ signal }) => api(call, { ...options, signal }),
  });
}
