import { useId } from 'react';
import type { AnalyticsSummary } from '../../../../contract/analytics.ts';
import { cx } from '../../../components/cx.ts';
import { formatCredits, formatCreditsAndDollars } from '../../../format/credits.ts';
import { formatDateTime } from '../../../format/date-time.ts';
import { formatChangeRatio, formatCount, periodsOf } from './format.ts';

type Figure =
  | 'spend_cents'
  | 'charges'
  | 'jobs'
  | 'runs'
  | 'unsuccessful_spend_cents'
  | 'unattributed_spend_cents';

const FIGURES: ReadonlyArray<{ field: Figure; label: string; money: boolean; hint: string }> = [
  { field: 'spend_cents', label: 'Spend', money: true, hint: 'Credits charged, net of refunds.' },
  { field: 'charges', label: 'Charges', money: false, hint: 'Ledger charges counted.' },
  { field: 'jobs', label: 'Jobs', money: false, hint: 'Distinct charged jobs.' },
  { field: 'runs', label: 'Runs', money: false, hint: 'Runs started, charged or not.' },
  {
    field: 'unsuccessful_spend_cents',
    label: 'Unsuccessful spend',
    money: true,
    hint: 'Spend on jobs that failed or were cancelled.',
  },
  {
    field: 'unattributed_spend_cents',
    label: 'Unattributed spend',
    money: true,
    hint: 'Spend with no job, key or person to attribute it to.',
  },
];

/**
 * The summary's figures, each with its change against the comparison period, and the balance. The days of
 * both periods come from the answer itself, so what is compared is what is said. Money reads in credits
 * and dollars.
 */
export function SummaryCards({ summary }: { summary: AnalyticsSummary }) {
  const { data } = summary;
  const periods = periodsOf(summary.meta);
  const compared = data.change && data.previous && periods.previous ? periods.previous : null;
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {periods.current}
        {compared ? ` compared with ${compared}` : ''}
      </p>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {FIGURES.map(({ field, label, money, hint }) => (
          <Card
            key={field}
            label={label}
            hint={hint}
            value={money ? formatCreditsAndDollars(data[field]) : formatCount(data[field])}
            change={
              data.change && data.previous && compared
                ? {
                    period: compared,
                    delta: data.change[field].delta,
                    ratio: data.change[field].ratio,
                    previous: money ? formatCredits(data.previous[field]) : formatCount(data.previous[field]),
                    money,
                  }
                : null
            }
          />
        ))}
        {data.balance && (
          <Card
            label="Balance"
            hint={`Available now; ${formatCredits(data.balance.held_cents)} held by unfinished jobs. As of ${formatDateTime(data.balance.as_of)}.`}
            value={formatCreditsAndDollars(data.balance.balance_cents)}
            change={null}
          />
        )}
      </div>
    </div>
  );
}

interface CardProps {
  label: string;
  hint: string;
  value: string;
  change: { period: string; delta: number; ratio: number | null; previous: string; money: boolean } | null;
}

function Card({ label, hint, value, change }: CardProps) {
  const labelId = useId();
  return (
    <article
      aria-labelledby={labelId}
      className="rounded-xl border border-zinc-200 bg-white p-4 shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p id={labelId} className="text-sm font-medium text-zinc-600 dark:text-zinc-400" title={hint}>
        {label}
      </p>
      <p className="mt-1 text-xl font-semibold tabular-nums text-zinc-950 dark:text-white">{value}</p>
      {change && <ChangeLine {...change} />}
    </article>
  );
}

function ChangeLine({ period, delta, ratio, previous, money }: NonNullable<CardProps['change']>) {
  const direction = delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat';
  const amount = money ? formatCredits(Math.abs(delta)) : formatCount(Math.abs(delta));
  const text =
    direction === 'flat'
      ? 'No change'
      : `${direction === 'up' ? '+' : '−'}${amount}${ratio === null ? '' : ` (${formatChangeRatio(ratio)})`}`;
  return (
    <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
      <span
        aria-hidden="true"
        className={cx(
          'mr-1',
          direction === 'up' && 'text-amber-700 dark:text-amber-400',
          direction === 'down' && 'text-sky-700 dark:text-sky-400',
        )}
      >
        {direction === 'up' ? '▲' : direction === 'down' ? '▼' : '–'}
      </span>
      <span className="tabular-nums">{text}</span> vs {previous} in {period}
    </p>
  );
}
