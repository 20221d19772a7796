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
 * with the number that will be cancelled (jobs already finished are left alone).
 */
export function JobBulkBar({ selected, onDone, onClear }: JobBulkBarProps) {
  const { run, pending } = useJobActions();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const act = async (action: JobAction) => {
    await run(action, selected);
    setConfirmCancel(false);
    onDone();
  };
  const cancellable = selected.filter((job) => canRun('cancel', job)).length;
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
            onClick={() => (action === 'cancel' ? setConfirmCancel(true) : void act(action))}
          >
            {label} {count > 0 && <span className="tabular-nums">({count})</span>}
          </Button>
        );
      })}
      <Button size="sm" variant="ghost" onClick={onClear} className="ml-auto">
        Clear selection
      </Button>
      {confirmCancel && (
        <ConfirmDialog
          title={`Cancel ${pluralize(cancellable, 'job', 'jobs')}?`}
          confirmLabel={`Cancel ${pluralize(cancellable, 'job', 'jobs')}`}
          danger
          pending={pending === 'cancel'}
          onConfirm={() => void act('cancel')}
          onClose={() => setConfirmCancel(false)}
        >
          <p>
            {cancellable === 1 ? 'The job stops' : `All ${cancellable} stop`}; what{' '}
            {cancellable === 1 ? 'it holds' : 'they hold'} is given back and nothing is charged.
            {cancellable < selected.length &&
              ` The other ${pluralize(selected.length - cancellable, 'selected job has', 'selected jobs have')} already finished and ${selected.length - cancellable === 1 ? 'stays as it is' : 'stay as they are'}.`}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
