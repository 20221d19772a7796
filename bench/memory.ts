import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchClients, createBurst, startBenchServer, waitForIdleQueue } from './burst.ts';

/*
 * Memory the server keeps after work: its resident set (VmRSS of the node process) when idle after
 * start and one warm-up job, right after `jobs` local-sketch jobs created at once have all finished,
 * and after `idleSeconds` of idle. `npm run bench` runs it with `npm start`'s malloc settings
 * (npmStartEnv); `npx tsx bench/memory.ts` inherits this environment instead, so it measures glibc's
 * defaults unless told (`MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 npx tsx bench/memory.ts`).
 */

/**
 * The environment `npm start` gives the server (its `NAME=${NAME:-value}` defaults in package.json: the
 * malloc settings, which must be set before the process starts), so the bench measures what runs.
 */
export async function npmStartEnv(): Promise<Record<string, string>> {
  const manifest = JSON.parse(
    await fs.readFile(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'package.json'), 'utf8'),
  ) as { scripts: { start: string } };
  const defaults = manifest.scripts.start.matchAll(/\b([A-Z_]+)=\$\{\1:-([^}]*)\}/g);
  return Object.fromEntries([...defaults].map(([, name, value]) => [name!, process.env[name!] ?? value!]));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const MIB = 1024 * 1024;

/** Resident and peak resident set of a process, MiB (Linux /proc). */
async function residentMiB(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? 0);
  return { rss: Math.round((kib('VmRSS') * 1024) / MIB), peak: Math.round((kib('VmHWM') * 1024) / MIB) };
}

export interface MemoryResult {
  jobs: number;
  idleSeconds: number;
  idleMiB: number;
  afterJobsMiB: number;
  peakMiB: number;
  afterIdleMiB: number;
}

export async function benchMemory(
  options: { jobs: number; idleSeconds: number; env?: Record<string, string> } = {
    jobs: 500,
    idleSeconds: 30,
  },
): Promise<MemoryResult> {
  const server = await startBenchServer(options.env);
  try {
    const clients = await benchClients(server.origin, options.jobs, 'memory');
    // One job first: the engine (sharp) and the pools are loaded in every server that ran any job.
    await createBurst(clients, 1, 1);
    await waitForIdleQueue(clients);
    await sleep(5_000);
    const idle = await residentMiB(server.pid);
    await createBurst(clients, options.jobs);
    await waitForIdleQueue(clients);
    const afterJobs = await residentMiB(server.pid);
    await sleep(options.idleSeconds * 1000);
    const afterIdle = await residentMiB(server.pid);
    return {
      jobs: options.jobs,
      idleSeconds: options.idleSeconds,
      idleMiB: idle.rss,
      afterJobsMiB: afterJobs.rss,
      peakMiB: afterIdle.peak,
      afterIdleMiB: afterIdle.rss,
    };
  } finally {
    await server.stop();
  }
}

/** One line per figure, beside its baseline (issue #14) and target. */
export function formatMemory(result: MemoryResult): string[] {
  const kept = result.afterIdleMiB - result.idleMiB;
  return [
    `server memory (RSS) idle ${result.idleMiB} MiB → after ${result.jobs} jobs ${result.afterJobsMiB} MiB (peak ${result.peakMiB}) → after ${result.idleSeconds} s idle ${result.afterIdleMiB} MiB: ${kept} MiB kept | before: 121–156 → 331 → 260–276 MiB | target: within 30 MiB of idle`,
  ];
}

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) {
  const result = await benchMemory({
    jobs: Number(process.env.MEMORY_JOBS ?? 500),
    idleSeconds: Number(process.env.MEMORY_IDLE_SECONDS ?? 30),
  });
  for (const line of formatMemory(result)) console.log(line);
}
