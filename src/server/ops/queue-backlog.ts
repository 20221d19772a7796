import type { Queryable } from '../db/pool.ts';

export interface QueueBacklog {
  queue: string;
  waiting: number;
  active: number;
  oldestWaitingSeconds: number;
}

const CACHE_MS = 5_000;

/**
 * Depth and age of each pg-boss queue, read from its tables at most every 5 s (both gauges of a scrape
 * share one read). Waiting counts only messages due now: a webhook retry scheduled for later is not late.
 */
export function queueBacklog(db: Queryable): () => Promise<QueueBacklog[]> {
  let cached: { at: number; value: Promise<QueueBacklog[]> } | null = null;
  return () => {
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
    const value = readBacklog(db);
    cached = { at: Date.now(), value };
    // A failed read is not kept: the next scrape tries again.
    value.catch(() => {
      cached = null;
    });
    return value;
  };
}

async function readBacklog(db: Queryable): Promise<QueueBacklog[]> {
  const { rows } = await db.query<{ queue: string; waiting: string; active: string; oldest: number | null }>(
    `SELECT q.name AS queue,
            count(j.id) FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now()) AS waiting,
            count(j.id) FILTER (WHERE j.state = 'active') AS active,
            extract(epoch FROM now() - min(j.created_on)
              FILTER (WHERE j.state IN ('created', 'retry') AND j.start_after <= now()))::float8 AS oldest
       FROM pgboss.queue q LEFT JOIN pgboss.job j ON j.name = q.name AND j.state < 'completed'
      GROUP BY q.name ORDER BY q.name`,
  );
  return rows.map((r) => ({
    queue: r.queue,
    waiting: Number(r.waiting),
    active: Number(r.active),
    oldestWaitingSeconds: Math.max(0, r.oldest ?? 0),
  }));
}
