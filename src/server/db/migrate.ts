import { migrations } from './migrations/index.ts';
import type { Db } from './pool.ts';
import { transaction } from './pool.ts';

export interface Migration {
  id: string;
  sql: string;
}

/** Applies every migration not yet applied, in order, each in its own transaction, under an advisory lock (several processes may start at once). */
export async function migrate(db: Db): Promise<string[]> {
  const applied: string[] = [];
  await transaction(db, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(7226101)');
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((r) => r.id),
    );
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
      applied.push(migration.id);
    }
  });
  return applied;
}
