import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, importEmbeddedPostgres } from './db/embedded.ts';
import { signInOn, waitForJob } from './testing/server-journeys.ts';
import { startServerProcess } from './testing/server-process.ts';

const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** Every entry under `dir` with its size and modification time: what "touches nothing" compares. */
async function snapshot(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true });
  const lines = await Promise.all(
    entries.map(async (entry) => {
      const stat = await fs.stat(path.join(dir, entry)).catch(() => null);
      return stat?.isFile() ? `${entry} ${stat.size} ${stat.mtimeMs}` : entry;
    }),
  );
  // PostgreSQL's own working files change while it runs; the server's files and the pid file must not.
  return lines
    .filter(
      (l) => !/^postgres\/(base|global|pg_wal|pg_xact|pg_stat|pg_logical|pg_subtrans|pg_multixact)/.test(l),
    )
    .sort();
}

describe('a DATA_DIR in use', () => {
  it('refuses a second start in one line naming the process that holds it, and touches nothing', async () => {
    const dataDir = await tempDir('mc-owned-');
    const port = await freePort();
    const first = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    const firstPid = await first.ready;
    const client = await signInOn(`http://127.0.0.1:${port}`, 'owner@example.com');
    const postmaster = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8');
    const before = await snapshot(dataDir);

    // The same directory by another name (a symlink) is the same directory.
    const alias = path.join(await tempDir('mc-alias-'), 'data');
    await fs.symlink(dataDir, alias);
    for (const spelling of [dataDir, alias]) {
      const second = startServerProcess({
        DATA_DIR: spelling,
        PORT: String(await freePort()),
        HOST: '127.0.0.1',
      });
      expect(await second.exited).toBe(1);
      const lines = second.output().trim().split('\n');
      expect(lines).toEqual([
        expect.stringMatching(
          new RegExp(`^media-console: failed to start: DATA_DIR \\S+ is in use by process ${firstPid} `),
        ),
      ]);
    }

    expect(await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).toBe(postmaster);
    expect(existsSync(`/proc/${postmaster.split('\n')[0]}`)).toBe(true);
    expect(await snapshot(dataDir)).toEqual(before);
    // The first server still has its database.
    expect((await client.getMe()).person?.email).toBe('owner@example.com');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Its lock went with it: the directory can be used again.
    const third = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    await third.ready;
    third.child.kill('SIGTERM');
    expect(await third.exited).toBe(0);
  }, 120_000);
});

describe('the database restarted under load', () => {
  it('answers 503 with the error envelope while it is away, then recovers without a restart of the server', async () => {
    const EmbeddedPostgres = await importEmbeddedPostgres();
    const pgDir = path.join(await tempDir('mc-restart-pg-'), 'pg');
    const root = process.getuid?.() === 0;
    // As root PostgreSQL runs as the `postgres` user, which must be able to reach its directory.
    if (root) await fs.chmod(path.dirname(pgDir), 0o711);
    const pgPort = await freePort();
    const pg = new EmbeddedPostgres({
      databaseDir: pgDir,
      port: pgPort,
      user: 'postgres',
      password: 'restart-test',
      persistent: true,
      createPostgresUser: root,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
      onLog: () => {},
      onError: () => {},
    });
    await pg.initialise();
    await pg.start();
    await pg.createDatabase('restart');

    const port = await freePort();
    const server = startServerProcess({
      DATA_DIR: await tempDir('mc-restart-data-'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `postgresql://postgres:restart-test@127.0.0.1:${pgPort}/restart`,
    });
    const serverPid = await server.ready;
    const client = await signInOn(`http://127.0.0.1:${port}`, 'restart@example.com');

    const answers: Array<{ status: number; body: unknown }> = [];
    let load = true;
    // An authenticated read: the key is looked up in the database on every request.
    const worker = async () => {
      while (load) {
        const response = await fetch(`http://127.0.0.1:${port}/v2/me`, {
          headers: { authorization: `Bearer ${client.apiKey}` },
        });
        answers.push({ status: response.status, body: await response.json().catch(() => null) });
      }
    };
    const workers = [worker(), worker(), worker()];
    const waitFor = async (check: () => boolean) => {
      for (let i = 0; i < 300 && !check(); i++) await new Promise((r) => setTimeout(r, 100));
    };
    await waitFor(() => answers.some((a) => a.status === 200));
    await pg.stop();
    await waitFor(() => answers.filter((a) => a.status === 503).length >= 5);
    await pg.start();
    const mark = answers.length;
    await waitFor(() => answers.slice(mark).filter((a) => a.status === 200).length >= 5);
    load = false;
    await Promise.all(workers);

    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200, 503]));
    for (const answer of answers.filter((a) => a.status === 503)) {
      expect(answer.body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String) } });
    }
    // Recovered in the same process: reads, sign-in state and the job queue all work again.
    expect(answers.slice(mark).some((a) => a.status === 200)).toBe(true);
    expect((await client.getMe()).person?.email).toBe('restart@example.com');
    const job = await client.createImage({ body: { model: 'local-sketch', prompt: 'after the restart' } });
    expect((await waitForJob(client, job.id)).status).toBe('completed');
    expect(server.output()).not.toContain('unhandled error');
    expect(server.output()).toMatch(new RegExp(`"msg":"ready".*"pid":${serverPid}`));

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await pg.stop();
  }, 120_000);
});
