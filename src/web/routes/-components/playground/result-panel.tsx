import { lazy, Suspense, useEffect, useRef } from 'react';
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
  const panel = useRef<HTMLElement>(null);
  useShowNewJob(panel, jobId);
  return (
    <section
      ref={panel}
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

/** Room the panel's heading and the start of the job need on screen to count as seen. */
const SEEN_PX = 120;

/**
 * A job just started (or picked) shows where the eye is: on a phone the panel sits under the form, far
 * below the Run button, and a run there seemed to do nothing. The panel scrolls into view when its top
 * is off screen; a page opened on a job stays where it opens.
 */
function useShowNewJob(panel: React.RefObject<HTMLElement | null>, jobId: string | undefined) {
  const shown = useRef(jobId);
  useEffect(() => {
    if (!jobId || jobId === shown.current) return;
    shown.current = jobId;
    const element = panel.current;
    if (!element) return;
    const { top } = element.getBoundingClientRect();
    if (top >= 0 && top <= window.innerHeight - SEEN_PX) return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    element.scrollIntoView?.({ block: 'start', behavior: still ? 'auto' : 'smooth' });
  }, [panel, jobId]);
}

/** What the panel says while a job's code or its first answer is on its way. */
export function LoadingJob() {
  return <LoadingNote>Loading the job…</LoadingNote>;
}
