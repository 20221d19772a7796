import type http from 'node:http';
import os from 'node:os';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../contract/errors.ts';
import { seedDemo } from '../domain/analytics/demo-seed.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { isLoopbackAddress } from './dev-mailbox-access.ts';

/** An address of this machine on a real network interface (not loopback), when it has one. */
const networkAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((i) => i && !i.internal && i.family === 'IPv4')?.address;

/** The test app behind a real socket on every interface, so callers have real remote addresses. */
async function listen(t: TestApp) {
  const server = serve({ fetch: t.app.fetch, port: 0, hostname: '0.0.0.0' }) as http.Server;
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    get: (host: string, path: string, headers: Record<string, string> = {}) =>
      fetch(`http://${host}:${port}${path}`, { headers }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let t: TestApp;
let socket: Awaited<ReturnType<typeof listen>>;
beforeAll(async () => {
  t = await createTestApp();
  socket = await listen(t);
  await t.local.sendOtp({ body: { email: 'pending@example.com' } });
});
afterAll(async () => {
  await socket.close();
  await t.close();
});

const MAILBOX = '/api/dev/mailbox?to=pending%40example.com';

async function refused(response: Response) {
  expect(response.status).toBe(404);
  const { error } = ErrorEnvelope.parse(await response.json());
  expect(error.code).toBe('not_found');
  return error.message;
}

describe('the dev mailbox', () => {
  it('answers a caller on loopback', async () => {
    const response = await socket.get('127.0.0.1', MAILBOX);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Array<{ code: string }> };
    expect(data[0]?.code).toMatch(/^\d{6}$/);
  });

  it.skipIf(!networkAddress)(
    'refuses a caller from the network, whatever X-Forwarded-For claims',
    async () => {
      const host = networkAddress!;
      expect(await refused(await socket.get(host, MAILBOX))).toContain('loopback');
      await refused(await socket.get(host, MAILBOX, { 'x-forwarded-for': '127.0.0.1' }));
      await refused(await socket.get(host, '/api/dev/demo'));
    },
  );

  it('refuses a request that came through a proxy, even one on this machine', async () => {
    const forwarding = [
      'x-forwarded-for',
      'forwarded',
      'x-real-ip',
      'via',
      'x-client-ip',
      'true-client-ip',
      'cf-connecting-ip',
      'x-forwarded-host',
      'x-forwarded-proto',
      'fastly-client-ip',
      'x-cluster-client-ip',
      'x-original-forwarded-for',
    ];
    for (const header of forwarding) {
      const value = header === 'forwarded' ? 'for=127.0.0.1' : '127.0.0.1';
      await refused(await socket.get('127.0.0.1', MAILBOX, { [header]: value }));
    }
  });

  it('is closed by DEV_MAILBOX=off, and so is the demo sign-in', async () => {
    const off = await createTestApp({ DEV_MAILBOX: 'off' });
    try {
      await seedDemo(off.db, { charges: 20 });
      expect(await refused(await off.request(MAILBOX))).toContain('DEV_MAILBOX=off');
      expect(await refused(await off.request('/api/dev/demo'))).toContain('DEV_MAILBOX=off');
    } finally {
      await off.close();
    }
  });
});

describe('the demo sign-in', () => {
  it.skipIf(!networkAddress)('follows the same rule: the demo owner is named on loopback only', async () => {
    await seedDemo(t.db, { charges: 20 });
    expect((await socket.get('127.0.0.1', '/api/dev/demo')).status).toBe(200);
    expect(await refused(await socket.get(networkAddress!, '/api/dev/demo'))).toContain('loopback');
  });
});

describe('isLoopbackAddress', () => {
  it('knows 127.0.0.0/8 and ::1, also IPv4-mapped, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2'])
      expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['192.0.2.2', '10.0.0.1', '::ffff:10.0.0.1', 'fd00::2', '0.0.0.0', '::', ''])
      expect(isLoopbackAddress(address), address).toBe(false);
  });
});
