import { queryOptions, useMutation } from '@tanstack/react-query';
import type { OAuthConsentRequest } from '../../contract/oauth.ts';
import { sessionApi } from '../api/client.ts';

/*
 * The consent page of the MCP authorization flow: which application asks, and the person's answer. With
 * the session, always: allowing hands out a key of one of the person's teams.
 */

export const oauthKeys = {
  all: ['oauth'] as const,
  client: (clientId: string) => ['oauth', 'client', clientId] as const,
};

/** The application asking for access, as it registered itself. */
export function oauthClientQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: oauthKeys.client(clientId),
    queryFn: () => sessionApi().getOAuthClient({ params: { client_id: clientId } }),
    retry: false,
  });
}

/** Allow or deny; answers where to send the browser (back to the application). */
export function useDecideConsent() {
  return useMutation({
    mutationFn: (body: OAuthConsentRequest) => sessionApi().decideOAuthConsent({ body }),
  });
}
