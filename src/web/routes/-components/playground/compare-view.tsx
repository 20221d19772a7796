import type { Job } from '../../../../contract/jobs.ts';
import { cx } from '../../../components/cx.ts';
import { StatusBadge } from '../../../components/job-status-badge.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { formatCredits } from '../../../format/credits.ts';
import { jobErrorWords } from '../../../format/job-error.ts';
import { pluralize } from '../../../format/words.ts';
import { compareInputs } from './input-diff.ts';
import { JobOutputs } from './job-outputs.tsx';
import { startedWhen } from './started-when.ts';

/** The comparison in a dialog: it opens where people are, however long the list of runs. */
export function CompareDialog({ jobs, onClose }: { jobs: readonly Job[]; onClose: () => void }) {
  return (
    <ModalDialog size="xl" title={`Comparing ${jobs.length} runs`} onClose={onClose}>
      <CompareView jobs={jobs} />
    </ModalDialog>
  );
}

/**
 * Two or more runs side by side: their outputs, then every input with the ones that differ marked.
 * Not a DataTable: its columns are the runs, not fields of one record, and it scrolls sideways with the outputs above it.
 */
export function CompareView({ jobs }: { jobs: readonly Job[] }) {
  const rows = compareInputs(jobs.map((job) => job.input));
  const differing = rows.filter((row) => row.differs).length;
  const columns = { gridTemplateColumns: `repeat(${jobs.length}, minmax(16rem, 1fr))` };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {differing === 0
          ? 'Their inputs are the same.'
          : `${pluralize(differing, 'input differs', 'inputs differ')}, marked below.`}
      </p>
      <div className="relative overflow-x-auto">
        <div className="grid gap-4" style={columns}>
          {jobs.map((job, index) => (
            <div key={job.id} className="flex min-w-0 flex-col gap-2">
              <p className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
                <StatusBadge status={job.status} />
                Run {index + 1} · {startedWhen(job.created_at)} ·{' '}
                {formatCredits(job.actual_cost_cents ?? job.estimated_cost_cents)}
              </p>
              {job.output ? (
                <JobOutputs output={job.output} compact />
              ) : (
                <p className="text-sm text-zinc-600 dark:text-zinc-400">
                  {job.error ? <ErrorWords error={job.error} /> : 'No output yet.'}
                </p>
              )}
            </div>
          ))}
        </div>
        <table className="mt-4 w-full min-w-max border-collapse text-left text-sm">
          <caption className="sr-only">Inputs of the compared runs</caption>
          <thead className="text-xs text-zinc-500 dark:text-zinc-400">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                Input
              </th>
              {jobs.map((job, index) => (
                <th key={job.id} scope="col" className="py-2 pr-4 font-medium">
                  Run {index + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={row.path}
                className={cx(
                  'border-t border-zinc-100 align-top dark:border-zinc-800',
                  row.differs && 'bg-amber-50 dark:bg-amber-950/30',
                )}
              >
                <th scope="row" className="py-2 pr-4 font-mono text-xs font-normal">
                  {row.path}
                  {row.differs && (
                    <span className="ml-2 rounded bg-amber-200 px-1 font-sans text-[11px] font-medium text-amber-900 dark:bg-amber-800 dark:text-amber-100">
                      differs
                    </span>
                  )}
                </th>
                {row.values.map((value, index) => (
                  <td
                    key={jobs[index]?.id ?? index}
                    className="max-w-xs py-2 pr-4 break-words whitespace-pre-wrap"
                  >
                    {value ?? <span className="text-zinc-400 dark:text-zinc-500">not set</span>}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ErrorWords({ error }: { error: NonNullable<Job['error']> }) {
  const words = jobErrorWords(error);
  return (
    <>
      <span className="block font-medium">{words.title}</span>
      {words.detail}
    </>
  );
}
