import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../db/embedded.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

/** The machine's PostgreSQL (trust authentication), as an admin connection; MACHINE_PG_URL overrides it. */
export const MACHINE_PG_URL = process.env.MACHINE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Whether the machine's PostgreSQL answers (within 3 s). */
export function machinePostgresReachable(): Promise<boolean> {
  return postgresAnswers(MACHINE_PG_URL, 3_000);
}

/** Whether PostgreSQL at `url` answers a query, connecting within `timeoutMs`. */
export async function postgresAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  // A server that goes away mid-check is an answer (false), not a crash.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export interface ClusterProcess extends ServerProcess {
  role: 'api' | 'worker';
  /** Where it answers /healthz, /readyz and /metrics (an api: its API URL too). */
  url: string;
  /** The server's own pid (tsx runs it as a child). */
  pid: number;
  env: Record<string, string>;
}

/**
 * A deployment in miniature: its own database on the machine's PostgreSQL, one DATA_DIR shared by every
 * process for files (as a shared volume would be), api and worker processes as real child processes.
 */
export async function startCluster(options: { apis: number; workers: number; env?: Record<string, string> }) {
  const name = `mc_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: MACHINE_PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const dbUrl = new URL(MACHINE_PG_URL);
  dbUrl.pathname = `/${name}`;
  const databaseUrl = dbUrl.toString();
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-cluster-'));
  const apiPorts = await Promise.all(Array.from({ length: options.apis }, () => freePort()));
  const common = {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    // One public address for all, as behind a reverse proxy: sessions and file URLs name it.
    PUBLIC_URL: `http://127.0.0.1:${apiPorts[0]}`,
    APP_SECRET: randomBytes(24).toString('hex'),
    SIGNUP_CREDITS: '100000',
    // Far longer than any test: a killed worker's jobs come back because its presence lock is gone.
    JOB_LEASE_SECONDS: '600',
    QUEUE_MAINTENANCE_SECONDS: '1',
    STATIC_DIR: '/nonexistent-static-dir',
    ...options.env,
    // The ready line (with each process's address) and the job lines are read from the logs.
    LOG_LEVEL: 'info',
  };
  const processes: ClusterProcess[] = [];
  const start = async (role: 'api' | 'worker', port: number): Promise<ClusterProcess> => {
    const env = {
      ...common,
      ROLE: role,
      ...(role === 'api' ? { PORT: String(port) } : { METRICS_PORT: String(port) }),
    };
    const child = startServerProcess(env);
    const pid = await child.ready;
    const url = child.output().match(/"msg":"ready".*?"ops_url":"([^"]+)"/)?.[1];
    if (!url) throw new Error(`no ops_url in the ready line:\n${child.output()}`);
    const started = { ...child, role, url, pid, env };
    processes.push(started);
    return started;
  };
  const workerPorts = await Promise.all(Array.from({ length: options.workers }, () => freePort()));
  // All at once: migrations run under an advisory lock, so concurrent starts are part of what is tested.
  const apis = await Promise.all(apiPorts.map((port) => start('api', port)));
  const workers = await Promise.all(workerPorts.map((port) => start('worker', port)));
  return {
    databaseUrl,
    apis,
    workers,
    /** Every process started so far, restarted ones included (for their logs). */
    processes,
    /** Starts a process again with the same environment (the same port). */
    restart: (p: ClusterProcess) => start(p.role, Number(p.role === 'api' ? p.env.PORT : p.env.METRICS_PORT)),
    async stop() {
      await Promise.all(
        processes.map(async (p) => {
          if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
          await p.exited;
        }),
      );
      const c = new pg.Client({ connectionString: MACHINE_PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type Cluster = Awaited<ReturnType<typeof startCluster>>;
