import { lazy, Suspense } from 'react';
import { LoadingNote } from '../../../components/loading-note.tsx';

// A job's progress, outputs and actions are for a job being followed, not for the first paint of an
// empty panel: they load with the first job shown, or earlier through preloadFollowedJob.
const loadFollowedJob = () => import('./followed-job.tsx');
const FollowedJob = lazy(() => loadFollowedJob().then((m) => ({ default: m.FollowedJob })));

/** Starts loading what shows a job (call it when a job is on its way: the form first touched, say). */
export function preloadFollowedJob(): void {
  void loadFollowedJob();
}

/** The result area: the job being followed, or what will appear here. */
export function ResultPanel({ jobId }: { jobId: string | undefined }) {
  return (
    <section
      aria-labelledby="result-heading"
      className="flex min-h-64 flex-col gap-4 rounded-xl border border-zinc-200 bg-white p-5 dark:border-zinc-800 dark:bg-zinc-900"
    >
      <h2 id="result-heading" className="text-base font-semibold">
        Result
      </h2>
      {jobId ? (
        <Suspense fallback={<LoadingJob />}>
          <FollowedJob key={jobId} id={jobId} />
        </Suspense>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Run the form and the result appears here as soon as it is ready: images, videos and sound play in
          place.
        </p>
      )}
    </section>
  );
}

/** What the panel says while a job's code or its first answer is on its way. */
export function LoadingJob() {
  return <LoadingNote>Loading the job…</LoadingNote>;
}
