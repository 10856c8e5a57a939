// The batch calls of the Batch page, one hook per call, keyed by its contract call (shared/api/queries.ts).
import {
  type Batch,
  type BatchOptions,
  batchCancel,
  batchCreate,
  batchDownloads,
  batchGet,
  batchList,
  batchQuote,
  batchRetry,
} from '@reelsmith/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { callKey, callQuery } from '../../../shared/api/queries';

/** While a batch runs its rows are read again this often. */
export const BATCH_POLL_MS = 2_000;

/** The price and the rows' problems of what the form holds; the last answer stays while the next is asked. */
export const useBatchQuote = (text: string, options: BatchOptions) =>
  useQuery({
    ...callQuery(batchQuote, { body: { text, options }, silent: true }),
    enabled: text.trim() !== '',
    placeholderData: keepPreviousData,
  });

export const useBatches = () => useQuery(callQuery(batchList, { query: { page: 1, pageSize: 10 } }));

export const useBatch = (batchId: string | null) =>
  useQuery({
    ...callQuery(batchGet, { query: { batchId: batchId ?? '' } }),
    enabled: batchId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'running' ? BATCH_POLL_MS : false),
  });

function useBatchChange<I>(change: (input: I) => Promise<Batch>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (batch) => {
      queryClient.setQueryData(callKey(batchGet, { batchId: batch.batchId }), batch);
      return queryClient.invalidateQueries({ queryKey: callKey(batchList) });
    },
  });
}

export const useCreateBatch = () => useBatchChange((body: { text: string; options: BatchOptions }) => api(batchCreate, { body }));
export const useRetryBatch = () => useBatchChange((batchId: string) => api(batchRetry, { body: { batchId } }));
export const useCancelBatch = () => useBatchChange((batchId: string) => api(batchCancel, { body: { batchId } }));

/** Follows a signed download link (the CSV or the zip): the browser saves it, the page stays. */
export async function download(batchId: string, which: 'csvUrl' | 'zipUrl') {
  const links = await api(batchDownloads, { query: { batchId } });
  const anchor = document.createElement('a');
  anchor.href = links[which];
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}
