import PgBoss from 'pg-boss';
import { completeJobs, failJobsById } from 'pg-boss/src/plans.js';
import { startPresence } from '../db/instance-presence.ts';
import { namedStatements } from '../db/named-statements.ts';
import { listenForNotifications } from '../db/notifications.ts';
import { type Db, guardedPool } from '../db/pool.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { handBack } from '../domain/jobs/job-lease.ts';
import { REMOTE_JOB_CHANNEL } from '../domain/jobs/queue-names.ts';
import type { Services } from '../services.ts';
import { QUEUE_JOBS } from './jobs.ts';
import { LaneWorkers } from './lane-workers.ts';
import type { QueueJob, QueueOptions } from './queue-job.ts';
import { QUEUE_WORK_CHANNEL } from './queue-waker.ts';
import { startResumingOrphans } from './resume-orphans.ts';

/**
 * Settings of pg-boss's own connections, on the path from a new job to its start:
 * - Generic plans. Its table is partitioned by queue name, so a plan made for no particular name lists
 *   every partition and costs more on paper than one made for the name at hand: left to choose,
 *   PostgreSQL planned the named statements again at every call, and planning a fetch cost more than
 *   running it. The generic plan prunes the partitions when it runs.
 * - No wait for the disk. pg-boss's own writes (a message taken, completed or failed, its schedules and
 *   maintenance) can be lost in a crash of PostgreSQL itself and change nothing we keep: a message taken
 *   or finished again is one whose job's claim (job-lease.ts) or delivery's state (webhooks/deliveries.ts)
 *   says there is nothing to do, and both are written on our own connections, which do wait. So do the
 *   messages themselves: each is sent in the transaction of the state that asked for it.
 * Both sit on the path of every job's start (see docs/performance.md, "The job queue").
 * Set by a statement on each new connection rather than in the startup packet: PgBouncer refuses
 * settings it does not track there.
 */
const PGBOSS_SESSION = 'SET plan_cache_mode = force_generic_plan; SET synchronous_commit = off';

/** Each boss's pool closing: its last statements settle, then the pool ends (see createBoss). */
const poolsClosing = new WeakMap<PgBoss, Promise<void>>();

/**
 * The statements that complete or fail a message once its handler settled. pg-boss fires them without
 * awaiting them (manager.js, `watch`): one that failed because the database was away at that moment
 * was an unhandled rejection, and Node ended the server.
 */
const SETTLING = new Set([completeJobs('pgboss'), failJobsById('pgboss')]);
/** How long a message's completion is tried again while the database is away, and the pause between tries. */
const SETTLE_TRY_MS = 120_000;
const SETTLE_PAUSE_MS = [250, 500, 1_000, 2_000];

/**
 * Runs a completion (SETTLING) until it lands, never rejecting: while the database is away it is tried
 * again, so the message is completed or failed (and then retried by the queue) once the database is back,
 * instead of staying taken until it expires. Gives up when the boss closes, after SETTLE_TRY_MS, or on any
 * other error, which goes to the boss's 'error' event. Answers undefined then, as pg-boss's own closed
 * pool does (pg-boss reads no result it did not await).
 */
async function settleMessage(
  run: () => Promise<unknown>,
  closed: () => boolean,
  report: (error: unknown) => void,
): Promise<never> {
  const deadline = Date.now() + SETTLE_TRY_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return (await run()) as never;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || closed() || Date.now() > deadline) {
        if (!closed()) report(error);
        return undefined as never;
      }
    }
    const pause = SETTLE_PAUSE_MS[Math.min(attempt, SETTLE_PAUSE_MS.length - 1)];
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * pg-boss on a pool of its own whose statements are named (db/named-statements.ts); the pool closes when
 * pg-boss has stopped and its statements still running have settled. pg-boss does not await the
 * statement that completes or fails a message once its handler returns: ending the pool (or dropping
 * the database) under one turned it into an unhandled rejection ("terminating connection due to
 * administrator command"), so stop waits for them.
 */
export function createBoss(databaseUrl: string, maintenanceIntervalSeconds: number): PgBoss {
  const pool = guardedPool({
    connectionString: databaseUrl,
    max: 10,
    application_name: 'pgboss',
    // Awaited by the pool before the new connection runs the statement it was opened for.
    onConnect: (client) => client.query(PGBOSS_SESSION),
  });
  const statements = namedStatements(pool);
  const running = new Set<Promise<unknown>>();
  let closed = false;
  const db = {
    // As pg-boss's own pool does once closed: work that ends after the stop (failing its message) gets
    // no answer instead of an error.
    executeSql: (text: string, values: unknown[]) => {
      if (closed) return Promise.resolve(undefined as never);
      const statement = SETTLING.has(text)
        ? settleMessage(
            () => statements.executeSql(text, values),
            () => closed,
            (error) => reportError(error),
          )
        : statements.executeSql(text, values);
      running.add(statement);
      const settled = () => running.delete(statement);
      statement.then(settled, settled);
      return statement;
    },
  };
  // Maintenance also notices runs whose lease expired (a killed worker) and hands them out again.
  const boss = new PgBoss({ db, schema: 'pgboss', maintenanceIntervalSeconds });
  // A connection lost while idle (a database restart) is the queue's error to log, not a crash; before the
  // queue's listener is on (startQueue), emitting 'error' with no listener would itself throw.
  const reportError = (error: unknown) => {
    if (boss.listenerCount('error') > 0) boss.emit('error', error);
  };
  pool.on('error', reportError);
  boss.once('stopped', () => {
    closed = true;
    const closing = Promise.allSettled([...running])
      .then(() => pool.end())
      .catch(() => {});
    poolsClosing.set(boss, closing);
  });
  return boss;
}

/** Resolves when a stopped boss's pool has closed (at once for a boss not made by createBoss). */
export async function bossPoolClosed(boss: PgBoss): Promise<void> {
  await poolsClosing.get(boss);
}

/**
 * pg-boss's createQueue makes a table per queue: processes starting at once on a new database deadlock
 * there ("deadlock detected" and a failed start). One at a time, under a session advisory lock.
 */
async function underQueueSetupLock(db: Db, work: () => Promise<void>): Promise<void> {
  const client = await db.connect();
  try {
    await client.query('SELECT pg_advisory_lock(7226102)');
    await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock(7226102)').catch(() => {});
    client.release();
  }
}

const optionsOf = (job: QueueJob, services: Services): QueueOptions | undefined =>
  typeof job.options === 'function' ? job.options(services.config) : job.options;

/** True when the stored queue has every option we set (options we leave unset are pg-boss's business). */
function sameOptions(queue: object, options: QueueOptions | undefined): boolean {
  const stored = queue as Record<string, unknown>;
  return Object.entries(options ?? {}).every(([name, value]) => stored[name] === value);
}

export interface Queue {
  stop(): Promise<void>;
}

/**
 * Names a queue with work that the sending process could not start at once (it runs no workers, or all
 * of its workers are busy): the worker processes on the same database wake one of theirs instead of
 * waiting for their lane's next poll.
 */

/**
 * Creates the queues (and schedules) missing or changed, under the setup lock (startBoss). On an existing
 * database everything is usually in place: one read of the queues and schedules, and only what is
 * missing or changed is written (each write was a round trip at every start).
 */
async function createMissingQueues(services: Services): Promise<void> {
  const { boss } = services;
  const [queues, schedules] = await Promise.all([boss.getQueues(), boss.getSchedules()]);
  const existing = new Map(queues.map((queue) => [queue.name, queue]));
  const scheduled = new Set(schedules.map((schedule) => `${schedule.name} ${schedule.cron}`));
  for (const job of QUEUE_JOBS) {
    const queue = existing.get(job.name);
    const options = optionsOf(job, services);
    if (!queue || !sameOptions(queue, options)) {
      await boss.createQueue(job.name, { name: job.name, ...options });
      // An existing queue keeps its old options unless updated (a changed JOB_LEASE_SECONDS, say).
      if (options) await boss.updateQueue(job.name, { name: job.name, ...options });
    }
    if (job.cron && !scheduled.has(`${job.name} ${job.cron}`)) await boss.schedule(job.name, job.cron);
  }
}

/**
 * Starts pg-boss and creates our queues, one process at a time (the setup lock). Creating queues deadlocks
 * across processes: each creation inserts its queue's row, then adds a foreign key to that table, which
 * waits for the other's insert. pg-boss's own start creates a queue too (its cron queue, ignoring a
 * failure), so two processes starting at once on a new database could make ours the one PostgreSQL
 * aborted ("deadlock detected", a failed start); both creations now happen under the lock. On a database
 * already set up, nothing is created and the lock costs a few milliseconds.
 */
async function startBoss(services: Services): Promise<void> {
  await underQueueSetupLock(services.db, async () => {
    await services.boss.start();
    await createMissingQueues(services);
  });
}

/**
 * Starts pg-boss (services.boss) and its queues; with `work`, this process also runs the workers.
 * pg-boss's own schema, its queues and this process's presence lock need nothing of ours, so they are
 * set up at once, beside our migrations; the workers start once `schemaReady` (the migrations) is done
 * (tests that migrated first leave it out). With `sharedDatabaseUrl` (a database other processes may
 * use), work this process cannot start at once is announced on QUEUE_WORK_CHANNEL, and a working
 * process listens there.
 */
export async function startQueue(
  services: Services,
  role: { work: boolean; sharedDatabaseUrl?: string | undefined },
  schemaReady: Promise<unknown> = Promise.resolve(),
): Promise<Queue> {
  const { boss, log } = services;
  let stopping = false;
  // While stopping, its connections closing under it are expected, not errors.
  boss.on('error', (error) => {
    if (!stopping) log.error('queue error', { error: String(error) });
  });
  // Who this process is to the others, before it takes any job: the jobs it runs carry its key.
  const presenceHeld = role.work ? startPresence(services.db, log) : undefined;
  const lanes = new Map<string, LaneWorkers>();
  const shared = role.sharedDatabaseUrl;
  const announced =
    role.work && shared
      ? listenForNotifications(shared, QUEUE_WORK_CHANNEL, (name) => services.queueWaker.woken(name))
      : undefined;
  // A provider's webhook received by another process, about a job this one follows: poll it now.
  const webhooked =
    role.work && shared
      ? listenForNotifications(shared, REMOTE_JOB_CHANNEL, (jobId) =>
          services.remoteJobs.deliver(jobId, null),
        )
      : undefined;
  const settled = await Promise.allSettled([
    presenceHeld,
    startBoss(services),
    schemaReady,
    announced,
    webhooked,
  ]);
  const presence = (settled[0].status === 'fulfilled' && settled[0].value) || null;
  const stopAnnounced = (settled[3].status === 'fulfilled' && settled[3].value) || null;
  const stopWebhooked = (settled[4].status === 'fulfilled' && settled[4].value) || null;
  const stopListening = async () => {
    await stopAnnounced?.();
    await stopWebhooked?.();
  };
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) {
    stopping = true;
    await stopListening();
    await presence?.stop();
    await boss.stop({ graceful: false, wait: true }).catch(() => {});
    await bossPoolClosed(boss);
    throw failed.reason;
  }
  services.jobRuns.presence = presence;
  if (role.work) {
    for (const job of QUEUE_JOBS) {
      const options = { workers: job.workers ?? 1, pollingIntervalSeconds: job.pollingIntervalSeconds };
      lanes.set(
        job.name,
        await LaneWorkers.start(boss, job.name, options, (data) => job.handle(services, data)),
      );
    }
  }
  services.queueWaker.attach(lanes, Boolean(shared));
  const resumer = role.work ? startResumingOrphans(services) : null;
  return {
    stop: async () => {
      stopping = true;
      resumer?.stop();
      await stopListening();
      for (const lane of lanes.values()) lane.stop();
      // No new work; running jobs get the drain time to finish, then go back to the queue at once.
      for (const job of QUEUE_JOBS) await boss.offWork(job.name);
      // Jobs followed at their providers go back to the queue at once: the next worker follows them on.
      const followed = await services.remoteJobs.stop().catch((error) => {
        log.error('could not hand back followed jobs', { error: String(error) });
        return [];
      });
      if (followed.length)
        log.info('handed back jobs followed at their providers', { jobs: followed.length });
      const unfinished = await services.jobRuns.drain(services.config.JOB_DRAIN_SECONDS * 1000);
      if (unfinished.length) {
        const handedBack = await handBack(services, unfinished).catch((error) => {
          log.error('could not hand back unfinished jobs', { error: String(error) });
          return [];
        });
        log.info('handed back unfinished jobs', { jobs: handedBack });
        services.jobRuns.abort(unfinished);
      }
      // Other work (webhook tries) ends, or is failed back to the queue, before the database goes.
      await boss.stop({ graceful: true, timeout: 10_000, wait: true });
      await bossPoolClosed(boss);
      await services.jobRuns.presence?.stop();
    },
  };
}
