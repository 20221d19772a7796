import type { Budget } from '../../../../contract/budgets.ts';
import type { Bucket } from '../../../queries/analytics.ts';
import type { Filters } from './analytics-search.ts';

export interface BudgetLine {
  id: string;
  credits: number;
  label: string;
}

const FILTER_OF = { member: 'member', folder: 'folder', key: 'api_key' } as const;

/**
 * The budgets worth a reference line on the spend chart: those whose period is the chart's bucket (a
 * monthly budget over daily bars says nothing), covering what the chart shows: a team budget when the
 * chart is not narrowed to one member, folder or key; a member's, folder's or key's budget when the chart
 * is filtered to exactly that one.
 */
export function budgetLines(budgets: readonly Budget[], bucket: Bucket, filters: Filters): BudgetLine[] {
  const narrowed = Boolean(filters.member || filters.folder || filters.api_key);
  return budgets
    .filter((b) => b.period === bucket)
    .filter((b) => (b.scope.type === 'team' ? !narrowed : filters[FILTER_OF[b.scope.type]] === b.scope.id))
    .map((b) => ({
      id: b.id,
      credits: b.credits,
      label: `${b.mode === 'cap' ? 'Cap' : 'Budget'} ${b.credits}`,
    }));
}
