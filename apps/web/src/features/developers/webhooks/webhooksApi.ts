// The webhook calls the panel makes, one hook per call, each keyed by its contract call (shared/api/queries.ts) so a
// change invalidates exactly the answers it makes stale.
import {
  type WebhookEvent,
  webhookDeliveryList,
  webhookDeliveryResend,
  webhookEndpointCreate,
  webhookEndpointDelete,
  webhookEndpointList,
  webhookEndpointUpdate,
} from '@reelsmith/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../shared/api/client';
import { callKey, callQuery } from '../../../shared/api/queries';

export const DELIVERIES_PAGE_SIZE = 10;

export const useWebhookEndpoints = () => useQuery(callQuery(webhookEndpointList));

export function useCreateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { url: string; events: WebhookEvent[] }) => api(webhookEndpointCreate, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(webhookEndpointList) }),
  });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (endpointId: string) => api(webhookEndpointDelete, { body: { endpointId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(webhookEndpointList) }),
  });
}

/** Turns an endpoint off or on; the list shows its new state. */
export function useUpdateWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { endpointId: string; enabled: boolean }) => api(webhookEndpointUpdate, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(webhookEndpointList) }),
  });
}

/** An endpoint's deliveries, a page at a time; the page shown stays while the next loads. */
export const useWebhookDeliveries = (endpointId: string, page: number) =>
  useQuery({
    ...callQuery(webhookDeliveryList, { body: { endpointId, page, pageSize: DELIVERIES_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

export function useResendWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) => api(webhookDeliveryResend, { body: { deliveryId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callKey(webhookDeliveryList) }),
  });
}
