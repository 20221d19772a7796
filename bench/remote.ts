import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, createClient } from '../src/client/create-client.ts';
import { freePort } from '../src/server/db/embedded.ts';
import { type BenchServer, startBenchServer } from './burst.ts';
import { percentile, signIn } from './jobs.ts';
import { npmStartEnv } from './memory.ts';

/*
 * Jobs at an external provider (issue #26), against the fal stand-in in its own process (bench/fal-stand-in.ts)
 * and `npm start`'s server (startBenchServer, with npm start's malloc settings):
 * - burst: `burst` image jobs on fal:flux-schnell created at once, the stand-in finishing each 20 s after its
 *   submit; created → completed from the database's stamps, and the status calls the stand-in received per job.
 * - in flight: on the same server, `inFlight` jobs the stand-in never finishes in time; the server's RSS idle
 *   (before) and once every one is `running` with a provider id, and the status calls per job over a window.
 * - webhooks: the burst again on a second server whose PUBLIC_URL is its own origin and whose providers
 *   reach it (PROVIDERS_REACH_PUBLIC_URL=true): the stand-in calls back, signed; status calls should be none.
 * `npx tsx bench/remote.ts` (REMOTE_BURST, REMOTE_IN_FLIGHT, REMOTE_WINDOW_SECONDS).
 */

const root = path.resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round1 = (value: number) => Math.round(value * 10) / 10;
const FAL_KEY = 'bench-fal-key';
/** How long the stand-in takes per job in the bursts (the issue's "20 s latency"). */
const LATENCY_MS = 20_000;
/** The server's default PROVIDER_POLL_SECONDS: the fewest ms between two status calls of one job. */
const GAP_MS = 5_000;
/** Job creation is limited to 300 a minute per key (JOB_CREATION_LIMIT). */
const JOBS_PER_KEY = 250;

interface StandInRequest {
  id: string;
  createdAt: number | null;
  completedAt: number | null;
  webhookSent: boolean;
  statusCalls: number[];
}
interface StandInStats {
  counts: Record<'submits' | 'status' | 'results' | 'cancels' | 'downloads' | 'other', number>;
  peakHttpInFlight: number;
  requests: StandInRequest[];
}

interface StandIn {
  url: string;
  behaviour(set: Record<string, unknown>): Promise<void>;
  /** What it saw of these provider request ids; `resetPeak` starts a new peak of HTTP requests in flight. */
  stats(ids: string[], resetPeak?: boolean): Promise<StandInStats>;
  stop(): Promise<void>;
}

async function startStandIn(): Promise<StandIn> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/fal-stand-in.ts'], {
    cwd: root,
    env: { ...process.env, FAL_STAND_IN_KEY: FAL_KEY, FAL_FINISH_AFTER_MS: String(LATENCY_MS) },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.once('exit', (code) => reject(new Error(`the fal stand-in exited with ${code}: ${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
  });
  let next = 0;
  const ask = <T>(message: Record<string, unknown>) =>
    new Promise<T>((resolve) => {
      const id = ++next;
      const onMessage = (answer: { id: number } & T) => {
        if (answer.id !== id) return;
        child.off('message', onMessage);
        resolve(answer);
      };
      child.on('message', onMessage);
      child.send({ ...message, id });
    });
  return {
    url,
    behaviour: async (set) => {
      await ask({ op: 'behaviour', set });
    },
    stats: (ids, resetPeak = false) => ask<StandInStats>({ op: 'stats', ids, resetPeak }),
    stop: () => stopChild(child),
  };
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Resident set of a process now and its peak, MiB (Linux /proc). */
async function residentMiB(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return { rss: Math.round(kib('VmRSS') / 1024), peak: Math.round(kib('VmHWM') / 1024) };
}

/** CPU seconds a process has used (utime + stime, Linux /proc): the server's node process alone. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
}

const spread = (values: number[]) => ({
  p50: round1(percentile(values, 0.5)),
  p95: round1(percentile(values, 0.95)),
  max: round1(percentile(values, 1)),
});
type Spread = ReturnType<typeof spread>;

/** Signed-in clients, enough keys for `jobs` creations within the per-key rate limit. */
async function clientsFor(origin: string, jobs: number, label: string): Promise<Client[]> {
  const clients: Client[] = [];
  for (let i = 0; i < Math.max(1, Math.ceil(jobs / JOBS_PER_KEY)); i++) {
    const token = await signIn(origin, `bench-remote-${label}-${i}@example.com`);
    clients.push(createClient({ baseUrl: `${origin}/v2`, token }));
  }
  return clients;
}

/** Creates `jobs` fal jobs, `parallel` requests at a time (all at once by default), spread over the keys. */
async function createRemoteJobs(clients: Client[], jobs: number, label: string, parallel = jobs) {
  const ids: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, jobs) }, async () => {
      while (next < jobs) {
        const i = next++;
        const client = clients[Math.floor(i / JOBS_PER_KEY) % clients.length]!;
        const job = await client.createImage({
          body: { model: 'fal:flux-schnell', prompt: `${label} ${i}`, options: { cache: false } },
        });
        ids.push(job.id);
      }
    }),
  );
  return ids;
}

interface JobStamps {
  id: string;
  status: string;
  provider_job_id: string | null;
  created_ms: number;
  submitted_ms: number | null;
  completed_ms: number | null;
}

/** The jobs' stamps, in ms since the epoch, from the database (finer than the API's). */
async function stampsOf(server: BenchServer, ids: string[]): Promise<JobStamps[]> {
  const db = await server.database();
  try {
    const epoch = (column: string) =>
      `extract(epoch FROM ${column})::float8 * 1000 AS ${column.replace('_at', '_ms')}`;
    const { rows } = await db.query<JobStamps>(
      `SELECT id, status, provider_job_id, ${epoch('created_at')}, ${epoch('submitted_at')}, ${epoch('completed_at')}
         FROM jobs WHERE id = ANY($1)`,
      [ids],
    );
    return rows;
  } finally {
    await db.end();
  }
}

/** Waits until every job satisfies `done` (one query every 250 ms). */
async function waitForJobs(
  server: BenchServer,
  ids: string[],
  done: (job: JobStamps) => boolean,
  timeoutMs: number,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await stampsOf(server, ids);
    if (jobs.length === ids.length && jobs.every(done)) return jobs;
    if (Date.now() > deadline) {
      const left = ids.length - jobs.filter(done).length;
      throw new Error(`${left} of ${ids.length} jobs not there after ${timeoutMs / 1000} s`);
    }
    await sleep(250);
  }
}

/** Provider requests unfinished at once, from the stand-in's own submit and finish times. */
function peakUnfinished(requests: StandInRequest[]): number {
  const events = requests.flatMap((r) => [
    [r.createdAt ?? 0, 1] as const,
    [r.completedAt ?? Number.POSITIVE_INFINITY, -1] as const,
  ]);
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, step] of events) {
    now += step;
    peak = Math.max(peak, now);
  }
  return peak;
}

/** The most status calls one job got within any GAP_MS, and the shortest time between two of them. */
function pollDensity(requests: StandInRequest[], from = 0, to = Number.POSITIVE_INFINITY) {
  let mostPerGap = 0;
  let minGapMs = Number.POSITIVE_INFINITY;
  for (const r of requests) {
    const times = r.statusCalls.filter((t) => t >= from && t <= to);
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= GAP_MS) j++;
      mostPerGap = Math.max(mostPerGap, i - j + 1);
      if (i > 0) minGapMs = Math.min(minGapMs, times[i]! - times[i - 1]!);
    }
  }
  return { mostPerGap, minGapMs: Number.isFinite(minGapMs) ? Math.round(minGapMs) : null };
}

export interface RemoteBurst {
  jobs: number;
  completed: number;
  createdToSubmittedMs: Spread;
  createdToCompletedMs: Spread;
  /** From the provider's end (submit + latency) to the moment the stand-in told the server (a poll or a webhook). */
  doneToToldMs: Spread;
  /** From then to completed_at: the result fetched, the output downloaded and stored, the job completed. */
  toldToCompletedMs: Spread;
  /** max(created → completed) ÷ the stand-in's latency; target ≤ 1.3. */
  ratio: number;
  statusCallsPerJob: Spread;
  statusCalls: number;
  mostPerGap: number;
  minGapMs: number | null;
  webhooksSent: number;
  peakUnfinished: number;
  peakHttpInFlight: number;
}

async function burst(
  server: BenchServer,
  standIn: StandIn,
  jobs: number,
  label: string,
): Promise<RemoteBurst> {
  const clients = await clientsFor(server.origin, jobs, label);
  await standIn.behaviour({ finishAfterMs: LATENCY_MS, neverFinish: false });
  await standIn.stats([], true);
  const ids = await createRemoteJobs(clients, jobs, label);
  const rows = await waitForJobs(
    server,
    ids,
    (j) => ['completed', 'failed', 'cancelled'].includes(j.status),
    300_000,
  );
  const completed = rows.filter((j) => j.status === 'completed');
  const stats = await standIn.stats(rows.flatMap((j) => (j.provider_job_id ? [j.provider_job_id] : [])));
  const toCompleted = completed.map((j) => j.completed_ms! - j.created_ms);
  const calls = stats.requests.map((r) => r.statusCalls.length);
  const told = new Map(stats.requests.map((r) => [r.id, r]));
  const phases = completed.flatMap((j) => {
    const r = told.get(j.provider_job_id ?? '');
    if (!r?.createdAt || !r.completedAt) return [];
    return [{ done: r.completedAt - (r.createdAt + LATENCY_MS), finish: j.completed_ms! - r.completedAt }];
  });
  return {
    jobs: rows.length,
    completed: completed.length,
    createdToSubmittedMs: spread(
      rows.flatMap((j) => (j.submitted_ms ? [j.submitted_ms - j.created_ms] : [])),
    ),
    createdToCompletedMs: spread(toCompleted),
    doneToToldMs: spread(phases.map((p) => p.done)),
    toldToCompletedMs: spread(phases.map((p) => p.finish)),
    ratio: Math.round((Math.max(...toCompleted) / LATENCY_MS) * 100) / 100,
    statusCallsPerJob: spread(calls),
    statusCalls: calls.reduce((sum, n) => sum + n, 0),
    ...pollDensity(stats.requests),
    webhooksSent: stats.requests.filter((r) => r.webhookSent).length,
    peakUnfinished: peakUnfinished(stats.requests),
    peakHttpInFlight: stats.peakHttpInFlight,
  };
}

export interface InFlight {
  jobs: number;
  idleMiB: number;
  inFlightMiB: number;
  afterWindowMiB: number;
  /** RSS every 5 s over the window, MiB. */
  windowMiB: number[];
  peakMiB: number;
  /** Seconds from the first creation until every job was `running` with a provider id. */
  rampSeconds: number;
  windowSeconds: number;
  statusCallsInWindow: number;
  /** Status calls per job per GAP_MS over the window, on average; target ≤ 1. */
  perJobPerGap: number;
  mostPerGap: number;
  minGapMs: number | null;
  /** CPU of the server's node process over the window, in cores (PostgreSQL's backends come and go). */
  serverCpu: number;
}

async function inFlight(
  server: BenchServer,
  standIn: StandIn,
  jobs: number,
  windowSeconds: number,
): Promise<InFlight> {
  const clients = await clientsFor(server.origin, jobs, 'in-flight');
  await sleep(5_000);
  const idle = await residentMiB(server.pid);
  // Far beyond the window: every job stays IN_PROGRESS, and is followed, for the whole measure.
  await standIn.behaviour({ finishAfterMs: 3_600_000 });
  const started = Date.now();
  const ids = await createRemoteJobs(clients, jobs, 'in flight', 32);
  await waitForJobs(server, ids, (j) => j.status === 'running' && j.provider_job_id !== null, 600_000);
  const rampSeconds = round1((Date.now() - started) / 1000);
  const loaded = await residentMiB(server.pid);
  const from = Date.now();
  const cpuBefore = await cpuSeconds(server.pid);
  const windowMiB: number[] = [];
  while (Date.now() - from < windowSeconds * 1000) {
    await sleep(Math.min(5_000, from + windowSeconds * 1000 - Date.now()));
    windowMiB.push((await residentMiB(server.pid)).rss);
  }
  const to = Date.now();
  const serverCpu =
    Math.round((((await cpuSeconds(server.pid)) - cpuBefore) / ((to - from) / 1000)) * 100) / 100;
  const after = await residentMiB(server.pid);
  const rows = await stampsOf(server, ids);
  const stats = await standIn.stats(rows.flatMap((j) => (j.provider_job_id ? [j.provider_job_id] : [])));
  const inWindow = stats.requests.reduce(
    (sum, r) => sum + r.statusCalls.filter((t) => t >= from && t <= to).length,
    0,
  );
  return {
    jobs,
    idleMiB: idle.rss,
    inFlightMiB: loaded.rss,
    afterWindowMiB: after.rss,
    windowMiB,
    peakMiB: after.peak,
    rampSeconds,
    windowSeconds,
    statusCallsInWindow: inWindow,
    perJobPerGap: Math.round((inWindow / jobs / ((to - from) / GAP_MS)) * 100) / 100,
    ...pollDensity(stats.requests, from, to),
    serverCpu,
  };
}

export interface RemoteResult {
  latencyMs: number;
  polled: RemoteBurst;
  inFlight: InFlight;
  webhooks: RemoteBurst;
}

const falEnv = (standIn: StandIn) => ({
  FAL_KEY,
  FAL_QUEUE_URL: standIn.url,
  FAL_STORAGE_URL: standIn.url,
  FAL_JWKS_URL: `${standIn.url}/.well-known/jwks.json`,
  // The stand-in serves the outputs on loopback.
  ALLOW_PRIVATE_NETWORK: 'true',
});

export async function benchRemote(options: {
  burst: number;
  inFlight: number;
  windowSeconds: number;
}): Promise<RemoteResult> {
  const standIn = await startStandIn();
  try {
    const env = await npmStartEnv();
    const polledServer = await startBenchServer({
      ...env,
      ...falEnv(standIn),
      PROVIDERS_REACH_PUBLIC_URL: 'false',
    });
    let polled: RemoteBurst;
    let held: InFlight;
    try {
      polled = await burst(polledServer, standIn, options.burst, 'polled');
      held = await inFlight(polledServer, standIn, options.inFlight, options.windowSeconds);
    } finally {
      await polledServer.stop();
    }
    // The server's own origin is its PUBLIC_URL, so the stand-in can call it back.
    const port = await freePort();
    const webhookServer = await startBenchServer({
      ...env,
      ...falEnv(standIn),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PROVIDERS_REACH_PUBLIC_URL: 'true',
    });
    try {
      const webhooks = await burst(webhookServer, standIn, options.burst, 'webhooks');
      return { latencyMs: LATENCY_MS, polled, inFlight: held, webhooks };
    } finally {
      await webhookServer.stop();
    }
  } finally {
    await standIn.stop();
  }
}

/** MiB as the issue's MB (10^6 bytes). */
export const mb = (mib: number) => Math.round(mib * 1.048576);
const signed = (value: number) => (value < 0 ? `${value}` : `+${value}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const spreadSeconds = (s: Spread) => `p50 ${seconds(s.p50)}, p95 ${seconds(s.p95)}, max ${seconds(s.max)}`;

function burstLine(label: string, b: RemoteBurst, latencyMs: number, statusTarget: string): string[] {
  return [
    `remote burst, ${label}: ${b.completed} of ${b.jobs} fal:flux-schnell jobs created at once, the stand-in finishing each ${seconds(latencyMs)} after its submit: created → completed ${spreadSeconds(b.createdToCompletedMs)}; max ÷ latency ${b.ratio} | before: 162 s (8.1) | target: ≤ 1.3 (the last by 26 s)`,
    `remote burst, ${label}: created → submitted ${spreadSeconds(b.createdToSubmittedMs)}; provider done → told ${spreadSeconds(b.doneToToldMs)}; told → completed ${spreadSeconds(b.toldToCompletedMs)}; at the stand-in: ${b.peakUnfinished} requests unfinished at once (peak), ${b.peakHttpInFlight} HTTP requests in flight (peak), ${b.webhooksSent} webhooks sent`,
    `remote burst, ${label}: status calls ${b.statusCalls} (per job ${b.statusCallsPerJob.p50} median, ${b.statusCallsPerJob.max} max); most for one job within ${seconds(GAP_MS)} ${b.mostPerGap}, shortest gap ${b.minGapMs === null ? '–' : `${b.minGapMs} ms`} | target: ${statusTarget}`,
  ];
}

/** One line per figure, beside the issue's baseline where it gives one, and its target. */
export function formatRemote(r: RemoteResult): string[] {
  const f = r.inFlight;
  return [
    ...burstLine('polled (webhooks off)', r.polled, r.latencyMs, `≤ 1 per job per ${seconds(GAP_MS)}`),
    `remote in flight: ${f.jobs} jobs running at the stand-in (all running with a provider id ${f.rampSeconds} s after the first was created): server RSS idle ${f.idleMiB} MiB → in flight ${f.inFlightMiB} MiB (${signed(f.inFlightMiB - f.idleMiB)} MiB, ${signed(mb(f.inFlightMiB - f.idleMiB))} MB) → after ${f.windowSeconds} s ${f.afterWindowMiB} MiB (every 5 s: ${f.windowMiB.join(' ')}; peak ${f.peakMiB}) | target: within 150 MB of idle`,
    `remote in flight: over ${f.windowSeconds} s, ${f.statusCallsInWindow} status calls, ${f.perJobPerGap} per job per ${seconds(GAP_MS)}; most for one job within ${seconds(GAP_MS)} ${f.mostPerGap}, shortest gap ${f.minGapMs === null ? '–' : `${f.minGapMs} ms`}; server node process CPU ${f.serverCpu} cores | target: ≤ 1 per job per ${seconds(GAP_MS)}`,
    ...burstLine('webhooks on', r.webhooks, r.latencyMs, 'none'),
  ];
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const result = await benchRemote({
    burst: Number(process.env.REMOTE_BURST ?? 100),
    inFlight: Number(process.env.REMOTE_IN_FLIGHT ?? 2000),
    windowSeconds: Number(process.env.REMOTE_WINDOW_SECONDS ?? 60),
  });
  for (const line of formatRemote(result)) console.log(line);
}
