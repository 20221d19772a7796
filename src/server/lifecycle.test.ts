import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../client/create-client.ts';
import { freePort } from './db/embedded.ts';
import { startServerProcess } from './testing/server-process.ts';
import { createTestDatabase } from './testing/test-app.ts';

const dirs: string[] = [];

function postmasterPid(dataDir: string): Promise<number | null> {
  return fs
    .readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')
    .then((text) => Number(text.split('\n')[0]))
    .catch(() => null);
}

afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('the server process', () => {
  it('starts on embedded PostgreSQL, stops cleanly on SIGTERM and SIGINT, and a restart keeps the data', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-lifecycle-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    };

    const first = startServerProcess(env);
    await first.ready;
    expect(first.output()).toContain(`Media Console is running at http://127.0.0.1:${port}`);
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}/v2` });
    const email = 'lifecycle@example.com';
    await client.sendOtp({ body: { email } });
    const code = (await client.devMailbox({ query: { to: email } })).data[0]!.code!;
    const session = await client.verifyOtp({ body: { email, code } });
    const pgPid = await postmasterPid(dataDir);
    expect(pgPid).toBeGreaterThan(0);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    expect(existsSync(`/proc/${pgPid}`)).toBe(false);

    const second = startServerProcess(env);
    await second.ready;
    const me = await createClient({ baseUrl: `http://127.0.0.1:${port}/v2`, token: session.api_key }).getMe();
    expect(me.person?.email).toBe(email);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('takes over after a SIGKILL left its PostgreSQL running', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-crash-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' };
    const first = startServerProcess(env);
    const serverPid = await first.ready;
    const orphan = await postmasterPid(dataDir);
    // Kill the server itself (tsx runs it as a child process), as the OOM killer would.
    process.kill(serverPid, 'SIGKILL');
    await first.exited;
    expect(existsSync(`/proc/${orphan}`)).toBe(true);

    const second = startServerProcess(env);
    await second.ready;
    expect(second.output()).toContain('stopping a PostgreSQL left running by an earlier process');
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);

  it('uses an external PostgreSQL from DATABASE_URL and starts none of its own', async () => {
    const database = await createTestDatabase();
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-external-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = startServerProcess({
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
    });
    await server.ready;
    expect(server.output()).toMatch(/"msg":"ready".*"database":"external"/);
    expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await database.drop();
  }, 60_000);

  it('says so in one line when the port is taken', async () => {
    const net = await import('node:net');
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    const port = (blocker.address() as { port: number }).port;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-port-'));
    dirs.push(dataDir);
    const taken = startServerProcess({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
    await taken.ready.catch(() => {});
    expect(await taken.exited).toBe(1);
    expect(taken.output()).toContain(`failed to start: port ${port} on 127.0.0.1 is in use`);
    expect(taken.output()).not.toContain('    at ');
    expect(await postmasterPid(dataDir)).toBeNull();
    blocker.close();
  }, 60_000);

  it('stops at start-up with one clear line for a bad setting', async () => {
    const bad = startServerProcess({ PORT: 'eighty', DATABASE_URL: 'mysql://nope' });
    await bad.ready.catch(() => {});
    expect(await bad.exited).toBe(2);
    const lines = bad.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^media-console: Invalid configuration: PORT: .*DATABASE_URL: must be a postgres/,
    );
  }, 60_000);
});
