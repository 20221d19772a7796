import { loadConfig } from '../src/server/config.ts';
import { seedDemo } from '../src/server/domain/analytics/demo-seed.ts';
import { createLogger } from '../src/server/logger.ts';
import { openScriptDatabase } from './script-database.ts';

/**
 * `npm run seed:demo`: a 13-month history for the demo team, in the database `npm start` uses:
 * `DATABASE_URL`, else the embedded PostgreSQL of `DATA_DIR`: the running one when `npm start` is up
 * (its port is in postmaster.pid), or started here for the seeding. `DEMO_CHARGES` sets the size.
 */
const config = loadConfig();
const log = createLogger('warn');

const { db, close } = await openScriptDatabase(config, log);
try {
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
  await close();
}
