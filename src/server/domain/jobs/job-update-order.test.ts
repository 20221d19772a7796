import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/pool.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { cancelActiveJob } from './job-lifecycle.ts';

// No workers: the test writes the job's progress itself, at the moment it chooses.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(async () => {
  await t?.close();
});

/**
 * The database, except that the first transaction's row lock waits until `meanwhile` has run on another
 * connection: the transaction has begun (its `now()` is fixed) and a shorter write commits ahead of it.
 */
function withWriteSlippingIn(db: Db, meanwhile: () => Promise<unknown>): Db {
  let slipped = false;
  const wrapped = Object.create(db) as Db;
  wrapped.connect = (async () => {
    const client = await db.connect();
    const query = client.query.bind(client) as (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
    const patched = Object.assign(Object.create(client) as pg.PoolClient, {
      query: async (text: string, values?: unknown[]) => {
        if (!slipped && text.includes('FOR UPDATE')) {
          slipped = true;
          await meanwhile();
        }
        return query(text, values);
      },
      release: () => client.release(),
    });
    return patched;
  }) as Db['connect'];
  return wrapped;
}

describe("a job's updated_at", () => {
  it('moves forward when a transaction that began first commits last, so the later state reads as newer', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const job = await client.createImage({
      body: { model: 'local-sketch', prompt: 'ordering', options: { cache: false } },
    });
    const progress = async () => {
      const { rows } = await t.db.query<{ updated_at: Date }>(
        `UPDATE jobs SET status = 'running', progress = 0.5, updated_at = now() WHERE id = $1 RETURNING updated_at`,
        [job.id],
      );
      return rows[0]!.updated_at;
    };
    let runningAt: Date | undefined;
    const cancelled = await cancelActiveJob(
      withWriteSlippingIn(t.db, async () => {
        runningAt = await progress();
      }),
      job.id,
    );
    expect(cancelled?.status).toBe('cancelled');
    expect(runningAt).toBeInstanceOf(Date);
    // The API's precision is the millisecond: the cancel must be later there too.
    const seen = await client.getJob({ params: { id: job.id } });
    expect(seen.status).toBe('cancelled');
    expect(Date.parse(seen.updated_at)).toBeGreaterThan(runningAt!.getTime());
  });

  it('keeps a value written on purpose', async () => {
    const client = t.clientFor((await signUp(t)).api_key);
    const job = await client.createImage({
      body: { model: 'local-sketch', prompt: 'aged', options: { cache: false } },
    });
    const { rows } = await t.db.query<{ aged: boolean }>(
      `UPDATE jobs SET updated_at = now() - interval '1 minute' WHERE id = $1
       RETURNING updated_at < now() - interval '59 seconds' AS aged`,
      [job.id],
    );
    expect(rows[0]!.aged).toBe(true);
  });
});
