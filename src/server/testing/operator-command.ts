import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { TestApp } from './test-app.ts';

const run = promisify(execFile);

/**
 * An operator command (`scripts/<name>.ts`) on the test's database, as `npm run <name> -- ...` runs it
 * (from the server bundle, in plain node): each call answers its exit code and what it printed (stdout,
 * then stderr).
 */
export function operatorCommand(t: TestApp, name: 'credits' | 'templates' | 'audit') {
  return (...args: string[]) =>
    run(process.execPath, ['scripts/operator.mjs', name, ...args], {
      env: { ...process.env, DATABASE_URL: t.config.DATABASE_URL, LOG_LEVEL: 'silent' },
    }).then(
      ({ stdout }) => ({ code: 0, out: stdout }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        out: error.stdout + error.stderr,
      }),
    );
}
