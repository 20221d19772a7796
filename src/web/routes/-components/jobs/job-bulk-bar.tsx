import { useState } from 'react';
import type { Job } from '../../../../contract/jobs.ts';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { pluralize } from '../../../format/words.ts';
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

/**
 * Actions on the selected jobs; each button says how many of them it applies to. Cancelling asks once,
 * with the number that will be cancelled (jobs already finished are left alone). The question keeps the
 * jobs it named while it is open and while they are cancelled: the live feed moves jobs on meanwhile, and
 * a count that shrinks as each cancel lands would read as another question.
 */
export function JobBulkBar({ selected, onDone, onClear }: JobBulkBarProps) {
  const { run, pending } = useJobActions();
  const [toCancel, setToCancel] = useState<{ jobs: readonly Job[]; finished: number } | null>(null);
  const act = async (action: JobAction, jobs: readonly Job[] = selected) => {
    await run(action, jobs);
    setToCancel(null);
    onDone();
  };
  const askToCancel = () => {
    const jobs = selected.filter((job) => canRun('cancel', job));
    setToCancel({ jobs, finished: selected.length - jobs.length });
  };
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
            onClick={() => (action === 'cancel' ? askToCancel() : void act(action))}
          >
            {label} {count > 0 && <span className="tabular-nums">({count})</span>}
          </Button>
        );
      })}
      <Button size="sm" variant="ghost" onClick={onClear} className="ml-auto">
        Clear selection
      </Button>
      {toCancel && (
        <ConfirmDialog
          title={`Cancel ${pluralize(toCancel.jobs.length, 'job', 'jobs')}?`}
          confirmLabel={`Cancel ${pluralize(toCancel.jobs.length, 'job', 'jobs')}`}
          dismissLabel={toCancel.jobs.length === 1 ? 'Keep it running' : 'Keep them running'}
          danger
          pending={pending === 'cancel'}
          onConfirm={() => void act('cancel', toCancel.jobs)}
          onClose={() => setToCancel(null)}
        >
          <p>
            {toCancel.jobs.length === 1 ? 'The job stops' : `All ${toCancel.jobs.length} stop`}; what{' '}
            {toCancel.jobs.length === 1 ? 'it holds' : 'they hold'} is given back and nothing is charged.
            {toCancel.finished > 0 &&
              ` The other ${pluralize(toCancel.finished, 'selected job has', 'selected jobs have')} already finished and ${toCancel.finished === 1 ? 'stays as it is' : 'stay as they are'}.`}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
