// The API key calls of the Developers page, one hook per call, keyed by its contract call (shared/api/queries.ts).
import { apiKeyCreate, apiKeyList, apiKeyRevoke } from '@reelsmith/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api/client';
import { callKey, callQuery } from '../../shared/api/queries';

export const useApiKeys = () => useQuery(callQuery(apiKeyList));

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; expiresInDays: number | null }) => api(apiKeyCreate, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(apiKeyList) }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(apiKeyRevoke, { body: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(apiKeyList) }),
  });
}
