import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createClient } from '../../client/create-client.ts';
import { JOB_CREATION_LIMIT } from '../http/routes/generation.ts';
import {
  type Cluster,
  type ClusterProcess,
  MACHINE_PG_URL,
  machinePostgresReachable,
  startCluster,
} from '../testing/cluster.ts';
import { signInOn } from '../testing/server-journeys.ts';

/**
 * The issue asks for 1,000 jobs; on this 2-core machine that is minutes, so `npm test` makes SCALE_JOBS
 * (default 120) and `SCALE_JOBS=1000 npx vitest run src/server/ops/scale.test.ts` makes the full run.
 */
const JOBS = Number(process.env.SCALE_JOBS ?? 120);
/** Jobs per key: under the per-key creation limit for one window, so no creation is refused with 429. */
const JOBS_PER_KEY = JOB_CREATION_LIMIT.limit - 50;
/** How long the jobs may take to end once created: generous for a loaded machine (~3 jobs/s at worst). */
const DRAIN_MS = Math.max(90_000, JOBS * 350);
const reachable = await machinePostgresReachable();
if (!reachable) {
  process.stderr.write(
    `scale.test.ts: SKIPPED, no PostgreSQL answers at ${MACHINE_PG_URL} (trust authentication); set MACHINE_PG_URL to run it\n`,
  );
}

describe.skipIf(!reachable)('two api and two worker processes on one PostgreSQL', () => {
  let cluster: Cluster;
  let db: pg.Client;
  beforeAll(async () => {
    // Claimed jobs of a killed worker come back within seconds (its presence lock is gone); a job whose
    // queue message it had taken but not yet claimed gets a new message after 30 s (the stranded sweep),
    // not after JOB_LEASE_SECONDS, which stays at the harness's 10 minutes here.
    cluster = await startCluster({ apis: 2, workers: 2 });
    db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await cluster?.stop();
  }, 60_000);

  it('answers health and readiness on every process, a worker on its own listener', async () => {
    for (const p of [...cluster.apis, ...cluster.workers]) {
      expect((await fetch(`${p.url}/healthz`)).status).toBe(200);
      const ready = await fetch(`${p.url}/readyz`);
      expect(await ready.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', queue: 'ok', storage: 'ok' },
      });
    }
    const onWorker = await fetch(`${cluster.workers[0]!.url}/v2/jobs`);
    expect(onWorker.status).toBe(404);
  });

  it(
    `${JOBS} jobs through both apis, one worker killed (SIGKILL) and restarted: each ends once, charged once`,
    async () => {
      const [apiA, apiB] = cluster.apis;
      const person = await signInOn(apiA!.url, 'scale@example.com');
      // Each key creates at most JOBS_PER_KEY jobs, spread over both apis.
      const app = createClient({ baseUrl: `${apiA!.url}/v2`, token: person.accessToken });
      const keys = [person.apiKey];
      while (keys.length * JOBS_PER_KEY < JOBS)
        keys.push((await app.createApiKey({ body: { name: `scale ${keys.length}` } })).api_key);
      const clients: Client[] = keys.flatMap((token) =>
        [apiA!, apiB!].map((api) => createClient({ baseUrl: `${api.url}/v2`, token })),
      );
      const { rows: before } = await db.query<{ balance_cents: number }>(
        'SELECT balance_cents::int AS balance_cents FROM teams',
      );
      const credit = before[0]!.balance_cents;

      const ids: string[] = [];
      const began = Date.now();
      let next = 0;
      const victim = cluster.workers[0]!;
      let restarted: Promise<unknown> | null = null;
      // Eight requests in flight, alternating apis; a third of the way through, the worker dies mid-job.
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < JOBS) {
            const i = next++;
            if (i === Math.floor(JOBS / 3) && !restarted)
              restarted = killInMidJob(victim, db).then(() => cluster.restart(victim));
            // Distinct prompts: a repeated one would be answered from the result cache, uncharged.
            const job = await clients[i % clients.length]!.createImage({
              body: { model: 'local-sketch', prompt: `scale ${i}` },
            });
            ids.push(job.id);
          }
        }),
      );
      await restarted;
      const created = Date.now();

      const deadline = Date.now() + DRAIN_MS;
      let open = ids.length;
      while (open > 0 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500));
        const { rows } = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'cancelled')`,
        );
        open = Number(rows[0]!.n);
      }
      if (open > 0) {
        const { rows: stuck } = await db.query(
          `SELECT id, status, provider_status, started_at, updated_at FROM jobs
          WHERE status NOT IN ('completed', 'failed', 'cancelled') LIMIT 5`,
        );
        expect.fail(`${open} jobs still open after ${DRAIN_MS / 1000} s, e.g. ${JSON.stringify(stuck)}`);
      }
      process.stderr.write(
        `scale.test.ts: ${JOBS} jobs created in ${created - began} ms, all ended ${Date.now() - created} ms later\n`,
      );

      const { rows: jobs } = await db.query<{
        id: string;
        status: string;
        actual_cost_cents: number;
        files: number;
      }>(
        `SELECT j.id, j.status, j.actual_cost_cents::int AS actual_cost_cents,
              (SELECT count(*)::int FROM files f WHERE f.job_id = j.id) AS files
         FROM jobs j`,
      );
      expect(jobs).toHaveLength(JOBS);
      expect(new Set(jobs.map((j) => j.id))).toEqual(new Set(ids));
      for (const job of jobs) {
        expect(job, job.id).toMatchObject({ status: 'completed', actual_cost_cents: 1, files: 1 });
      }

      // One hold, one release and one settle per job: nothing charged twice, no hold lost.
      const { rows: ledger } = await db.query<{ job_id: string; kind: string; n: string; cents: string }>(
        `SELECT job_id, kind, count(*) AS n, sum(delta_cents) AS cents
         FROM credit_ledger WHERE job_id IS NOT NULL GROUP BY job_id, kind`,
      );
      const perJob = new Map<string, Record<string, string>>();
      for (const row of ledger)
        perJob.set(row.job_id, { ...perJob.get(row.job_id), [row.kind]: `${row.n}x${row.cents}` });
      for (const id of ids)
        expect(perJob.get(id), id).toEqual({ hold: '1x-1', release: '1x1', settle: '1x-1' });
      const { rows: totals } = await db.query<{ balance_cents: number; ledger_sum: string; grants: string }>(
        `SELECT t.balance_cents::int AS balance_cents,
              (SELECT sum(delta_cents)::text FROM credit_ledger l WHERE l.team_id = t.id) AS ledger_sum,
              (SELECT sum(delta_cents) FROM credit_ledger l WHERE l.team_id = t.id AND l.kind = 'grant')::text AS grants
         FROM teams t`,
      );
      expect(totals).toEqual([
        { balance_cents: credit - JOBS, ledger_sum: String(credit - JOBS), grants: String(credit) },
      ]);

      // The job id runs through the logs: each created once by an api, each run by a worker that says so.
      const apiLogs = cluster.processes.filter((p) => p.role === 'api').map((p) => p.output());
      const workerLogs = cluster.processes
        .filter((p) => p.role === 'worker')
        .map((p) => p.output())
        .join('\n');
      for (const id of ids) {
        const created = apiLogs.join('\n').match(new RegExp(`"msg":"job created","job_id":"${id}"`, 'g'));
        expect(created, id).toHaveLength(1);
        expect(workerLogs, id).toContain(`"msg":"job started","job_id":"${id}"`);
      }
      expect(apiLogs.every((log) => log.includes('"msg":"job created"'))).toBe(true);
      expect(workerLogs).toContain('resuming jobs whose run is gone');

      // Every job's outcome is counted by the process that finished it (the killed one's count died with it).
      // A process killed by a signal has a null exit code too: its signal tells it apart from the live ones
      // (its restart listens on the same port, so counting it would count the restart twice).
      let counted = 0;
      for (const worker of cluster.processes.filter(
        (p) => p.role === 'worker' && p.child.exitCode === null && p.child.signalCode === null,
      )) {
        const text = await (await fetch(`${worker.url}/metrics`)).text();
        const line = text.match(/^jobs_finished_total\{[^}]*status="completed"[^}]*\} (\d+)$/m);
        counted += Number(line?.[1] ?? 0);
      }
      expect(counted).toBeGreaterThan(0);
      expect(counted).toBeLessThanOrEqual(JOBS);
    },
    150_000 + DRAIN_MS + JOBS * 100,
  );
});

/** SIGKILLs the worker while a job it logged as started is still running, so its crash leaves work behind. */
async function killInMidJob(worker: ClusterProcess, db: pg.Client): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const started = [...worker.output().matchAll(/"msg":"job started","job_id":"([^"]+)"/g)].map(
      (m) => m[1]!,
    );
    if (started.length) {
      const { rows } = await db.query(
        `SELECT 1 FROM jobs WHERE id = ANY($1) AND status IN ('submitting', 'running')`,
        [started],
      );
      if (rows.length) break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  process.kill(worker.pid, 'SIGKILL');
  await worker.exited;
}
