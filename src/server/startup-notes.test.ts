import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { freePort } from './db/embedded.ts';
import { startupBanner } from './startup-notes.ts';
import { startServerProcess } from './testing/server-process.ts';

const networkAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('the start-up lines', () => {
  it('say where the server listens and whether the dev mailbox is on', () => {
    const dev = startupBanner(loadConfig({}), 'http://127.0.0.1:8787');
    expect(dev).toContain('Media Console is running at http://localhost:8787');
    expect(dev).toContain(
      'Listening on 127.0.0.1:8787 (this machine only; set HOST to listen on the network)',
    );
    expect(dev).toContain('dev mailbox on, readable only from this machine');

    const open = startupBanner(loadConfig({ HOST: '0.0.0.0' }), 'http://localhost:9000');
    expect(open).toContain('Listening on 0.0.0.0:9000 (every network interface)');
    expect(open).toContain('dev mailbox on, readable only from this machine');

    const off = startupBanner(loadConfig({ DEV_MAILBOX: 'off' }), 'http://127.0.0.1:8787');
    expect(off).toContain('DEV_MAILBOX=off: codes are not delivered anywhere');

    const mailed = startupBanner(
      loadConfig({ SMTP_URL: 'smtp://mail.example.com' }),
      'http://localhost:8787',
    );
    expect(mailed).toContain('Listening on 0.0.0.0:8787 (every network interface)');
    expect(mailed).toContain('mailed through SMTP_URL (no dev mailbox)');

    const v6 = startupBanner(loadConfig({ HOST: '::1' }), 'http://[::1]:8787');
    expect(v6).toContain('Listening on [::1]:8787 (this machine only');
  });
});

describe('npm start without SMTP and without HOST', () => {
  it('listens on loopback only, and says so', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-listen-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = startServerProcess({ DATA_DIR: dataDir, PORT: String(port) });
    try {
      await server.ready;
      await expect.poll(() => server.output()).toContain('Sign-in codes:');
      expect(server.output()).toContain(`Listening on 127.0.0.1:${port} (this machine only`);
      expect(server.output()).toContain('dev mailbox on, readable only from this machine');
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      if (networkAddress) {
        await expect(fetch(`http://${networkAddress}:${port}/healthz`)).rejects.toThrow();
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 120_000);
});
