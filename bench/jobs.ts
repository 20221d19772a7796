import { type Client, createClient } from '../src/client/create-client.ts';

/*
 * Job-engine timings against a running server (started by bench/run.ts with SIGNUP_CREDITS raised):
 * how long a trivial local job waits in the queue, and how many such jobs the server completes per second.
 * Jobs are local-sketch with the result cache off, so every one runs the engine.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** Job creation is limited to 300 a minute per key (JOB_CREATION_LIMIT): each key creates fewer than that. */
const JOBS_PER_KEY = 250;

/** Nearest-rank percentile of unsorted values; NaN when there are none. */
export function percentile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const spread = (values: number[]) => ({
  p50: round1(percentile(values, 0.5)),
  p95: round1(percentile(values, 0.95)),
  max: round1(percentile(values, 1)),
});

/** Signs in through the dev mailbox (sendOtp → devMailbox → verifyOtp) and answers the account's API key. */
export async function signIn(origin: string, email: string): Promise<string> {
  const anonymous = createClient({ baseUrl: `${origin}/v2` });
  await anonymous.sendOtp({ body: { email } });
  const { data } = await anonymous.devMailbox({ query: { to: email } });
  const code = data[0]?.code;
  if (!code) throw new Error(`no sign-in code in the dev mailbox for ${email}`);
  return (await anonymous.verifyOtp({ body: { email, code } })).api_key;
}

function createSketch(client: Client, prompt: string) {
  return client.createImage({ body: { model: 'local-sketch', prompt, options: { cache: false } } });
}

interface LatencyOptions {
  jobs: number;
  /** Pause between two status polls of the same job. */
  pollMs: number;
  /** Stop creating jobs after this long (the report says how many ran). */
  budgetSeconds: number;
}

/**
 * Queue latency: jobs created one at a time, each polled on GET /v2/jobs/{id}/status until terminal.
 * Server side: started_at − created_at of the job (both stamped by the database). Client side, from the
 * 202: the first poll that saw `running` or later, and the first that saw `completed`.
 */
async function benchQueueLatency(client: Client, options: LatencyOptions) {
  const serverQueueMs: number[] = [];
  const serverRunMs: number[] = [];
  const clientRunningMs: number[] = [];
  const clientCompletedMs: number[] = [];
  let runningSeen = 0;
  let failed = 0;
  let sampleJobId: string | null = null;
  const deadline = performance.now() + options.budgetSeconds * 1000;
  let created = 0;
  while (created < options.jobs && performance.now() < deadline) {
    const job = await createSketch(client, `bench latency ${created}`);
    const accepted = performance.now();
    created++;
    let runningAt: number | null = null;
    let status: string = job.status;
    let polls = 0;
    let sawRunning = false;
    while (!TERMINAL.has(status)) {
      if (polls++ > 0) await sleep(options.pollMs);
      const view = await client.getJobStatus({ params: { id: job.id } });
      status = view.status;
      if (status === 'running') sawRunning = true;
      if (runningAt === null && (status === 'running' || TERMINAL.has(status))) runningAt = performance.now();
    }
    const completedAt = performance.now();
    if (sawRunning) runningSeen++;
    if (status !== 'completed') {
      failed++;
      continue;
    }
    const full = await client.getJob({ params: { id: job.id } });
    sampleJobId ??= full.id;
    const createdMs = Date.parse(full.created_at);
    if (full.started_at) serverQueueMs.push(Date.parse(full.started_at) - createdMs);
    if (full.started_at && full.completed_at) {
      serverRunMs.push(Date.parse(full.completed_at) - Date.parse(full.started_at));
    }
    clientRunningMs.push((runningAt ?? completedAt) - accepted);
    clientCompletedMs.push(completedAt - accepted);
  }
  return {
    jobs: created,
    completed: clientCompletedMs.length,
    failed,
    pollMs: options.pollMs,
    budgetHit: created < options.jobs,
    serverQueueMs: spread(serverQueueMs),
    serverRunMs: spread(serverRunMs),
    clientToRunningMs: spread(clientRunningMs),
    clientToCompletedMs: spread(clientCompletedMs),
    /** Jobs whose `running` state a poll caught (the others were first seen completed). */
    runningSeen,
    sampleJobId,
  };
}

interface ThroughputOptions {
  jobs: number;
  concurrency: number;
  pollMs: number;
  /** Stop creating jobs after this long; jobs already created are still waited for. */
  budgetSeconds: number;
  /** Give up on jobs still not terminal this long after the budget. */
  drainSeconds: number;
}

/**
 * End-to-end: `concurrency` lanes each create a job and poll its status (every `pollMs`, sparingly: the
 * polls share the machine with the worker) until it ends, then take the next.
 */
async function benchThroughput(clients: Client[], options: ThroughputOptions) {
  const started = performance.now();
  const budgetEnd = started + options.budgetSeconds * 1000;
  const drainEnd = budgetEnd + options.drainSeconds * 1000;
  let next = 0;
  let completed = 0;
  let failed = 0;
  let unfinished = 0;
  let lastCompleted = started;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.jobs && performance.now() < budgetEnd) {
        const i = next++;
        const client = clients[Math.floor(i / JOBS_PER_KEY) % clients.length]!;
        const job = await createSketch(client, `bench throughput ${i}`);
        let status: string = job.status;
        while (!TERMINAL.has(status) && performance.now() < drainEnd) {
          await sleep(options.pollMs);
          status = (await client.getJobStatus({ params: { id: job.id } })).status;
        }
        if (status === 'completed') {
          completed++;
          lastCompleted = performance.now();
        } else if (TERMINAL.has(status)) failed++;
        else {
          unfinished++;
          // Out of time: cancel it, so it does not run under the measurements that follow.
          await client.cancelJob({ params: { id: job.id } }).catch(() => {});
        }
      }
    }),
  );
  // From the first creation to the last completion.
  const seconds = (lastCompleted - started) / 1000;
  return {
    jobs: next,
    requested: options.jobs,
    concurrency: options.concurrency,
    completed,
    failed,
    unfinished,
    seconds: round1(seconds),
    jobsPerSecond: Math.round((completed / seconds) * 100) / 100,
  };
}

export interface JobBenchOptions {
  latency: LatencyOptions;
  throughput: ThroughputOptions;
}

/**
 * Runs both job benchmarks against the server at `origin` (`http://127.0.0.1:PORT`) and answers their
 * results, plus a completed job and a key that can read it (for the GET /v2/jobs/{id} comparison).
 */
export async function benchJobs(origin: string, options: JobBenchOptions) {
  const baseUrl = `${origin}/v2`;
  const latencyKey = await signIn(origin, 'bench-latency@example.com');
  const latencyClient = createClient({ baseUrl, token: latencyKey });
  // Warm up: the first run loads the engine (sharp) and fills the pools; it is not a queue wait.
  await benchQueueLatency(latencyClient, { jobs: 1, pollMs: options.latency.pollMs, budgetSeconds: 30 });
  const latency = await benchQueueLatency(latencyClient, options.latency);
  const throughputKeys = Math.max(1, Math.ceil(options.throughput.jobs / JOBS_PER_KEY));
  const throughputClients: Client[] = [];
  for (let i = 0; i < throughputKeys; i++) {
    const token = await signIn(origin, `bench-throughput-${i}@example.com`);
    throughputClients.push(createClient({ baseUrl, token }));
  }
  const throughput = await benchThroughput(throughputClients, options.throughput);
  return { latency, throughput, sampleJobId: latency.sampleJobId, apiKey: latencyKey };
}
