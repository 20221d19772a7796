import type { Budget } from '../../../../contract/budgets.ts';

/* How the Budgets page says a budget's numbers in words (pure, tested in budget-words.test.ts). */

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] ?? 'th'}`;
}

export function weekdayName(isoDay: number): string {
  return WEEKDAYS[isoDay - 1] ?? 'Monday';
}

/** "per day", "per week from Wednesday", "per month from the 15th". */
export function periodWords(period: Budget['period'], resetDay: number): string {
  if (period === 'day') return 'per day';
  if (period === 'week') return `per week from ${weekdayName(resetDay)}`;
  return `per month from the ${ordinal(resetDay)}`;
}

/** A moment in the team's time zone, as people read it: "Mon 30 Nov, 00:00". */
export function formatMoment(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** Spent as a whole percentage of the budget (can pass 100 for an alert-only budget). */
export function percentSpent(budget: Pick<Budget, 'spent' | 'credits'>): number {
  return Math.floor((Math.max(0, budget.spent) * 100) / budget.credits);
}

/** What happens when the budget is used up. */
export function atTheCap(budget: Pick<Budget, 'mode'>): string {
  return budget.mode === 'cap'
    ? 'At the cap, new jobs are refused (402 spend_limit_exceeded) until it resets.'
    : 'Alerts only: jobs keep running past it.';
}

/** The forecast in a sentence. */
export function forecastWords(budget: Budget): string {
  if (budget.spent >= budget.credits) return 'Used up for this period.';
  if (!budget.forecast.runs_out_at) {
    return budget.spent > 0
      ? 'At the current rate it lasts until it resets.'
      : 'Nothing spent yet this period.';
  }
  return `At the current rate (${budget.forecast.credits_per_day} a day) it runs out ${formatMoment(budget.forecast.runs_out_at, budget.timezone)}.`;
}

/** The scope as the page names it: "Team", "Member Ana Lima", "Folder Campaign", "Key CI". */
export function scopeWords(budget: Pick<Budget, 'scope' | 'scope_name'>): string {
  const kind = { team: 'Team', member: 'Member', folder: 'Folder', key: 'Key' }[budget.scope.type];
  if (budget.scope.type === 'team') return 'Whole team';
  return `${kind} ${budget.scope_name ?? budget.scope.id}`;
}
