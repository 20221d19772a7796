import type { TooltipContentProps } from 'recharts';
import { formatCredits } from '../../../format/credits.ts';

/**
 * The tooltip of the analytics charts: a themed card (Tailwind `dark:`), amounts in credits (or `format`), the largest
 * first. Recharts shows it on hover and, through its accessibility layer, on arrow keys when the chart
 * has focus.
 */
export function ChartTooltip({
  active,
  payload,
  title,
  total,
  format = formatCredits,
}: Pick<TooltipContentProps<number, string>, 'active' | 'payload'> & {
  title: string | undefined;
  total?: number | undefined;
  /** How a value reads; credits unless told (the performance charts show durations and rates). */
  format?: (value: number) => string;
}) {
  if (!active || !payload || payload.length === 0) return null;
  const entries = payload.filter((entry) => typeof entry.value === 'number' && entry.value !== 0);
  return (
    <div className="min-w-44 rounded-lg border border-zinc-200 bg-white px-3 py-2 text-xs shadow-lg dark:border-zinc-700 dark:bg-zinc-900">
      {title && <p className="mb-1 font-medium text-zinc-900 dark:text-zinc-100">{title}</p>}
      <ul className="flex flex-col gap-0.5">
        {[...entries]
          .sort((a, b) => Number(b.value) - Number(a.value))
          .map((entry) => (
            <li key={String(entry.name)} className="flex items-center justify-between gap-3">
              <span className="flex items-center gap-1.5 text-zinc-700 dark:text-zinc-300">
                <span aria-hidden="true" className="size-2 rounded-sm" style={{ background: entry.color }} />
                {entry.name}
              </span>
              <span className="tabular-nums text-zinc-900 dark:text-zinc-100">
                {format(Number(entry.value))}
              </span>
            </li>
          ))}
      </ul>
      {total !== undefined && (
        <p className="mt-1 flex justify-between gap-3 border-t border-zinc-200 pt-1 font-medium text-zinc-900 dark:border-zinc-700 dark:text-zinc-100">
          <span>Total</span>
          <span className="tabular-nums">{format(total)}</span>
        </p>
      )}
    </div>
  );
}
