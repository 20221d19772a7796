import pg from 'pg';
import { type Client, createClient } from '../src/client/create-client.ts';
import { machinePostgresReachable, startCluster } from '../src/server/testing/cluster.ts';
import { percentile, signIn } from './jobs.ts';

/*
 * `BENCH_ONLY=scale npm run bench`: jobs per second end to end (local-sketch, cache off) with one and with
 * two worker processes behind two apis on the machine's PostgreSQL, one after the other in the same run,
 * and the queue's 202 → running latency under that load. 1,000 jobs each by default (SCALE_BENCH_JOBS).
 */

const JOBS = Number(process.env.SCALE_BENCH_JOBS ?? 1000);
/** Job creation is limited to 300 a minute per key: each key creates at most this many. */
const JOBS_PER_KEY = 250;
const CONCURRENCY = 16;
/** One job in this many is followed from its 202 until a status poll sees it running. */
const SAMPLE_EVERY = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round1 = (v: number) => Math.round(v * 10) / 10;
const spread = (values: number[]) => ({
  p50: round1(percentile(values, 0.5)),
  p95: round1(percentile(values, 0.95)),
  max: round1(percentile(values, 1)),
});

async function waitRunning(client: Client, id: string, accepted: number): Promise<number> {
  for (;;) {
    const { status } = await client.getJobStatus({ params: { id } });
    if (status !== 'queued') return performance.now() - accepted;
    await sleep(20);
  }
}

async function oneSetup(workers: number) {
  const cluster = await startCluster({ apis: 2, workers });
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  await db.connect();
  try {
    const keys = await Promise.all(
      Array.from({ length: Math.ceil(JOBS / JOBS_PER_KEY) }, (_, i) =>
        signIn(cluster.apis[0]!.url, `scale-bench-${i}@example.com`),
      ),
    );
    const clientsPerApi = cluster.apis.map((api) =>
      keys.map((token) => createClient({ baseUrl: `${api.url}/v2`, token })),
    );
    const toRunningMs: Promise<number>[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < JOBS) {
          const i = next++;
          const client = clientsPerApi[i % cluster.apis.length]![Math.floor(i / JOBS_PER_KEY)]!;
          const job = await client.createImage({
            body: { model: 'local-sketch', prompt: `scale bench ${i}`, options: { cache: false } },
          });
          if (i % SAMPLE_EVERY === 0) toRunningMs.push(waitRunning(client, job.id, performance.now()));
        }
      }),
    );
    const createdSeconds = (performance.now() - started) / 1000;
    const sampled = await Promise.all(toRunningMs);
    for (;;) {
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'cancelled')`,
      );
      if (rows[0]!.n === 0) break;
      await sleep(250);
    }
    const { rows } = await db.query<{ completed: number; failed: number; seconds: number }>(
      `SELECT count(*) FILTER (WHERE status = 'completed')::int AS completed,
              count(*) FILTER (WHERE status <> 'completed')::int AS failed,
              extract(epoch FROM max(completed_at) - min(created_at))::float8 AS seconds
         FROM jobs`,
    );
    const { rows: waits } = await db.query<{ ms: number }>(
      `SELECT extract(epoch FROM started_at - created_at)::float8 * 1000 AS ms FROM jobs WHERE started_at IS NOT NULL`,
    );
    const { completed, failed, seconds } = rows[0]!;
    return {
      workers,
      apis: cluster.apis.length,
      jobs: JOBS,
      completed,
      failed,
      seconds: round1(seconds),
      createdSeconds: round1(createdSeconds),
      jobsPerSecond: round1(completed / seconds),
      serverQueueMs: spread(waits.map((w) => w.ms)),
      clientToRunningMs: spread(sampled),
      sampled: sampled.length,
    };
  } finally {
    await db.end();
    await cluster.stop();
  }
}

export async function benchScale() {
  if (!(await machinePostgresReachable())) {
    return { skipped: 'no PostgreSQL at 127.0.0.1:5432 (trust authentication); set MACHINE_PG_URL' };
  }
  const one = await oneSetup(1);
  const two = await oneSetup(2);
  return { one, two, speedup: round1((two.jobsPerSecond / one.jobsPerSecond) * 100) / 100 };
}

type ScaleResult = Awaited<ReturnType<typeof benchScale>>;

export function scaleLines(r: ScaleResult): string {
  if ('skipped' in r) return `scale: skipped, ${r.skipped}\n`;
  const line = (s: typeof r.one) =>
    `scale: ${s.workers} worker process${s.workers > 1 ? 'es' : ''} behind ${s.apis} apis: ${s.completed} of ${s.jobs} local-sketch jobs (cache off, ${CONCURRENCY} created at a time) in ${s.seconds} s = ${s.jobsPerSecond} jobs/s${s.failed ? `, ${s.failed} not completed` : ''}; started_at − created_at p50 ${s.serverQueueMs.p50} ms, p95 ${s.serverQueueMs.p95} ms; client 202 → running (1 in ${SAMPLE_EVERY}, polled every 20 ms) p50 ${s.clientToRunningMs.p50} ms, p95 ${s.clientToRunningMs.p95} ms\n`;
  return `${line(r.one)}${line(r.two)}scale: two workers / one = ${r.speedup}x\n`;
}
