import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type Client, createClient } from '../src/client/create-client.ts';
import type { Job } from '../src/contract/jobs.ts';
import { freePort } from '../src/server/db/embedded.ts';
import { percentile, signIn } from './jobs.ts';

/*
 * The queue under a burst: `jobs` local-sketch jobs (cache off, so each runs the engine) created at once
 * against a fresh server, then how fast the backlog drains and how long the jobs waited in the queue,
 * all from the database's own stamps (created_at, started_at, completed_at). Before it, single jobs on
 * an idle queue: started_at − created_at, the queue's own latency. `npx tsx bench/burst.ts`.
 */

/** The checkout whose server runs: this one, or another (BENCH_ROOT) to compare two versions side by side. */
const root = path.resolve(process.env.BENCH_ROOT ?? path.join(import.meta.dirname, '..'));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round1 = (value: number) => Math.round(value * 10) / 10;
const ACTIVE = 'queued,submitting,running';
/** Job creation is limited to 300 a minute per key (JOB_CREATION_LIMIT). */
const JOBS_PER_KEY = 250;

export interface BenchServer {
  origin: string;
  /** The server's own process (node), for reading its memory. */
  pid: number;
  /** A connection to the server's embedded database, for stamps finer than the API's milliseconds. */
  database(): Promise<pg.Client>;
  stop(): Promise<void>;
}

/**
 * `npm start`'s script on a fresh data directory and a free port, run by node itself (no tsx wrapper
 * process in between), so `pid` is the server's.
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-'));
  // A port given in `env` is kept: a server whose PUBLIC_URL is its own origin needs it before it starts.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  // BENCH_NODE_ARGS: node flags for a profile (`--cpu-prof`, `--heapsnapshot-signal=SIGUSR2`).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      SIGNUP_CREDITS: '10000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForReady(child);
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    async database() {
      // The cluster's port is the fourth line of its postmaster.pid; the password is the data dir's own.
      const pid = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
      const client = new pg.Client({
        host: '127.0.0.1',
        port: Number(pid.split('\n')[3]),
        user: 'postgres',
        password: (await fs.readFile(path.join(dataDir, 'postgres-password'), 'utf8')).trim(),
        database: 'media_console',
      });
      await client.connect();
      return client;
    },
    async stop() {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code}:\n${output}`));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!/Media Console is running at/.test(output)) return;
      // From here on the output is drained unread: logging costs the server, not this process.
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
}

export function createSketch(client: Client, prompt: string) {
  return client.createImage({ body: { model: 'local-sketch', prompt, options: { cache: false } } });
}

/** Signed-in clients, enough keys for `jobs` creations within the per-key rate limit. */
export async function benchClients(origin: string, jobs: number, label: string): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < Math.max(1, Math.ceil(jobs / JOBS_PER_KEY)); i++) {
    const token = await signIn(origin, `bench-${label}-${i}@example.com`);
    clients.push(createClient({ baseUrl: `${origin}/v2`, token }));
  }
  return clients;
}

/** Creates `jobs` jobs, `parallel` requests at a time, spread over the clients' keys. */
export async function createBurst(clients: Client[], jobs: number, parallel = 16): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < jobs) {
        const i = next++;
        const client = clients[Math.floor(i / JOBS_PER_KEY) % clients.length]!;
        ids.push((await createSketch(client, `burst ${i}`)).id);
      }
    }),
  );
  return ids;
}

/** Waits until none of the clients' jobs is active (one cheap list call per key, every 250 ms). */
export async function waitForIdleQueue(clients: Client[], timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const pages = await Promise.all(clients.map((c) => c.listJobs({ query: { status: ACTIVE, limit: 1 } })));
    if (pages.every((p) => p.data.length === 0)) return;
    await sleep(250);
  }
  throw new Error('jobs still active after the timeout');
}

async function allJobs(client: Client): Promise<Job[]> {
  const jobs: Job[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listJobs({ query: { limit: 100, ...(cursor ? { cursor } : {}) } });
    jobs.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return jobs;
}

const ms = (from: string | null, to: string | null) =>
  from && to ? Date.parse(to) - Date.parse(from) : null;
const spread = (values: number[]) => ({
  p50: round1(percentile(values, 0.5)),
  p95: round1(percentile(values, 0.95)),
  max: round1(percentile(values, 1)),
});

export interface BurstResult {
  single: { jobs: number; queueMs: ReturnType<typeof spread> };
  burst: {
    jobs: number;
    completed: number;
    seconds: number;
    jobsPerSecond: number;
    queueWaitMs: ReturnType<typeof spread>;
  };
}

/**
 * Single jobs on an idle queue: each created, then waited for, before the next. The wait is read from
 * the database's own stamps in microseconds: the API's milliseconds made every p50 a whole number, too
 * coarse for a target of 5 ms.
 */
async function singleJobs(server: BenchServer, client: Client, jobs: number) {
  const ids: string[] = [];
  for (let i = 0; i < jobs; i++) {
    const { id } = await createSketch(client, `single ${i}`);
    ids.push(id);
    let job = await client.getJob({ params: { id } });
    while (!job.completed_at) {
      await sleep(50);
      job = await client.getJob({ params: { id } });
    }
  }
  const db = await server.database();
  try {
    const { rows } = await db.query<{ ms: number }>(
      `SELECT extract(epoch FROM started_at - created_at)::float8 * 1000 AS ms
         FROM jobs WHERE id = ANY($1) AND started_at IS NOT NULL`,
      [ids],
    );
    return { jobs, queueMs: spread(rows.map((row) => row.ms)) };
  } finally {
    await db.end();
  }
}

export async function benchBurst(options: { jobs: number; singles: number }): Promise<BurstResult> {
  const server = await startBenchServer();
  try {
    const [single] = await benchClients(server.origin, 1, 'single');
    // Warm up: the first run loads the engine (sharp) and fills the pools.
    await singleJobs(server, single!, 3);
    const singleResult = await singleJobs(server, single!, options.singles);
    const clients = await benchClients(server.origin, options.jobs, 'burst');
    await createBurst(clients, options.jobs);
    await waitForIdleQueue(clients);
    const jobs = (await Promise.all(clients.map(allJobs))).flat();
    const completed = jobs.filter((j) => j.status === 'completed');
    const first = Math.min(...jobs.map((j) => Date.parse(j.created_at)));
    const last = Math.max(...completed.map((j) => Date.parse(j.completed_at!)));
    const seconds = (last - first) / 1000;
    return {
      single: singleResult,
      burst: {
        jobs: jobs.length,
        completed: completed.length,
        seconds: round1(seconds),
        jobsPerSecond: round1(completed.length / seconds),
        queueWaitMs: spread(completed.map((j) => ms(j.created_at, j.started_at)!)),
      },
    };
  } finally {
    await server.stop();
  }
}

/** One line per figure, each beside its baseline (issue #14, measured before the fix) and target. */
export function formatBurst(result: BurstResult): string[] {
  const { single, burst } = result;
  return [
    `queue burst: ${burst.completed} of ${burst.jobs} local-sketch jobs created at once drained at ${burst.jobsPerSecond} jobs/s (${burst.seconds} s, first created_at to last completed_at) | before: 7.6–7.8 jobs/s | target: ≥ 14 jobs/s`,
    `queue burst wait (started_at − created_at): p50 ${burst.queueWaitMs.p50} ms, p95 ${burst.queueWaitMs.p95} ms, max ${burst.queueWaitMs.max} ms | before: p50 12.5 s, p95 23.5 s | target: p95 < 15 s`,
    `single job on an idle queue (started_at − created_at, ${single.jobs} jobs one at a time): p50 ${single.queueMs.p50} ms, p95 ${single.queueMs.p95} ms | before: p50 7–9 ms, p95 12–15 ms | target: p50 < 5 ms`,
  ];
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const jobs = Number(process.env.BURST_JOBS ?? 200);
  const result = await benchBurst({ jobs, singles: Number(process.env.BURST_SINGLES ?? 30) });
  for (const line of formatBurst(result)) console.log(line);
}
