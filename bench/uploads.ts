import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '../src/client/create-client.ts';
import { freePort } from '../src/server/db/embedded.ts';
import { percentile, signIn } from './jobs.ts';

/*
 * Uploads and listing against a real server (`scripts/start.ts`, embedded PostgreSQL, local disk store):
 * - a 200 MB proxy upload (PUT /v2/files/upload/{id}) side by side with `dd` writing the same bytes to
 *   disk: throughput ratio (target ≥ 0.5) and the server's RSS growth while it streams (target < 64 MB);
 * - listing pages of 50 out of 10,000 files (GET /v2/files with its cursor): p50 and p95.
 */

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const UPLOAD_BYTES = 209_715_200;
const LIST_FILES = Number(process.env.BENCH_LIST_FILES ?? 10_000);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (value: number) => Math.round(value * 10) / 10;

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(tsx, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      STATIC_DIR: path.join(dataDir, 'no-console'), // the API only: no console build needed
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const origin = `http://127.0.0.1:${port}`;
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    const up = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) {
      child.stdout?.off('data', collect);
      child.stderr?.off('data', collect);
      child.stdout?.resume();
      child.stderr?.resume();
      return child;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server did not start within 120 s');
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Resident memory (bytes) of the Node process serving HTTP: the biggest `node` among `pid` and its descendants. */
async function serverRss(pid: number): Promise<number> {
  const children = new Map<number, number[]>();
  const comm = new Map<number, string>();
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => null);
    if (!stat) continue;
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    comm.set(Number(entry), name);
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  let best = 0;
  const visit = async (p: number) => {
    if (comm.get(p)?.startsWith('node')) {
      const status = await fs.readFile(`/proc/${p}/status`, 'utf8').catch(() => '');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      best = Math.max(best, kb * 1024);
    }
    for (const c of children.get(p) ?? []) await visit(c);
  };
  await visit(pid);
  return best;
}

function putFile(url: string, file: string, size: number, apiKey: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/octet-stream',
          'content-length': String(size),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(request);
  });
}

async function benchProxyUpload(
  origin: string,
  apiKey: string,
  work: string,
  serverPid: number,
  rounds: number,
) {
  const source = path.join(work, 'source.bin');
  execFileSync('dd', ['if=/dev/urandom', `of=${source}`, 'bs=1M', `count=${UPLOAD_BYTES >> 20}`], {
    stdio: 'ignore',
  });
  const client = createClient({ baseUrl: `${origin}/v2`, token: apiKey });
  const ours: number[] = [];
  const dd: number[] = [];
  const growth: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const session = await client.createUploadSession({
      body: { size: UPLOAD_BYTES, filename: `big-${i}.bin` },
    });
    if (session.deduplicated) throw new Error('unexpected dedupe');
    const before = await serverRss(serverPid);
    let peak = before;
    const sampler = setInterval(() => {
      void serverRss(serverPid).then((rss) => {
        peak = Math.max(peak, rss);
      });
    }, 50);
    const started = performance.now();
    const status = await putFile(`${origin}${session.proxy_url}`, source, UPLOAD_BYTES, apiKey);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    if (status !== 200) throw new Error(`proxy upload answered ${status}`);
    ours.push(UPLOAD_BYTES / seconds);
    growth.push(peak - before);

    const target = path.join(work, `dd-${i}.bin`);
    const ddStarted = performance.now();
    execFileSync('dd', [`if=${source}`, `of=${target}`, 'bs=1M'], { stdio: 'ignore' });
    dd.push(UPLOAD_BYTES / ((performance.now() - ddStarted) / 1000));
    await fs.rm(target);
  }
  const mbps = (v: number) => round1(v / 1e6);
  const ratios = ours.map((o, i) => o / dd[i]!);
  return {
    rounds,
    oursMBps: mbps(median(ours)),
    ddMBps: mbps(median(dd)),
    ratio: Math.round(median(ratios) * 100) / 100,
    rssGrowthMB: round1(Math.max(...growth) / 1048576),
  };
}

async function benchListing(origin: string, apiKey: string) {
  const client = createClient({ baseUrl: `${origin}/v2`, token: apiKey });
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < LIST_FILES; i = next++) {
      const data = Buffer.from(`file ${i} ${Math.random()}`).toString('base64');
      await client.uploadFile({ body: { filename: `note-${i}.txt`, data, media_type: 'text/plain' } });
    }
  };
  const seedStarted = performance.now();
  await Promise.all(Array.from({ length: 16 }, worker));
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const latencies: number[] = [];
  let pages = 0;
  for (let walk = 0; walk < 2; walk++) {
    let cursor: string | null = null;
    do {
      const started = performance.now();
      const page: { next_cursor: string | null } = await client.listFiles({
        query: cursor ? { limit: 50, cursor } : { limit: 50 },
      });
      latencies.push(performance.now() - started);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
  }
  return {
    files: LIST_FILES,
    seedSeconds: round1(seedSeconds),
    pages,
    p50Ms: round1(percentile(latencies, 0.5)),
    p95Ms: round1(percentile(latencies, 0.95)),
  };
}

/** Runs both benchmarks on a fresh server and prints one line each; answers the numbers. */
export async function runUploadBench() {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-uploads-'));
  const port = await freePort();
  // Its own directory: the server lets the postgres system user into DATA_DIR, not into its parents.
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-uploads-data-'));
  const server = await startServer(dataDir, port);
  try {
    const origin = `http://127.0.0.1:${port}`;
    const apiKey = await signIn(origin, `bench-uploads-${Date.now()}@example.com`);
    const upload = await benchProxyUpload(origin, apiKey, work, server.pid!, 3);
    process.stdout.write(
      `proxy upload of 200 MB (median of ${upload.rounds}): ours ${upload.oursMBps} MB/s, dd to disk ${upload.ddMBps} MB/s; ratio ${upload.ratio} (target ≥ 0.5); server RSS growth ${upload.rssGrowthMB} MB (target < 64 MB)\n`,
    );
    const listing = await benchListing(origin, await signIn(origin, `bench-list-${Date.now()}@example.com`));
    process.stdout.write(
      `GET /v2/files, pages of 50 out of ${listing.files} files (${listing.pages} pages, two full walks by cursor; seeded in ${listing.seedSeconds} s): p50 ${listing.p50Ms} ms, p95 ${listing.p95Ms} ms\n`,
    );
    return { upload, listing };
  } finally {
    await stop(server);
    await fs.rm(work, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runUploadBench();
