import type { InstancePresence } from '../../db/instance-presence.ts';

/** Why a run was stopped from outside: a cancel, another run took its job over, or the server stops. */
export type StopReason = 'cancelled' | 'lost' | 'shutdown';

interface Run {
  jobId: string;
  token: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * The job runs of this process, so that a stopping server can let them finish (drain) and hand back
 * those that did not; and who this process is to the others (its presence, set when workers start).
 */
export class JobRuns {
  presence: InstancePresence | null = null;
  private readonly runs = new Map<string, Run>();
  private closed = false;

  constructor(readonly leaseSeconds: number) {}

  /** This instance's key for `run_instance`, or null in a process that runs no workers. */
  instance(): number | null {
    return this.presence?.key ?? null;
  }

  /** Records a run until `work` settles; the controller stops it. */
  track(jobId: string, token: string, controller: AbortController, work: Promise<void>): Promise<void> {
    const done = work.finally(() => {
      if (this.runs.get(jobId)?.token === token) this.runs.delete(jobId);
    });
    this.runs.set(jobId, { jobId, token, controller, done });
    return done;
  }

  /** True once the server began stopping: a run claimed now is handed back at once. */
  stopping(): boolean {
    return this.closed;
  }

  /** Waits until every run ended or `ms` passed; answers the runs still going. */
  async drain(ms: number): Promise<Array<{ jobId: string; token: string }>> {
    this.closed = true;
    const deadline = Date.now() + ms;
    while (this.runs.size && Date.now() < deadline) {
      await Promise.race([
        Promise.allSettled([...this.runs.values()].map((r) => r.done)),
        new Promise((r) => setTimeout(r, Math.min(250, Math.max(0, deadline - Date.now())))),
      ]);
    }
    return [...this.runs.values()].map(({ jobId, token }) => ({ jobId, token }));
  }

  /** Stops the given runs and waits for them to end, up to `ms` (an engine may not heed the signal). */
  async abort(runs: ReadonlyArray<{ jobId: string }>, ms: number): Promise<void> {
    const stopped = runs.map((r) => this.runs.get(r.jobId)).filter((r): r is Run => Boolean(r));
    for (const run of stopped) run.controller.abort('shutdown' satisfies StopReason);
    await Promise.race([
      Promise.allSettled(stopped.map((r) => r.done)),
      new Promise((r) => setTimeout(r, ms).unref()),
    ]);
  }
}
