import { useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Budget } from '../../../../contract/budgets.ts';
import { Badge } from '../../../components/badge.tsx';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { budgetsQueryOptions, useDeleteBudget } from '../../../queries/budgets.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { BudgetFormDialog } from './budget-form-dialog.tsx';
import {
  atTheCap,
  forecastWords,
  formatMoment,
  percentSpent,
  periodWords,
  scopeWords,
} from './budget-words.ts';
import { TeamTimezone } from './team-timezone.tsx';

type OpenDialog = { kind: 'create' } | { kind: 'edit' | 'delete'; budget: Budget } | null;

const count = new Intl.NumberFormat('en-US');

/**
 * The team's budgets: what each has spent this period, what is left, when it resets and when it runs out
 * at the current rate. Owners and managers create, edit and delete; members read.
 */
export function BudgetsPage() {
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const { data } = useSuspenseQuery(budgetsQueryOptions());
  const [open, setOpen] = useState<OpenDialog>(null);
  const close = () => setOpen(null);
  const manager = me.team.role === 'owner' || me.team.role === 'manager';

  return (
    <>
      <PageHeader
        title="Budgets"
        description={
          <>
            Limits and alerts on what the team, a member, a folder or a key spends per day, week or month.
            Periods count in the team's time zone ({data.timezone}).
            {manager ? '' : ' Owners and managers change them.'}
          </>
        }
        actions={manager && <Button onClick={() => setOpen({ kind: 'create' })}>New budget</Button>}
      />
      {manager && <TeamTimezone key={data.timezone} timezone={data.timezone} />}
      {data.data.length === 0 ? (
        <EmptyState
          title="No budgets yet"
          action={manager && <Button onClick={() => setOpen({ kind: 'create' })}>Create a budget</Button>}
        >
          A budget sends alerts as spend reaches its thresholds, and with a hard cap refuses jobs that would
          pass it, in the same moment the credits are held.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Budgets">
          {data.data.map((budget) => (
            <BudgetCard
              key={budget.id}
              budget={budget}
              manager={manager}
              onEdit={() => setOpen({ kind: 'edit', budget })}
              onDelete={() => setOpen({ kind: 'delete', budget })}
            />
          ))}
        </ul>
      )}
      {open?.kind === 'create' && <BudgetFormDialog budget={null} teamId={me.team.id} onClose={close} />}
      {open?.kind === 'edit' && <BudgetFormDialog budget={open.budget} teamId={me.team.id} onClose={close} />}
      {open?.kind === 'delete' && <DeleteBudgetDialog budget={open.budget} onClose={close} />}
    </>
  );
}

function BudgetCard({
  budget,
  manager,
  onEdit,
  onDelete,
}: {
  budget: Budget;
  manager: boolean;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const percent = percentSpent(budget);
  const over = percent >= 100;
  const near = !over && budget.thresholds.some((t) => t < 100 && percent >= t);
  const bar = over
    ? 'bg-red-600 dark:bg-red-500'
    : near
      ? 'bg-amber-500 dark:bg-amber-400'
      : 'bg-emerald-600 dark:bg-emerald-500';
  const title = scopeWords(budget);
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-zinc-900 dark:text-zinc-100">{title}</h2>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {count.format(budget.credits)} credits {periodWords(budget.period, budget.reset_day)}
          </p>
        </div>
        <Badge tone={budget.mode === 'cap' ? 'neutral' : 'muted'}>
          {budget.mode === 'cap' ? 'Hard cap' : 'Alert only'}
        </Badge>
      </div>
      <div>
        <div
          role="progressbar"
          aria-label={`${title}: spent this period`}
          aria-valuemin={0}
          aria-valuemax={budget.credits}
          aria-valuenow={Math.min(budget.spent, budget.credits)}
          aria-valuetext={`${count.format(budget.spent)} of ${count.format(budget.credits)} credits (${percent}%)`}
          className="h-2.5 overflow-hidden rounded-full bg-zinc-100 dark:bg-zinc-800"
        >
          <div className={`h-full rounded-full ${bar}`} style={{ width: `${Math.min(100, percent)}%` }} />
        </div>
        <p className="mt-2 flex justify-between text-sm tabular-nums text-zinc-700 dark:text-zinc-300">
          <span>
            {count.format(budget.spent)} spent ({percent}%)
          </span>
          <span>{count.format(budget.remaining)} left</span>
        </p>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-zinc-500 dark:text-zinc-400">Resets</dt>
        <dd className="text-zinc-800 dark:text-zinc-200">
          {formatMoment(budget.resets_at, budget.timezone)}
        </dd>
        <dt className="text-zinc-500 dark:text-zinc-400">Forecast</dt>
        <dd className="text-zinc-800 dark:text-zinc-200">{forecastWords(budget)}</dd>
        <dt className="text-zinc-500 dark:text-zinc-400">At the cap</dt>
        <dd className="text-zinc-800 dark:text-zinc-200">{atTheCap(budget)}</dd>
        <dt className="text-zinc-500 dark:text-zinc-400">Alerts</dt>
        <dd className="text-zinc-800 dark:text-zinc-200">
          {budget.thresholds.length === 0
            ? 'None'
            : budget.thresholds
                .map((t) => `${t}%${budget.alerts_sent.includes(t) ? ' (sent)' : ''}`)
                .join(', ')}
        </dd>
      </dl>
      {manager && (
        <div className="flex gap-2">
          <Button size="sm" variant="secondary" onClick={onEdit} aria-label={`Edit budget: ${title}`}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" onClick={onDelete} aria-label={`Delete budget: ${title}`}>
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}

function DeleteBudgetDialog({ budget, onClose }: { budget: Budget; onClose: () => void }) {
  const remove = useDeleteBudget();
  return (
    <ConfirmDialog
      title="Delete this budget?"
      confirmLabel="Delete budget"
      danger
      pending={remove.isPending}
      error={remove.error}
      onConfirm={() => remove.mutate(budget.id, { onSuccess: onClose })}
      onClose={onClose}
    >
      {scopeWords(budget)}, {budget.credits} credits {periodWords(budget.period, budget.reset_day)}. Jobs stop
      counting against it at once{budget.mode === 'cap' ? ' and are no longer refused by it' : ''}.
    </ConfirmDialog>
  );
}
