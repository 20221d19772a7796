import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/server/config.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../src/server/db/embedded.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { createPool } from '../src/server/db/pool.ts';
import { seedDemo } from '../src/server/domain/analytics/demo-seed.ts';
import { createLogger } from '../src/server/logger.ts';

/**
 * `npm run seed:demo`: a 13-month history for the demo team, in the database `npm start` uses:
 * `DATABASE_URL`, else the embedded PostgreSQL of `DATA_DIR`: the running one when `npm start` is up
 * (its port is in postmaster.pid), or started here for the seeding. `DEMO_CHARGES` sets the size.
 */
const config = loadConfig();
const log = createLogger('warn');

/** The embedded PostgreSQL of a running `npm start`, if there is one: never start a second on its data. */
function runningEmbeddedUrl(dataDir: string): string | null {
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || !existsSync(`/proc/${pid}`)) return null;
  const port = Number(lines[3]);
  const password = readFileSync(path.join(dataDir, 'postgres-password'), 'utf8').trim();
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/media_console`;
}

let embedded: EmbeddedDatabase | null = null;
let url = config.DATABASE_URL ?? runningEmbeddedUrl(config.DATA_DIR);
if (!url) {
  embedded = await startEmbeddedPostgres(config.DATA_DIR, log);
  url = embedded.url;
}
const db = createPool(url, 2);
try {
  await migrate(db);
  const started = Date.now();
  const charges = process.env.DEMO_CHARGES ? Number(process.env.DEMO_CHARGES) : undefined;
  const result = await seedDemo(db, { charges });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(
    [
      `Seeded the demo team "Demo Studio" (${result.teamId}) in ${seconds} s:`,
      `  ${result.charges.toLocaleString('en')} charges, ${result.jobs.toLocaleString('en')} jobs, ${result.ledgerRows.toLocaleString('en')} ledger rows,`,
      `  ${result.from.toISOString().slice(0, 10)} to ${result.to.toISOString().slice(0, 10)}.`,
      '',
      `Start the server (npm start) and click "Explore the demo data" on the sign-in page: it signs in as`,
      `${result.email} through the dev mailbox (servers without SMTP only). The demo team is that person's team;`,
      'if the address had signed in before the seeding, their own team comes first: send X-Team-Id for Demo Studio.',
      '',
    ].join('\n'),
  );
} finally {
  await db.end();
  await embedded?.stop();
}
