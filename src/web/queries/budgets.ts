import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { CreateBudgetRequest, UpdateBudgetRequest } from '../../contract/budgets.ts';
import { sessionApi } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

/* The current team's budgets (and the time zone their periods count in). */

export const budgetKeys = {
  get all() {
    return teamScoped(['budgets'] as const);
  },
  list: () => teamScoped(['budgets', 'list'] as const),
};

export function budgetsQueryOptions() {
  return queryOptions({
    queryKey: budgetKeys.list(),
    // Spent and the forecast move with every job: ask again whenever the page opens.
    staleTime: 0,
    queryFn: () => sessionApi().listBudgets(),
  });
}

export function useCreateBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof CreateBudgetRequest>) => sessionApi().createBudget({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}

export function useUpdateBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: z.input<typeof UpdateBudgetRequest> }) =>
      sessionApi().updateBudget({ params: { id }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}

export function useDeleteBudget() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => sessionApi().deleteBudget({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}

/** The team's time zone, in which budgets count their periods: changing it moves every budget's period. */
export function useUpdateTeamTimezone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (timezone: string) => sessionApi().updateTeamSettings({ body: { timezone } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: budgetKeys.all }),
  });
}
