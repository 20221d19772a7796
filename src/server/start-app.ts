import type { RequestListener } from 'node:http';
import type { getRequestListener } from '@hono/node-server';
import sharp from 'sharp';
import type { Config } from './config.ts';
import { migrate } from './db/migrate.ts';
import { createPool } from './db/pool.ts';
import type { Catalog } from './domain/catalog/catalog.ts';
import { loadAppSecret } from './domain/secrets.ts';
import { createApp } from './http/app.ts';
import { FastPath } from './http/fast-path.ts';
import { createApiServer } from './http/node-server.ts';
import { createRequestRecorder } from './http/request-record.ts';
import { allRoutes } from './http/routes.ts';
import type { Logger } from './logger.ts';
import { createOpsApp } from './ops/ops-app.ts';
import { closeOcr } from './providers/local/analyze-ocr.ts';
import { startQueue } from './queue/boss.ts';
import { createServices } from './services-factory.ts';
import { signInMailNote } from './startup-notes.ts';
import type { StepTimer } from './step-timer.ts';

export interface StartedApp {
  url: string | null;
  opsUrl: string | null;
  catalog: Catalog;
}

/**
 * Everything after the database: services, then three things side by side (our migrations; pg-boss's
 * schema, queues and workers, which wait for the migrations before they take a job; the HTTP app and
 * its key-change listener), then listen. Each part that needs undoing pushes its cleanup, in the same
 * order whichever finishes first; `timer` records the start-up timeline.
 */
export async function startApp(
  config: Config,
  log: Logger,
  databaseUrl: string,
  cleanups: Array<() => Promise<void>>,
  timer: StepTimer,
): Promise<StartedApp> {
  // libvips's operation cache kept up to 50 MB of images this server had made or read, which it seldom
  // sees again (every job's output is new): memory held after work, not a speed-up.
  sharp.cache(false);
  const db = createPool(databaseUrl);
  cleanups.push(() => db.end());
  const appSecret = await loadAppSecret(config.APP_SECRET, config.DATA_DIR);
  const services = createServices(config, db, databaseUrl, log, appSecret);
  timer.step('services');

  const sideBySide = performance.now();
  const migrated = migrate(db).then((applied) => {
    if (applied.length) log.info('migrations applied', { migrations: applied });
    timer.since(sideBySide, 'migrations');
  });
  const serving = config.ROLE !== 'worker';
  // Pushed before the queue, so it runs after the workers stop: the OCR worker thread of video analysis.
  cleanups.push(closeOcr);
  const [queue, keyChanges] = await Promise.allSettled([
    startQueue(
      services,
      // Another process may share an external database: new work is announced to it.
      { work: config.ROLE !== 'api', sharedDatabaseUrl: config.DATABASE_URL ? databaseUrl : undefined },
      migrated,
    ).finally(() => timer.since(sideBySide, 'queue')),
    // Revocations and role changes made by any process on this database reach this one's key cache.
    serving ? services.apiKeys.listen(databaseUrl) : null,
    migrated,
  ]);
  if (queue.status === 'fulfilled') cleanups.push(() => queue.value.stop());
  if (keyChanges.status === 'fulfilled' && keyChanges.value) cleanups.push(keyChanges.value);
  // The migrations' own failure, when there was one: the queue waited for them and failed with it.
  await migrated;
  if (queue.status === 'rejected') throw queue.reason;
  if (keyChanges.status === 'rejected') throw keyChanges.reason;
  timer.mark();

  let url: string | null = null;
  let opsUrl: string | null = null;
  if (serving) {
    const fastPath = new FastPath();
    const record = createRequestRecorder(services);
    const app = createApp(services, allRoutes(services, fastPath), record);
    const listening = await listen(app.fetch, config.PORT, config.HOST, (framework) =>
      fastPath.listener(framework, record),
    );
    cleanups.push(listening.close);
    url = listening.url;
    opsUrl = url;
    if (services.mailer.kind === 'dev-mailbox') log.warn(`sign-in codes: ${signInMailNote(config)}`);
  } else {
    // A worker answers health and metrics only, on METRICS_PORT (else PORT).
    const listening = await listen(
      createOpsApp(services).fetch,
      config.METRICS_PORT ?? config.PORT,
      config.HOST,
    );
    cleanups.push(listening.close);
    opsUrl = listening.url;
  }
  timer.step('listen');
  return { url, opsUrl, catalog: services.catalog };
}

type FetchHandler = Parameters<typeof getRequestListener>[0];

/**
 * Listens on port/host; answers the server, its URL, and a close that finishes requests in flight.
 * `ahead` puts a listener of its own in front of the framework's (the fast path). The server's timeouts
 * and its answers to what never reaches the app are createApiServer's.
 */
async function listen(
  fetch: FetchHandler,
  port: number,
  hostname: string,
  ahead: (framework: RequestListener) => RequestListener = (framework) => framework,
) {
  const server = createApiServer(fetch, { hostname, ahead });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`port ${port} on ${hostname} is in use: set PORT to a free port`)
          : error,
      ),
    );
    server.listen(port, hostname, resolve);
  });
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const anyInterface = hostname === '0.0.0.0' || hostname === '::';
  const host = anyInterface ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname;
  const close = () =>
    new Promise<void>((resolve) => {
      // Finish requests in flight, then drop idle keep-alive connections.
      server.close(() => resolve());
      server.closeIdleConnections();
      setTimeout(() => {
        server.closeAllConnections();
        resolve();
      }, 5_000).unref();
    });
  return { server, url: `http://${host}:${actualPort}`, close };
}
