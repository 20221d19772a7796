import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { createLogger } from '../logger.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Connection URL of the test run's PostgreSQL (database media_console, used as an admin connection). */
    pgAdminUrl: string;
  }
}

/** One embedded PostgreSQL for the whole run; each test file makes its own database on it. */
export default async function setup(project: TestProject) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-test-pg-'));
  const db = await startEmbeddedPostgres(dir, createLogger('warn'));
  project.provide('pgAdminUrl', db.url);
  return async () => {
    await db.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
