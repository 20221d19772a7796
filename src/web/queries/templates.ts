import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PublishTemplateRequest } from '../../contract/templates.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';
import { generationKeys } from './generation.ts';
import { meKeys } from './me.ts';

/** The /templates gallery's filters (all in its URL). `mine`: the team's own, in every state. */
export interface TemplateFilter {
  tag?: string | undefined;
  q?: string | undefined;
  mine?: boolean | undefined;
}

export const templateKeys = {
  get all() {
    return teamScoped(['templates'] as const);
  },
  list: (filter: TemplateFilter) => teamScoped(['templates', 'list', filter] as const),
  get tags() {
    return teamScoped(['templates', 'tags'] as const);
  },
  one: (id: string) => teamScoped(['templates', 'one', id] as const),
};

export const TEMPLATE_PAGE = 24;

export function templatesQueryOptions(filter: TemplateFilter) {
  return infiniteQueryOptions({
    queryKey: templateKeys.list(filter),
    queryFn: ({ pageParam }) =>
      api().listTemplates({
        query: {
          limit: TEMPLATE_PAGE,
          ...(filter.tag ? { tag: filter.tag } : {}),
          ...(filter.q ? { q: filter.q } : {}),
          ...(filter.mine ? { author: 'me' as const } : {}),
          ...(pageParam ? { cursor: pageParam } : {}),
        },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    staleTime: 60_000,
  });
}

export function templateTagsQueryOptions() {
  return queryOptions({
    queryKey: templateKeys.tags,
    queryFn: async () => (await api().listTemplateTags({})).data,
    staleTime: 5 * 60_000,
  });
}

export function templateQueryOptions(id: string) {
  return queryOptions({
    queryKey: templateKeys.one(id),
    queryFn: () => api().getTemplate({ params: { id } }),
    staleTime: 60_000,
  });
}

/** "Use": one more on the counter (spec 4.8); the count shown everywhere follows. */
export function useCountTemplateUse() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api().useTemplate({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}

/** Renders with the given values; the job is followed like a playground run, the balance held for it. */
export function useRenderTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; variables: Record<string, string>; idempotencyKey: string }) =>
      api().renderTemplate({
        params: { id: input.id },
        headers: { 'idempotency-key': input.idempotencyKey },
        body: { variables: input.variables },
      }),
    onSuccess: (job) => {
      queryClient.setQueryData(generationKeys.job(job.id), job);
      void queryClient.invalidateQueries({ queryKey: templateKeys.all });
      void queryClient.invalidateQueries({ queryKey: meKeys.all });
    },
  });
}

export function usePublishTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof PublishTemplateRequest>) => api().publishTemplate({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
