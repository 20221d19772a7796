import type { Config } from './config.ts';
import { templatesDirFrom } from './db/cluster-template.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import type { Catalog } from './domain/catalog/catalog.ts';
import type { Logger } from './logger.ts';
import { stepTimer } from './step-timer.ts';

export interface RunningServer {
  /** Where the HTTP server listens (null for a worker-only process). */
  url: string | null;
  /** Where /healthz, /readyz and /metrics answer (the API's URL, or a worker's own listener). */
  opsUrl: string | null;
  databaseUrl: string;
  /** What can run here, for the start-up notice of models that cannot. */
  catalog: Catalog;
  /**
   * Milliseconds each start-up step took (logged with `ready`: where a slow start went). `database` and
   * `code` run side by side, then `services`; `migrations` and `queue` side by side, then `listen`.
   */
  steps: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * config → database → services → (migrations, queue, key listener side by side) → listen. Stops in the
 * reverse order.
 * The rest of the server's code (pg-boss, Hono, sharp, the AWS SDK, the contract's schemas) loads while
 * the embedded PostgreSQL, a process of its own, starts: on two cores the two take about as long.
 */
export async function startServer(config: Config, log: Logger): Promise<RunningServer> {
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error) => log.error('shutdown step failed', { error: String(error) }));
    }
    cleanups.length = 0;
  };
  const timer = stepTimer();
  const started = performance.now();
  // The code loads once PostgreSQL's process is on its way: loading it first would hold back the
  // spawn (module evaluation keeps the event loop busy).
  let code: Promise<typeof import('./start-app.ts')> | undefined;
  const loadCode = () => {
    if (!code) {
      code = import('./start-app.ts').then((module) => {
        timer.since(started, 'code');
        return module;
      });
      // Read below once the database is up; a database that failed first is the error to report.
      code.catch(() => {});
    }
    return code;
  };
  const database = config.DATABASE_URL
    ? Promise.resolve({ url: config.DATABASE_URL, stop: async () => {} })
    : startEmbeddedPostgres(
        `${config.DATA_DIR}`,
        log,
        loadCode,
        templatesDirFrom(config.POSTGRES_TEMPLATE_DIR),
      ).then((embedded) => {
        timer.since(started, 'database');
        return embedded;
      });
  if (config.DATABASE_URL) loadCode();
  const [databaseResult, codeResult] = await Promise.allSettled([database, database.then(loadCode)]);
  if (databaseResult.status === 'fulfilled') cleanups.push(() => databaseResult.value.stop());
  try {
    if (databaseResult.status === 'rejected') throw databaseResult.reason;
    // The database started, so the code was loaded (loadCode runs at the latest after it).
    if (codeResult.status === 'rejected') throw codeResult.reason;
    timer.mark();
    const databaseUrl = databaseResult.value.url;
    const app = await codeResult.value.startApp(config, log, databaseUrl, cleanups, timer);
    return { ...app, databaseUrl, steps: timer.steps, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
