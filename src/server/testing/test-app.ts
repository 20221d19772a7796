import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createClient } from '../../client/create-client.ts';
import { type Config, loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { createPool } from '../db/pool.ts';
import { createApp } from '../http/app.ts';
import { allRoutes } from '../http/routes.ts';
import { createLogger, type Logger } from '../logger.ts';
import { closeOcr } from '../providers/local/analyze-ocr.ts';
import { startQueue } from '../queue/boss.ts';
import { createServices } from '../services-factory.ts';

export const TEST_PUBLIC_URL = 'http://media.test';

/** A new, migrated database on the run's PostgreSQL; dropped by `close`. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * The real app on a real database, called in-process. `clientFor` is our SDK wired to it; its requests
 * come from `X-Forwarded-For` addresses the tests choose (TRUST_PROXY is on). `local` sends none: an
 * in-process call from this machine, the only kind of caller the dev mailbox answers.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  // `log`: a logger of the test's own, for tests that read what the server logged.
  // `now`: the catalog's clock, for tests of lifecycles that change by the day.
  options: { work?: boolean; log?: Logger; now?: () => Date } = {},
) {
  const database = await createTestDatabase();
  const config: Config = loadConfig({
    PUBLIC_URL: TEST_PUBLIC_URL,
    DATA_DIR: '/nonexistent-test-data-dir',
    DATABASE_URL: database.url,
    APP_SECRET: 'test-secret-test-secret-test-secret-0123',
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'silent',
    STATIC_DIR: '/nonexistent-static-dir',
    // Jobs at the stand-in providers are polled without the production gap between status calls.
    PROVIDER_POLL_SECONDS: '0.05',
    ...env,
  });
  const db = createPool(database.url, 20);
  await migrate(db);
  const services = createServices(
    config,
    db,
    database.url,
    options.log ?? createLogger(config.LOG_LEVEL),
    config.APP_SECRET!,
    {
      PATH: process.env.PATH,
    },
    options.now,
  );
  // The real queue with its workers, on this test's database.
  const queue = await startQueue(services, { work: options.work ?? true });
  const app = createApp(services, allRoutes(services));
  const fetchApp = (input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(app.request(input, init));
  const clientFor = (token?: string | null, address = '198.51.100.7') =>
    createClient({
      baseUrl: `${TEST_PUBLIC_URL}/v2`,
      token: token ?? null,
      fetch: (input, init) =>
        fetchApp(input, {
          ...init,
          headers: { ...(init?.headers as Record<string, string>), 'x-forwarded-for': address },
        }),
    });
  return {
    app,
    services,
    db,
    config,
    /** Raw request against the app, for what the SDK would not send (bad JSON, odd methods). */
    request: (path: string, init?: RequestInit) => fetchApp(`${TEST_PUBLIC_URL}${path}`, init),
    clientFor,
    local: createClient({ baseUrl: `${TEST_PUBLIC_URL}/v2`, fetch: fetchApp }),
    async close() {
      await queue.stop();
      await closeOcr();
      await db.end();
      await database.drop();
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** Signs a fresh person in through the real OTP flow (code read from the dev mailbox, on this machine). */
export async function signUp(
  t: TestApp,
  email = `p-${randomBytes(5).toString('hex')}@example.com`,
  address?: string,
) {
  const client = t.clientFor(null, address ?? `203.0.113.${Math.floor(Math.random() * 250) + 1}`);
  await client.sendOtp({ body: { email } });
  const mail = await t.local.devMailbox({ query: { to: email } });
  const code = mail.data[0]?.code;
  if (!code) throw new Error('no code in the dev mailbox');
  const session = await client.verifyOtp({ body: { email, code } });
  return session;
}
