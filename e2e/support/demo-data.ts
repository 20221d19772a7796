import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createPool } from '../../src/server/db/pool.ts';
import { type DemoSeedResult, seedDemo } from '../../src/server/domain/analytics/demo-seed.ts';

/**
 * The URL of the embedded PostgreSQL the e2e server started in E2E_DATA_DIR (playwright.config.ts): its
 * port is in postmaster.pid and its password in DATA_DIR, as `npm run seed:demo` finds a running one.
 */
function e2eDatabaseUrl(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (run through playwright.config.ts)');
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) throw new Error(`no running PostgreSQL in ${dataDir}`);
  const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/media_console`;
}

/**
 * Seeds the demo history (`npm run seed:demo`'s, smaller) for a team of its own, owned by `email`, in the
 * e2e server's database; that person then signs in through the UI and lands in the demo team.
 */
export async function seedDemoTeam(email: string, slug: string, charges: number): Promise<DemoSeedResult> {
  const db = createPool(e2eDatabaseUrl(), 2);
  try {
    return await seedDemo(db, { email, slug, charges });
  } finally {
    await db.end();
  }
}
