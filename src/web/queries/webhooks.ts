import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { WebhookEndpoint } from '../../contract/webhook-endpoints.ts';
import { api, sessionApi } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';
import { jobKeys } from './jobs.ts';

/*
 * Webhooks. A test event and a rotation are actions with an answer, not data to cache: mutations whose
 * result lives in the component that asked (a rotated secret is shown once and never cached). The team's
 * endpoints and their delivery logs are queries.
 */

export const webhookKeys = {
  get endpoints() {
    return teamScoped(['webhook-endpoints'] as const);
  },
  endpointDeliveries: (id: string) => teamScoped(['webhook-endpoints', id, 'deliveries'] as const),
};

/** Sends one signed `webhook.test` event to a URL and answers what the receiver said. */
export function useSendWebhookTestEvent() {
  return useMutation({
    mutationFn: (url: string) => api().sendWebhookTestEvent({ body: { url } }),
  });
}

/** Rotates the team's signing secret (a session only), the old one still signing for `overlapSeconds`. */
export function useRotateWebhookSecret() {
  return useMutation({
    mutationFn: (overlapSeconds: number) =>
      sessionApi().rotateWebhookSecret({ query: { overlap_seconds: overlapSeconds } }),
  });
}

/** Queues the next try of a job's own webhook; the log then shows it pending, then its outcome. */
export function useRedeliverJobWebhook(jobId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api().redeliverJobWebhook({ params: { id: jobId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: jobKeys.deliveries(jobId) }),
  });
}

export function webhookEndpointsQueryOptions() {
  return queryOptions({
    queryKey: webhookKeys.endpoints,
    queryFn: async () => (await api().listWebhookEndpoints()).data,
  });
}

export function endpointDeliveriesQueryOptions(id: string) {
  return queryOptions({
    queryKey: webhookKeys.endpointDeliveries(id),
    queryFn: async () => (await api().listWebhookEndpointDeliveries({ params: { id } })).data,
    staleTime: 5_000,
  });
}

export interface EndpointFields {
  url: string;
  description: string;
  events: WebhookEndpoint['events'];
  enabled: boolean;
}

/** Creates an endpoint, or changes one (`id` given): the list is read again after either. */
export function useSaveWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fields }: { id?: string; fields: Partial<EndpointFields> }) =>
      id
        ? api().updateWebhookEndpoint({ params: { id }, body: fields })
        : api().createWebhookEndpoint({ body: fields as EndpointFields }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
  });
}

export function useDeleteWebhookEndpoint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api().deleteWebhookEndpoint({ params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
  });
}

/**
 * Sends one delivery of an endpoint again (owners and managers): its log then shows the new try pending,
 * then its outcome.
 */
export function useRedeliverEndpointDelivery(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (webhookId: string) =>
      api().redeliverWebhookEndpointDelivery({ params: { id: endpointId, webhook_id: webhookId } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpointDeliveries(endpointId) }),
  });
}

/** Queues the events an endpoint missed while it was off; the list (its `missed_events`) and log follow. */
export function useRecoverWebhookEndpoint(endpointId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api().recoverWebhookEndpoint({ params: { id: endpointId }, body: {} }),
    // The endpoints' key is a prefix of every endpoint's log key: both are read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: webhookKeys.endpoints }),
  });
}
