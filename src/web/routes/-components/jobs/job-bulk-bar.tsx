import type { Job } from '../../../../contract/jobs.ts';
import { Button } from '../../../components/button.tsx';
import type { JobAction } from '../../../queries/jobs.ts';
import { canRun, useJobActions } from './job-actions.ts';

interface JobBulkBarProps {
  selected: readonly Job[];
  onDone: () => void;
  onClear: () => void;
}

const ACTIONS: ReadonlyArray<{ action: JobAction; label: string; variant: 'danger' | 'secondary' }> = [
  { action: 'cancel', label: 'Cancel', variant: 'danger' },
  { action: 'retry', label: 'Retry', variant: 'secondary' },
  { action: 'refresh', label: 'Refresh', variant: 'secondary' },
];

/** Actions on the selected jobs; each button says how many of them it applies to. */
export function JobBulkBar({ selected, onDone, onClear }: JobBulkBarProps) {
  const { run, pending } = useJobActions();
  return (
    <div
      role="toolbar"
      aria-label="Actions on selected jobs"
      className="mb-3 flex flex-wrap items-center gap-2 rounded-xl border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <p className="mr-2 text-sm font-medium" aria-live="polite">
        {selected.length} selected
      </p>
      {ACTIONS.map(({ action, label, variant }) => {
        const count = selected.filter((job) => canRun(action, job)).length;
        return (
          <Button
            key={action}
            size="sm"
            variant={variant}
            disabled={count === 0 || (pending !== null && pending !== action)}
            pending={pending === action}
            onClick={async () => {
              await run(action, selected);
              onDone();
            }}
          >
            {label} {count > 0 && <span className="tabular-nums">({count})</span>}
          </Button>
        );
      })}
      <Button size="sm" variant="ghost" onClick={onClear} className="ml-auto">
        Clear selection
      </Button>
    </div>
  );
}
