import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureConsoleBuild } from '../scripts/console-build.ts';
import { currentServerBundle, freshServerBundle } from '../scripts/server-bundle.mjs';
import { freePort } from '../src/server/db/embedded.ts';

/*
 * `npm start` to the first 200 (GET /healthz), on an empty DATA_DIR and again on the data it left.
 * The server bundle and the console are built first, so a round times a start, not a build. With
 * `fromSource`, each round also starts `tsx scripts/start.ts` (the server run from TypeScript, as
 * `npm start` did before the bundle) right beside it, in alternating order: the machine is shared.
 */

const root = path.resolve(import.meta.dirname, '..');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The ways to start a server: the bundle `npm start` runs (pinned to one build, so that sources edited
 * meanwhile in a shared checkout do not make a round time a rebuild); `initdb`, the same bundle with no
 * cluster template yet (a machine's first start); the source; and the bundle of another checkout
 * (`BENCH_BEFORE`: an earlier version, timed in the same rounds).
 */
type Way = 'bundle' | 'source' | 'before' | 'initdb';
interface Bundles {
  bundle: string;
  before?: { root: string; bundle: string };
}
function commandOf(way: Way, bundles: Bundles): { command: string; args: string[]; cwd: string } {
  if (way === 'source')
    return { command: path.join(root, 'node_modules/.bin/tsx'), args: ['scripts/start.ts'], cwd: root };
  if (way === 'before' && bundles.before) {
    return { command: process.execPath, args: [bundles.before.bundle], cwd: bundles.before.root };
  }
  return { command: process.execPath, args: [bundles.bundle], cwd: root };
}

interface Start {
  /** Spawn to the first 200 from GET /healthz. */
  ms: number;
  /** The server's own timeline from its `ready` line: code loading, then each start-up step. */
  steps: Record<string, number>;
}

async function startOnce(
  way: Way,
  bundles: Bundles,
  dataDir: string,
  templatesDir: string,
): Promise<Start | null> {
  const port = await freePort();
  const { command, args, cwd } = commandOf(way, bundles);
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    // Both checkouts serve this one's console build, so neither builds one.
    env: {
      ...process.env,
      STATIC_DIR: process.env.STATIC_DIR ?? path.join(root, 'dist'),
      DATA_DIR: dataDir,
      POSTGRES_TEMPLATE_DIR: templatesDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk;
  });
  try {
    const ms = await firstOk(`http://127.0.0.1:${port}/healthz`, child, () => output);
    // A console source changed meanwhile (a shared checkout): that start timed a build, not a start.
    if (output.includes('Building the console')) return null;
    const ready = output.match(/\{[^\n]*"msg":"ready"[^\n]*\}/);
    const line = ready ? (JSON.parse(ready[0]) as { load_ms: number; steps: Record<string, number> }) : null;
    return { ms: ms - started, steps: line ? { load: line.load_ms, ...line.steps } : {} };
  } finally {
    await stop(child);
  }
}

/** When GET `url` first answered 200 (polled every 5 ms). */
async function firstOk(url: string, child: ChildProcess, output: () => string): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return performance.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface StartupFigures {
  rounds: number;
  /** Medians, in milliseconds, per way of starting: empty DATA_DIR, then the same DATA_DIR again. */
  bundle: { firstRunMs: number; existingDataMs: number; steps: Record<string, number> };
  /** The bundle on an empty DATA_DIR with no cluster template yet (the first start on a machine). */
  initdbFirstRunMs: number;
  source?: { firstRunMs: number; existingDataMs: number };
  /** The other checkout's bundle (BENCH_BEFORE), in the same rounds. */
  before?: { root: string; firstRunMs: number; existingDataMs: number; steps: Record<string, number> };
}

function summary(starts: { first: Start[]; existing: Start[] }) {
  const steps: Record<string, number> = {};
  for (const name of Object.keys(starts.existing[0]?.steps ?? {})) {
    steps[name] = median(starts.existing.map((s) => s.steps[name] ?? 0));
  }
  return {
    firstRunMs: median(starts.first.map((s) => s.ms)),
    existingDataMs: median(starts.existing.map((s) => s.ms)),
    steps,
  };
}

/**
 * A start on an empty DATA_DIR, then one on what it left; null when either had to build first. Every
 * way but `initdb` finds the cluster template made before the rounds; `initdb` starts with none, and
 * only its first start is timed (on what it left it is the bundle's existing-dir start again).
 */
async function startTwice(
  way: Way,
  bundles: Bundles,
  templatesDir: string,
): Promise<{ first: Start; existing: Start | null } | null> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-startup-'));
  const noTemplate =
    way === 'initdb' ? await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-templates-')) : null;
  try {
    const first = await startOnce(way, bundles, dataDir, noTemplate ?? templatesDir);
    if (!first) return null;
    if (noTemplate) return { first, existing: null };
    const existing = await startOnce(way, bundles, dataDir, templatesDir);
    return existing ? { first, existing } : null;
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
    if (noTemplate) await fs.rm(noTemplate, { recursive: true, force: true });
  }
}

export async function benchStartup(
  rounds = 3,
  options: { fromSource?: boolean; before?: string } = {},
): Promise<StartupFigures> {
  // With STATIC_DIR set, `npm start` serves that build and leaves the console alone (scripts/start.ts).
  if (!process.env.STATIC_DIR) ensureConsoleBuild(root);
  const bundles: Bundles = { bundle: await freshServerBundle(root) };
  if (options.before) {
    const beforeRoot = path.resolve(options.before);
    bundles.before = { root: beforeRoot, bundle: await freshServerBundle(beforeRoot) };
  }
  // What `npm start` adds before it runs the bundle: is any source newer than the build?
  const checks: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    currentServerBundle(root);
    checks.push(performance.now() - started);
  }
  // The template a machine keeps after its first start (made here by one untimed start).
  const templatesDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-templates-'));
  const ways: Way[] = ['bundle', 'initdb'];
  if (options.fromSource) ways.push('source');
  if (bundles.before) ways.push('before');
  const results = new Map(ways.map((way) => [way, { first: [] as Start[], existing: [] as Start[] }]));
  try {
    await startTwice('bundle', bundles, templatesDir);
    for (let round = 0; round < rounds; round++) {
      // Alternate which way goes first, so neither always meets the machine in the same state.
      const order = round % 2 === 0 ? ways : [...ways].reverse();
      for (const way of order) {
        for (let attempt = 0; ; attempt++) {
          const starts = await startTwice(way, bundles, templatesDir);
          if (starts) {
            results.get(way)!.first.push(starts.first);
            if (starts.existing) results.get(way)!.existing.push(starts.existing);
            break;
          }
          if (attempt === 3) throw new Error('the console sources kept changing: every round timed a build');
        }
      }
    }
  } finally {
    await fs.rm(templatesDir, { recursive: true, force: true });
  }
  // The bundle ran pinned: add back the staleness check `npm start` makes first.
  const staleCheckMs = median(checks);
  const pinned = summary(results.get('bundle')!);
  const bundle = {
    ...pinned,
    firstRunMs: pinned.firstRunMs + staleCheckMs,
    existingDataMs: pinned.existingDataMs + staleCheckMs,
    steps: { stale_check: Math.round(staleCheckMs), ...pinned.steps },
  };
  const initdb = median(results.get('initdb')!.first.map((start) => start.ms)) + staleCheckMs;
  const figures: StartupFigures = { rounds, bundle, initdbFirstRunMs: initdb };
  const fromSource = results.get('source');
  if (fromSource) {
    const { firstRunMs, existingDataMs } = summary(fromSource);
    figures.source = { firstRunMs, existingDataMs };
  }
  const before = results.get('before');
  if (before && bundles.before) figures.before = { root: bundles.before.root, ...summary(before) };
  return figures;
}

/** The lines for the benchmark table: each figure beside its target (and the from-source start, if run). */
export function formatStartup(figures: StartupFigures): string {
  const { bundle, source, before } = figures;
  const vs = (base?: number) => (base ? ` (from source ${Math.round(base)} ms)` : '');
  const steps = Object.entries(bundle.steps)
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ');
  return [
    `npm start → first 200, existing data dir (median of ${figures.rounds}): ${Math.round(bundle.existingDataMs)} ms${vs(source?.existingDataMs)}; target < 1500 ms`,
    `npm start → first 200, empty data dir (median of ${figures.rounds}): ${Math.round(bundle.firstRunMs)} ms${vs(source?.firstRunMs)}; target < 3000 ms`,
    `  the first start on a machine (no cluster template yet, initdb): ${Math.round(figures.initdbFirstRunMs)} ms`,
    `  server timeline, existing data dir (ms; database and code load side by side): ${steps}`,
    ...(before
      ? [
          `  ${before.root} in the same rounds: existing data dir ${Math.round(before.existingDataMs)} ms, empty ${Math.round(before.firstRunMs)} ms (its bundle alone, without the stale check); timeline ${Object.entries(
            before.steps,
          )
            .map(([name, ms]) => `${name} ${ms}`)
            .join(', ')}`,
        ]
      : []),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const figures = await benchStartup(rounds, {
    fromSource: process.env.BENCH_FROM_SOURCE !== '0',
    before: process.env.BENCH_BEFORE,
  });
  process.stdout.write(`${formatStartup(figures)}\n`);
}
