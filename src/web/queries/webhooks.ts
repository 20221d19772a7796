import { useMutation } from '@tanstack/react-query';
import { api } from '../api/client.ts';

/*
 * Webhooks. A test event is an action with an answer, not data to cache: a mutation whose result lives in
 * the component that asked for it.
 */

/** Sends one signed `webhook.test` event to a URL and answers what the receiver said. */
export function useSendWebhookTestEvent() {
  return useMutation({
    mutationFn: (url: string) => api().sendWebhookTestEvent({ body: { url } }),
  });
}
