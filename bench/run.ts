import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureConsoleBuild } from '../scripts/console-build.ts';
import { freePort } from '../src/server/db/embedded.ts';
import { hasWrk, load, loadWithWrk } from './load.ts';

/*
 * `npm run bench`: timings that do not belong in tests. The machine is shared and noisy, so
 * comparisons run side by side in one run, alternating, and are reported as ratios.
 */

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onExit = (code: number | null) =>
      reject(new Error(`exited with ${code} before ${pattern}:\n${output}`));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(pattern);
      if (!match) return;
      // Stop collecting: from here on the output is drained, so logging costs the server, not this process.
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve(match);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.on('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Wall time from spawning `npm start`'s script to the server's ready line. */
async function readyTime(dataDir: string, port: number): Promise<{ ms: number; child: ChildProcess }> {
  const started = performance.now();
  const child = spawn(tsx, ['scripts/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitFor(child, /Media Console is running at/);
  return { ms: performance.now() - started, child };
}

async function benchStartup(rounds: number) {
  const first: number[] = [];
  const existing: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-'));
    const port = await freePort();
    const a = await readyTime(dataDir, port);
    first.push(a.ms);
    await stop(a.child);
    const b = await readyTime(dataDir, port);
    existing.push(b.ms);
    await stop(b.child);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
  return { firstRunMs: median(first), existingDataMs: median(existing), rounds };
}

// wrk when installed (apt-get install wrk): a Node client tops out near what a bare server does here.
const loadClient = hasWrk() ? 'wrk' : 'node';
const drive = loadClient === 'wrk' ? loadWithWrk : load;

async function benchPricing(rounds: number, seconds: number, connections: number) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-'));
  const port = await freePort();
  const server = await readyTime(dataDir, port);
  const ours = `http://127.0.0.1:${port}/v2/pricing`;
  const sample = await fetch(ours);
  const bytes = Buffer.from(await sample.arrayBuffer());
  const headers = { 'content-type': sample.headers.get('content-type') ?? 'application/json' };
  const bare = spawn(tsx, ['bench/bare-server.ts'], {
    cwd: root,
    env: { ...process.env, BARE_BODY_B64: bytes.toString('base64'), BARE_HEADERS: JSON.stringify(headers) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const barePort = (await waitFor(bare, /listening (\d+)/))[1];
  const baseline = `http://127.0.0.1:${barePort}/v2/pricing`;
  await drive(ours, { connections, seconds: 1 }); // warm both up
  await drive(baseline, { connections, seconds: 1 });
  const oursRates: number[] = [];
  const bareRates: number[] = [];
  let oursLast = null;
  for (let i = 0; i < rounds; i++) {
    oursLast = await drive(ours, { connections, seconds });
    oursRates.push(oursLast.perSecond);
    bareRates.push((await drive(baseline, { connections, seconds })).perSecond);
  }
  await stop(bare);
  await stop(server.child);
  await fs.rm(dataDir, { recursive: true, force: true });
  const oursMedian = median(oursRates);
  const bareMedian = median(bareRates);
  // Each pair runs back to back, so its ratio is steadier than a ratio of medians on a busy machine.
  const pairRatios = oursRates.map((ours, i) => ours / bareRates[i]!);
  return {
    client: loadClient,
    bodyBytes: bytes.length,
    connections,
    secondsPerRound: seconds,
    rounds,
    oursPerSecond: Math.round(oursMedian),
    barePerSecond: Math.round(bareMedian),
    ratio: Math.round(median(pairRatios) * 100) / 100,
    pairRatios: pairRatios.map((r) => Math.round(r * 100) / 100),
    oursP99Ms: Math.round((oursLast?.p99Ms ?? 0) * 10) / 10,
  };
}

ensureConsoleBuild(root); // so the timings below measure starting, not building
const startup = await benchStartup(3);
process.stdout.write(
  `startup (npm start → ready, median of ${startup.rounds}): first run ${Math.round(startup.firstRunMs)} ms, existing data dir ${Math.round(startup.existingDataMs)} ms\n`,
);
const pricing = await benchPricing(9, 2, 32);
process.stdout.write(
  `GET /v2/pricing (${pricing.bodyBytes} B, ${pricing.client} client, ${pricing.connections} connections, ${pricing.rounds}×${pricing.secondsPerRound} s alternating): ours ${pricing.oursPerSecond}/s, bare node:http ${pricing.barePerSecond}/s; ratio ${pricing.ratio} (median of pairs ${pricing.pairRatios.join(' ')}; target ≥ 0.6); ours p99 ${pricing.oursP99Ms} ms\n`,
);
await fs.mkdir(path.join(root, 'bench', 'results'), { recursive: true });
await fs.writeFile(
  path.join(root, 'bench', 'results', 'latest.json'),
  `${JSON.stringify({ at: new Date().toISOString(), startup, pricing }, null, 2)}\n`,
);
