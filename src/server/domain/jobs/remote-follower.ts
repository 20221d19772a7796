import type { Services } from '../../services.ts';
import { handBack } from './job-lease.ts';
import { failJob, HELD_BY_RUN } from './job-lifecycle.ts';
import type { JobRow } from './job-row.ts';
import type { FollowedState, RemoteRunner, RunResult, SubmittedRunInput } from './provider.ts';
import { ProviderError } from './provider-error.ts';
import { failureCode, type RunJobDeps, storeAndComplete } from './run-job.ts';

/** Longest pause between status calls of a job that has run far past its expected time, in gaps. */
const MAX_POLL_GAPS = 6;
/** With webhooks, a job is still polled now and then, in case a delivery was lost. */
const WEBHOOK_SAFETY_GAP_MS = 120_000;
/** How often the follower looks for due polls, and for jobs cancelled or taken over elsewhere. */
const TICK_MS = 250;
const CHECK_MS = 1_000;
/** Status calls under way at once, and finished jobs being downloaded and stored at once. */
const MAX_POLLS = 64;
/**
 * Due jobs of one provider checked through its listing together: fewer are polled one by one (a listing
 * page costs a call too), at most MAX_BATCH go in one listing.
 */
const MIN_BATCH = 4;
const MAX_BATCH = 500;
const MAX_FINISHING = 8;
/** The log tail kept on a job (the provider resends the whole log on every poll). */
const MAX_LOG_CHARS = 4_000;

/** One job this process follows at its provider. */
interface Followed {
  row: JobRow;
  token: string;
  input: SubmittedRunInput;
  runner: RemoteRunner;
  /** When the provider accepted it (from the row: the same after a resume in another process). */
  submittedAt: number;
  /** When the provider is expected to finish it, from what this server saw of the same offer. */
  expectedMs: number;
  nextPollAt: number;
  /** A poll or the finish is under way: nothing else is started for the job until it settles. */
  busy: boolean;
  /** A webhook arrived while busy: poll again once free. */
  nudged: boolean;
  /** What the row last got, so unchanged polls write nothing. */
  written: { status: string; progress: number | null; message: string | null; logs: string };
  webhooks: boolean;
  /** Finishes that threw (the database or storage away); the job fails after MAX_FINISH_TRIES. */
  finishFailures: number;
}

/** A finished job whose storing keeps failing on our side fails after this many tries. */
const MAX_FINISH_TRIES = 5;

export interface FollowRequest {
  row: JobRow;
  token: string;
  input: SubmittedRunInput;
  runner: RemoteRunner;
  state: FollowedState;
  /** Whether the provider was given our webhook URL for this job. */
  webhooks: boolean;
}

/**
 * Follows the jobs this process submitted to external providers, so that no worker waits while a provider
 * works: one timer for thousands of jobs. Each job is polled at most once per PROVIDER_POLL_SECONDS (its polls
 * are phased to land just after it is expected to finish), or not at all while its provider's webhooks
 * work; when it ends, its outputs are downloaded and stored and it is completed or failed under its lease
 * token, exactly as a run would. Cancels and takeovers are noticed in one query a second for all jobs; the
 * leases are renewed in one statement. A process that stops hands its jobs back to the queue, and a
 * process that dies loses them to the orphan sweep: either way the next worker resumes following the job
 * by its provider id, never submitting it again.
 */
export class RemoteFollower {
  private readonly jobs = new Map<string, Followed>();
  /** Provider duration of recent jobs by offer (pricing id), ms: where polls are aimed. */
  private readonly typical = new Map<string, number>();
  private services: Services | null = null;
  private deps: RunJobDeps | null = null;
  private tick: NodeJS.Timeout | null = null;
  private lastCheck = 0;
  private lastRenewal = Date.now();
  private checking = false;
  /** The ownership check failed last time (the database is away): said once, not every second. */
  private checkFailing = false;
  private polls = 0;
  private finishing = 0;
  private readonly finishQueue: Array<() => Promise<void>> = [];
  private stopped = false;

  /** How many jobs this process follows now. */
  get size(): number {
    return this.jobs.size;
  }

  has(jobId: string): boolean {
    return this.jobs.has(jobId);
  }

  /** The lease tokens of the jobs followed here (they are no run's, yet not abandoned). */
  tokens(): string[] {
    return [...this.jobs.values()].map((job) => job.token);
  }

  /** Starts following a job its worker just submitted, or one resumed by its provider id. */
  follow(s: Services, deps: RunJobDeps, request: FollowRequest): void {
    this.services = s;
    this.deps = deps;
    const { row, token, input, runner, state } = request;
    const now = Date.now();
    const submittedAt = row.submitted_at?.getTime() ?? now;
    const expectedMs =
      this.typical.get(input.offer.pricingId) ?? input.model.estimatedDurationMs ?? this.gapMs();
    const job: Followed = {
      row,
      token,
      input,
      runner,
      submittedAt,
      expectedMs,
      nextPollAt: now,
      busy: false,
      nudged: false,
      written: {
        status: row.provider_status ?? '',
        progress: row.progress,
        message: row.progress_message,
        logs: '',
      },
      webhooks: request.webhooks,
      finishFailures: 0,
    };
    // `state` was just read (the submit's answer, or a resumed job's poll): the next call is a gap away.
    job.nextPollAt = this.nextPoll(job, now, true);
    this.jobs.set(row.id, job);
    this.start();
    void this.apply(job, state);
  }

  /**
   * A provider's webhook about a job: its state when the delivery carried it, else a poll at once. A job
   * this process does not follow is ignored (the caller tells the other processes).
   */
  deliver(jobId: string, state: FollowedState | null): boolean {
    const job = this.jobs.get(jobId);
    if (!job) return false;
    if (job.busy) {
      job.nudged = true;
      return true;
    }
    if (state) void this.apply(job, state);
    else job.nextPollAt = 0;
    return true;
  }

  /** Stops following: every job goes back to the queue at once, for the next worker to resume. */
  async stop(): Promise<string[]> {
    this.stopped = true;
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    const s = this.services;
    const runs = [...this.jobs.values()].map((job) => ({ jobId: job.row.id, token: job.token }));
    this.jobs.clear();
    if (!s || !runs.length) return [];
    return handBack(s, runs);
  }

  /** The fewest milliseconds between two status calls for one job. */
  private gapMs(): number {
    return (this.services?.config.PROVIDER_POLL_SECONDS ?? 5) * 1000;
  }

  private start(): void {
    if (this.tick || this.stopped) return;
    this.tick = setInterval(() => this.onTick(), TICK_MS);
    this.tick.unref();
  }

  private onTick(): void {
    const now = Date.now();
    if (now - this.lastCheck >= CHECK_MS && !this.checking) {
      this.lastCheck = now;
      void this.checkOwnership();
    }
    // Due jobs of a provider that lists its jobs are checked together (RemoteRunner.pollMany).
    const batches = new Map<RemoteRunner, Followed[]>();
    for (const job of this.jobs.values()) {
      if (this.polls >= MAX_POLLS) break;
      if (job.busy || job.nextPollAt > now) continue;
      if (job.runner.pollMany) {
        const batch = batches.get(job.runner) ?? [];
        batch.push(job);
        batches.set(job.runner, batch);
        if (batch.length < MAX_BATCH) continue;
        batches.delete(job.runner);
        void this.pollBatch(job.runner, batch);
        continue;
      }
      void this.poll(job);
    }
    for (const [runner, batch] of batches) {
      if (batch.length >= MIN_BATCH) void this.pollBatch(runner, batch);
      else for (const job of batch) void this.poll(job);
    }
  }

  /**
   * One listing call (or a few pages) for many due jobs of one provider. The jobs it shows still running
   * get their state as from a poll; the others (finished: their full record; not listed) are polled one by
   * one. A failed listing falls back to polling each.
   */
  private async pollBatch(runner: RemoteRunner, batch: Followed[]): Promise<void> {
    for (const job of batch) job.busy = true;
    this.polls++;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort('timeout'), 60_000);
    let states: Map<string, FollowedState> | null = null;
    try {
      states = await runner.pollMany!(
        batch.map((job) => ({ input: job.input, submittedAt: new Date(job.submittedAt) })),
        controller.signal,
      );
    } catch (error) {
      this.services?.log.warn('provider listing failed; polling each job', {
        provider: batch[0]?.row.provider,
        jobs: batch.length,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      clearTimeout(timer);
      this.polls--;
    }
    for (const job of batch) {
      job.busy = false;
      const state = states?.get(job.input.providerJobId);
      if (!state) {
        void this.poll(job);
        continue;
      }
      job.nextPollAt = this.nextPoll(job, Date.now(), true);
      await this.apply(job, state);
    }
  }

  /**
   * When the next status call of a job is due. Calls are at least a gap apart, phased so that one lands
   * just after the job's expected end (a poll then, not up to a whole gap later); well past it they thin
   * out. With webhooks, only the rare safety poll.
   */
  private nextPoll(job: Followed, now: number, polledJustNow: boolean): number {
    const gap = this.gapMs();
    const elapsed = now - job.submittedAt;
    if (job.webhooks) {
      return now + Math.max(WEBHOOK_SAFETY_GAP_MS, 2 * job.expectedMs - elapsed);
    }
    const aim = job.expectedMs + TICK_MS;
    const overdue = elapsed - aim;
    if (overdue > 6 * gap) {
      return now + Math.min(MAX_POLL_GAPS * gap, Math.max(gap, overdue / 4));
    }
    // The next point of the series aim + k × gap that is at least a gap after this call (or now, first).
    // A call lands a little after its point (the tick, the answer): the next point, a little less than a
    // gap away, is then taken late (at a gap) rather than skipped, which made every gap two.
    const earliest = polledJustNow ? elapsed + gap : elapsed;
    const k = Math.ceil((earliest - aim) / gap - (polledJustNow ? 0.5 : 0));
    return job.submittedAt + Math.max(aim + k * gap, earliest);
  }

  private async poll(job: Followed): Promise<void> {
    job.busy = true;
    this.polls++;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort('timeout'), 60_000);
    let state: FollowedState | null = null;
    try {
      state = await job.runner.poll(job.input, controller.signal);
    } catch (error) {
      // The provider is away or failing: the job stays followed, polled less often, until its deadline.
      this.services?.log.warn('provider status call failed', {
        job_id: job.row.id,
        provider: job.row.provider,
        error: error instanceof Error ? error.message : String(error),
      });
      job.nextPollAt = Date.now() + 2 * this.gapMs();
    } finally {
      clearTimeout(timer);
      this.polls--;
      job.busy = false;
    }
    // A provider that stays away does not keep a job past its deadline either.
    if (!state && this.pastDeadline(job)) this.finishLater(job, job.written.status);
    if (state) {
      job.nextPollAt = this.nextPoll(job, Date.now(), true);
      await this.apply(job, state);
    }
  }

  /** Acts on a state: progress for a running job, the finish for an ended one, the deadline for both. */
  private async apply(job: Followed, state: FollowedState): Promise<void> {
    const s = this.services;
    if (!s || !this.jobs.has(job.row.id)) return;
    if (state.phase === 'succeeded' || state.phase === 'failed' || state.phase === 'cancelled') {
      this.finishLater(job, state);
      return;
    }
    if (this.pastDeadline(job)) {
      this.finishLater(job, state.providerStatus);
      return;
    }
    await this.writeProgress(job, state);
    if (job.nudged) {
      job.nudged = false;
      job.nextPollAt = 0;
    }
  }

  private async writeProgress(job: Followed, state: FollowedState): Promise<void> {
    const s = this.services!;
    const elapsed = Date.now() - job.submittedAt;
    const who = job.row.provider;
    const progress =
      state.progress ??
      (state.phase === 'queued' ? 0.05 : 0.1 + 0.8 * (1 - Math.exp(-elapsed / (job.expectedMs || 30_000))));
    const message = state.message ?? (state.phase === 'queued' ? `Queued at ${who}` : `Running at ${who}`);
    const logs = (state.logs ?? '').slice(-MAX_LOG_CHARS);
    const w = job.written;
    // Our own estimate creeps on every poll: written in coarse steps (thousands of jobs, one row each).
    const step = state.progress === null ? 0.05 : 0.01;
    const moved = Math.abs((w.progress ?? 0) - progress) >= step;
    if (w.status === state.providerStatus && !moved && w.message === message && w.logs === logs) return;
    job.written = { status: state.providerStatus, progress, message, logs };
    await s.db
      .query(
        `UPDATE jobs SET provider_status = $3, progress = $4, progress_message = $5,
                provider_logs = CASE WHEN $6 = '' THEN provider_logs ELSE $6 END,
                provider_started_at = CASE WHEN $7 THEN coalesce(provider_started_at, now()) ELSE provider_started_at END,
                updated_at = now()
          WHERE id = $1 AND run_token = $2 AND status = 'running'`,
        [
          job.row.id,
          job.token,
          state.providerStatus,
          Math.min(1, progress),
          message,
          logs,
          state.phase === 'running',
        ],
      )
      .catch(() => {
        job.written = w; // written again by the next poll
      });
  }

  private pastDeadline(job: Followed): boolean {
    return Date.now() - job.submittedAt > this.services!.config.PROVIDER_JOB_DEADLINE_SECONDS * 1000;
  }

  /**
   * Queues the end of a job: its provider's final state, or (at the deadline) its last provider status.
   * At most MAX_FINISHING download and store at once.
   */
  private finishLater(job: Followed, end: FollowedState | string): void {
    job.busy = true;
    this.finishQueue.push(() => this.finish(job, end));
    this.drainFinishes();
  }

  private drainFinishes(): void {
    while (this.finishing < MAX_FINISHING && this.finishQueue.length) {
      const next = this.finishQueue.shift()!;
      this.finishing++;
      void next().finally(() => {
        this.finishing--;
        this.drainFinishes();
      });
    }
  }

  private async finish(job: Followed, end: FollowedState | string): Promise<void> {
    const s = this.services!;
    const jobId = job.row.id;
    if (!this.jobs.has(jobId)) return;
    try {
      if (typeof end === 'string') await this.failAtDeadline(job, end);
      else await this.collect(job, end);
      this.jobs.delete(jobId);
    } catch (error) {
      // The database or the storage is away: nothing was decided. The job stays followed and is tried
      // again, and fails once it has failed MAX_FINISH_TRIES times (if the database lets us say so).
      s.log.warn('could not finish a followed job', { job_id: jobId, error: String(error) });
      if (++job.finishFailures >= MAX_FINISH_TRIES && (await this.giveUp(job, error))) return;
      job.busy = false;
      job.nextPollAt = Date.now() + 2 * this.gapMs();
    }
  }

  /** Fails a job whose finish keeps throwing; false when even that cannot be written. */
  private async giveUp(job: Followed, error: unknown): Promise<boolean> {
    const s = this.services!;
    try {
      const failed = await failJob(
        s.db,
        job.row.id,
        {
          code: 'internal_error',
          message: `The job's result could not be stored: it failed ${job.finishFailures} times on our side (${error instanceof Error ? error.message : String(error)}).`,
        },
        { runToken: job.token },
      );
      if (failed) await this.deps!.onTerminal(failed);
      this.jobs.delete(job.row.id);
      return true;
    } catch {
      return false;
    }
  }

  private async failAtDeadline(job: Followed, providerStatus: string): Promise<void> {
    const s = this.services!;
    // The cancel is tried once: a provider that cannot be reached does not keep the job open here (its
    // hold is returned either way), and the message says whether it may still run there.
    const cancelled = await job.runner.cancel(job.input).then(
      () => true,
      (error: unknown) => {
        s.log.warn('cancel at the deadline failed', {
          job_id: job.row.id,
          provider: job.row.provider,
          error: error instanceof Error ? error.message : String(error),
        });
        return false;
      },
    );
    const seconds = s.config.PROVIDER_JOB_DEADLINE_SECONDS;
    const within = seconds < 120 ? `${seconds} seconds` : `${Math.round(seconds / 60)} minutes`;
    const there = cancelled
      ? 'the job was cancelled there'
      : `${job.row.provider} could not be reached to cancel it (its job ${job.input.providerJobId}), so it may still run there`;
    const failed = await failJob(
      s.db,
      job.row.id,
      {
        code: 'provider_timeout',
        message: `${job.row.provider} did not finish within ${within}; ${there}.`,
      },
      { runToken: job.token, providerStatus },
    );
    if (failed) await this.deps!.onTerminal(failed);
  }

  /** A job its provider ended: its outputs stored and the job completed, or the provider's failure. */
  private async collect(job: Followed, state: FollowedState): Promise<void> {
    const s = this.services!;
    const deps = this.deps!;
    const jobId = job.row.id;
    await s.db.query(
      `UPDATE jobs SET provider_status = $3, provider_finished_at = coalesce(provider_finished_at, now()),
              provider_logs = CASE WHEN $4 = '' THEN provider_logs ELSE $4 END,
              progress = CASE WHEN $5 THEN 0.95 ELSE progress END,
              progress_message = CASE WHEN $5 THEN $6 ELSE progress_message END, updated_at = now()
        WHERE id = $1 AND run_token = $2 AND status = 'running'`,
      [
        jobId,
        job.token,
        state.providerStatus,
        (state.logs ?? '').slice(-MAX_LOG_CHARS),
        state.phase === 'succeeded',
        `Downloading the output from ${job.row.provider}`,
      ],
    );
    if (state.phase === 'succeeded') this.learn(job);
    const controller = new AbortController();
    let result: RunResult;
    try {
      result = await job.runner.result(job.input, state, {
        signal: controller.signal,
        download: deps.download,
      });
    } catch (error) {
      // The provider failed the job, or its output could not be fetched: the job fails, uncharged.
      const message = error instanceof Error ? error.message : String(error);
      s.log.warn('job failed', { job_id: jobId, error: message });
      const failed = await failJob(
        s.db,
        jobId,
        { code: failureCode(error), message },
        { runToken: job.token, providerStatus: state.providerStatus },
      );
      if (failed) await deps.onTerminal(failed);
      return;
    }
    await storeAndComplete(s, deps, job.row, job.token, job.input.offer, result, controller.signal);
  }

  /** The provider's time for this job feeds where the next jobs of the same offer are polled. */
  private learn(job: Followed): void {
    const took = Date.now() - job.submittedAt;
    const key = job.input.offer.pricingId;
    const before = this.typical.get(key);
    this.typical.set(key, before === undefined ? took : Math.round(before * 0.8 + took * 0.2));
  }

  /**
   * One query for all followed jobs: a job cancelled here is cancelled at its provider too; one another
   * run holds now (its lease ran out while the database was away) is dropped. Leases are renewed a few
   * times per lease, also in one statement.
   */
  private async checkOwnership(): Promise<void> {
    const s = this.services;
    if (!s || !this.jobs.size) return;
    this.checking = true;
    try {
      const followed = [...this.jobs.values()];
      const ids = followed.map((job) => job.row.id);
      const tokens = followed.map((job) => job.token);
      const { rows } = await s.db.query<{ id: string; status: string; ours: boolean }>(
        `SELECT j.id, j.status, j.run_token IS NOT DISTINCT FROM f.token AS ours
           FROM unnest($1::text[], $2::uuid[]) AS f(id, token) JOIN jobs j ON j.id = f.id`,
        [ids, tokens],
      );
      for (const row of rows) {
        const job = this.jobs.get(row.id);
        if (!job || (row.status === 'running' && row.ours)) continue;
        if (job.busy && row.ours) continue; // finishing it now
        this.jobs.delete(row.id);
        if (row.status === 'cancelled') {
          // Stop the work, and the spending, at the provider; best effort.
          await job.runner.cancel(job.input).catch((error: unknown) => {
            s.log.warn('could not cancel at the provider', { job_id: row.id, error: String(error) });
          });
        }
      }
      const renewEveryMs = (s.jobRuns.leaseSeconds * 1000) / 3;
      if (Date.now() - this.lastRenewal >= renewEveryMs) {
        this.lastRenewal = Date.now();
        await s.db.query(
          `UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3)
            WHERE (id, run_token) IN (SELECT * FROM unnest($1::text[], $2::uuid[]))
              AND ${HELD_BY_RUN}`,
          [ids, tokens, s.jobRuns.leaseSeconds],
        );
      }
      if (this.checkFailing) s.log.info('followed jobs can be checked again', { jobs: this.jobs.size });
      this.checkFailing = false;
    } catch (error) {
      if (!this.checkFailing) s.log.warn('could not check followed jobs', { error: String(error) });
      this.checkFailing = true;
    } finally {
      this.checking = false;
    }
  }
}

/** A submit whose failure leaves unknown whether the provider took the job. */
export function submitOutcomeUnknown(error: unknown): error is ProviderError {
  return error instanceof ProviderError && error.options.accepted === 'unknown';
}
