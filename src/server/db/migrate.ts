import { migrations } from './migrations/index.ts';
import type { Db } from './pool.ts';
import { transaction } from './pool.ts';

export interface Migration {
  id: string;
  sql: string;
}

/** Whether every migration is recorded as applied (no lock: applied ones are never undone). */
async function upToDate(db: Db): Promise<boolean> {
  const recorded = await db
    .query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations WHERE id = ANY($1)', [
      migrations.map((m) => m.id),
    ])
    .catch(() => null); // no table yet: a new database
  return recorded?.rows[0]?.count === migrations.length;
}

/**
 * Applies every migration not yet applied, in order, in one transaction under an advisory lock (several
 * processes may start at once). A database already up to date costs one query.
 */
export async function migrate(db: Db): Promise<string[]> {
  if (await upToDate(db)) return [];
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
