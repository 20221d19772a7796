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
  /** By lease token: a run that lost its job and the one that took it over are two runs. */
  private readonly runs = new Map<string, Run>();
  private closed = false;

  constructor(readonly leaseSeconds: number) {}

  /** This instance's key for `run_instance`, or null in a process that runs no workers. */
  instance(): number | null {
    return this.presence?.key ?? null;
  }

  /**
   * Records a run until `work` settles; the controller stops it. A run stopped for shutdown counts as
   * ended at once: its job was handed back, and it writes nothing more (an engine may still finish
   * its computation in the background).
   */
  track(jobId: string, token: string, controller: AbortController, work: Promise<void>): Promise<void> {
    const shutdown = new Promise<void>((resolve) =>
      controller.signal.addEventListener('abort', () => {
        if (controller.signal.reason === ('shutdown' satisfies StopReason)) resolve();
      }),
    );
    work.catch(() => {}); // settled through `done`, or no one's concern after a shutdown
    const done = Promise.race([work, shutdown]).finally(() => this.runs.delete(token));
    this.runs.set(token, { jobId, token, controller, done });
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

  /** Stops the given runs (already handed back) for shutdown. */
  abort(runs: ReadonlyArray<{ token: string }>): void {
    for (const { token } of runs) this.runs.get(token)?.controller.abort('shutdown' satisfies StopReason);
  }

  /** The lease tokens of the runs going on in this process. */
  tokens(): string[] {
    return [...this.runs.keys()];
  }

  /** How many runs of this job are going on in this process (one, but for a run that lost its job). */
  runsOf(jobId: string): number {
    return [...this.runs.values()].filter((r) => r.jobId === jobId).length;
  }
}
