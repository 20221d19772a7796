import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ApiKey, CreateApiKeyRequest, UpdateApiKeyRequest } from '../../contract/api-keys.ts';
import { sessionApi } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

/*
 * API keys. Every call goes with the session, never a custom key from Settings: the server refuses API
 * keys on these endpoints (spec 5.3). Secrets (a new key, a revealed key) never enter the query cache:
 * they live in the component that shows them, and leave with it.
 */

/** The server's page maximum; a team with more keys than a few pages is not what this page is for. */
const KEY_PAGE_SIZE = 100;
const MAX_KEY_PAGES = 10;

export const apiKeyKeys = {
  get all() {
    return teamScoped(['api-keys'] as const);
  },
  lists: () => teamScoped(['api-keys', 'list'] as const),
  list: (includeRevoked: boolean) => teamScoped(['api-keys', 'list', { includeRevoked }] as const),
  shares: (id: string) => teamScoped(['api-keys', 'shares', id] as const),
  reveals: (id: string) => teamScoped(['api-keys', 'reveals', id] as const),
};

/** Every key the caller sees: owned, of teams they manage, and shared with them; revoked ones on request. */
export function apiKeysQueryOptions(includeRevoked = false) {
  return queryOptions({
    queryKey: apiKeyKeys.list(includeRevoked),
    // Others change this list (a colleague shares a key, a manager revokes one), and the first screen's
    // Get started reads it too: the Keys page asks again whenever it opens, showing the last list meanwhile.
    staleTime: 0,
    queryFn: async () => {
      const keys: ApiKey[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_KEY_PAGES; page++) {
        const answer = await sessionApi().listApiKeys({
          query: { limit: KEY_PAGE_SIZE, cursor, include_revoked: includeRevoked },
        });
        keys.push(...answer.data);
        if (!answer.next_cursor) break;
        cursor = answer.next_cursor;
      }
      return keys;
    },
  });
}

/** The owner of a key and the people it is shared with. */
export function apiKeySharesQueryOptions(id: string) {
  return queryOptions({
    queryKey: apiKeyKeys.shares(id),
    queryFn: () => sessionApi().listApiKeyShares({ params: { id } }),
  });
}

/** Who showed the key again, newest first (the latest page; the log is for a glance, not an audit export). */
export function apiKeyRevealsQueryOptions(id: string) {
  return queryOptions({
    queryKey: apiKeyKeys.reveals(id),
    queryFn: () => sessionApi().listApiKeyReveals({ params: { id }, query: { limit: 100 } }),
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof CreateApiKeyRequest>) => sessionApi().createApiKey({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
  });
}

/** Edits a key's name, expiry and restrictions; they apply on the key's next request. */
export function useUpdateApiKey(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof UpdateApiKeyRequest>) =>
      sessionApi().updateApiKey({ params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
  });
}

/** Replaces a key's secret; the answer (the new secret) stays in the dialog that shows it, never the cache. */
export function useRotateApiKey(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (graceSeconds: number) =>
      sessionApi().rotateApiKey({ params: { id }, body: { grace_seconds: graceSeconds } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sessionApi().revokeApiKey({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
  });
}

/** Shows a revealable key again; the server logs it, so the log is stale after. */
export function useRevealApiKey(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sessionApi().revealApiKey({ params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.reveals(id) }),
  });
}

export function useShareApiKey(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (emails: string[]) => sessionApi().shareApiKey({ params: { id }, body: { emails } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(apiKeyKeys.shares(id), { owner: answer.owner, shares: answer.shares });
      return queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() });
    },
  });
}

export function useRemoveApiKeyShare(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => sessionApi().removeApiKeyShare({ params: { id, user_id: userId } }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: apiKeyKeys.shares(id) }),
        queryClient.invalidateQueries({ queryKey: apiKeyKeys.lists() }),
      ]),
  });
}
