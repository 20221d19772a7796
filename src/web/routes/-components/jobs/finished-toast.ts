import type { Job, JobStatus } from '../../../../contract/jobs.ts';
import type { ToastInput } from '../../../components/toast-store.ts';
import { jobErrorWords } from '../../../format/job-error.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { jobExcerpt } from './job-excerpt.ts';

const VERB: Partial<Record<JobStatus, string>> = {
  completed: 'completed',
  failed: 'failed',
  cancelled: 'was cancelled',
};

/**
 * One toast for the jobs that finished in one update (twenty jobs finishing together make one toast,
 * not twenty). `open` shows a job's details.
 */
export function finishedToast(jobs: readonly Job[], open: (id: string) => void): ToastInput | null {
  const [first] = jobs;
  if (!first) return null;
  const failed = jobs.filter((job) => job.status === 'failed').length;
  const tone = failed > 0 ? 'error' : 'success';
  if (jobs.length === 1) {
    const what = jobExcerpt(first);
    // A failure says why first: "The provider refused this prompt · flux-schnell · a red fox".
    const why = first.status === 'failed' && first.error ? jobErrorWords(first.error).title : null;
    return {
      tone,
      title: `${toolLabel(first.tool)} job ${VERB[first.status] ?? 'finished'}`,
      description: [why, first.model, what].filter(Boolean).join(' · '),
      action: { label: 'Open', onClick: () => open(first.id) },
    };
  }
  const counts = (['completed', 'failed', 'cancelled'] as const)
    .map((status) => [status, jobs.filter((job) => job.status === status).length] as const)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return { tone, title: `${jobs.length} jobs finished`, description: counts.join(', ') };
}
