import type { Services } from '../services.ts';

export type Dependency = 'database' | 'queue' | 'storage';

export interface Readiness {
  ready: boolean;
  checks: Record<Dependency, 'ok' | 'unreachable'>;
}

const CHECK_TIMEOUT_MS = 3_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/**
 * Storage answers `ping()` when the store has one (the S3 store); else a cheap read of a key that
 * never exists, which still reaches the store (the local disk under DATA_DIR).
 */
async function pingStorage(s: Pick<Services, 'blobs'>): Promise<void> {
  const blobs = s.blobs as Services['blobs'] & { ping?: () => Promise<void> };
  if (typeof blobs.ping === 'function') await blobs.ping();
  else await blobs.stat('readyz-probe');
}

/** Whether this process can do its work: the database, pg-boss's schema in it, and the blob store. */
export async function checkReadiness(s: Pick<Services, 'db' | 'blobs'>): Promise<Readiness> {
  const probes: Record<Dependency, () => Promise<unknown>> = {
    database: () => s.db.query('SELECT 1'),
    // The queue lives in the same database; its own table answering means pg-boss is installed and usable.
    queue: () => s.db.query('SELECT 1 FROM pgboss.queue LIMIT 1'),
    storage: () => pingStorage(s),
  };
  const names = Object.keys(probes) as Dependency[];
  const results = await Promise.allSettled(names.map((name) => within(CHECK_TIMEOUT_MS, probes[name]())));
  const checks = Object.fromEntries(
    names.map((name, i) => [name, results[i]!.status === 'fulfilled' ? 'ok' : 'unreachable']),
  ) as Readiness['checks'];
  return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
}
