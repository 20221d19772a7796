import { requeueOrphans } from '../domain/jobs/job-lease.ts';
import { RUN_JOB_QUEUE, RUN_PIPELINE_QUEUE, RUN_REMOTE_JOB_QUEUE } from '../domain/jobs/queue-names.ts';
import type { Services } from '../services.ts';

/** How often a worker process looks for jobs whose run is gone; seconds, so a crash is resumed quickly. */
const MAX_INTERVAL_SECONDS = 5;

/**
 * Hands jobs whose run is gone back to the queue: at start (what a killed process was running) and
 * every few seconds (another worker process died, or a lease ran out). Several processes may do this at
 * once; each job is requeued by one of them.
 */
export function startResumingOrphans(s: Services): { stop(): void } {
  let running = false;
  const sweep = async () => {
    // While this process has lost the database, it cannot tell the living from the dead.
    if (running || !s.jobRuns.presence?.held()) return;
    running = true;
    try {
      const resumed = await requeueOrphans(s);
      if (resumed.length) {
        s.log.info('resuming jobs whose run is gone', { jobs: resumed });
        for (const queue of [RUN_JOB_QUEUE, RUN_REMOTE_JOB_QUEUE, RUN_PIPELINE_QUEUE]) s.wakeQueue(queue);
      }
    } catch (error) {
      s.log.warn('could not look for orphaned jobs', { error: String(error) });
    } finally {
      running = false;
    }
  };
  void sweep();
  const timer = setInterval(sweep, Math.min(MAX_INTERVAL_SECONDS, s.config.QUEUE_MAINTENANCE_SECONDS) * 1000);
  return { stop: () => clearInterval(timer) };
}
