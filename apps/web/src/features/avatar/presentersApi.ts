// The Avatar tool's presenter calls, one hook per call, keyed by its contract call (shared/api/queries.ts).
import { avatarPresenterRemove, avatarPresenterSave, avatarPresenters, type CallBody } from '@reelsmith/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api/client';
import { callKey, callQuery } from '../../shared/api/queries';

export const usePresenters = () => useQuery(callQuery(avatarPresenters));

export function useSavePresenter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CallBody<typeof avatarPresenterSave>) => api(avatarPresenterSave, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(avatarPresenters) }),
  });
}

export function useRemovePresenter() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (presenterId: string) => api(avatarPresenterRemove, { body: { presenterId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(avatarPresenters) }),
  });
}
