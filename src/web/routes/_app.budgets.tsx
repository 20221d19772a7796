import { createFileRoute } from '@tanstack/react-router';
import { budgetsQueryOptions } from '../queries/budgets.ts';
import { meQueryOptions } from '../queries/me.ts';
import { BudgetsPage } from './-components/budgets/budgets-page.tsx';

/** Budgets: spend limits and alerts per team, member, folder or key, with their progress this period. */
export const Route = createFileRoute('/_app/budgets')({
  loader: ({ context: { queryClient } }) =>
    Promise.all([
      queryClient.ensureQueryData(budgetsQueryOptions()),
      queryClient.ensureQueryData(meQueryOptions()),
    ]),
  component: BudgetsPage,
});
