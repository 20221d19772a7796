import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects: pure/server code under Node (server tests share one embedded PostgreSQL started in
// global setup, each file on its own database), console components under jsdom.
export default defineConfig({
  test: {
    // Vitest's default is one worker per core but one: on 2 cores a single worker, mostly waiting on
    // PostgreSQL, ffmpeg and timers. Two workers there ran the suite in 285 s instead of 449 s (quiet
    // machine, 25 Nov 2026, same 1,672 tests passing).
    maxWorkers: Math.max(2, availableParallelism()),
    // The default output, then one line naming the tests skipped for want of an optional program.
    reporters: ['default', './src/server/testing/optional-program-reporter.ts'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/contract/**/*.test.ts',
            'src/client/**/*.test.ts',
            'src/cli/**/*.test.ts',
            'src/server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'e2e/support/**/*.test.ts',
          ],
          globalSetup: ['src/server/testing/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['src/web/**/*.test.{ts,tsx}'],
          setupFiles: ['src/web/testing/setup.ts'],
          // Above the 10 s that findBy*/waitFor may wait (setup.ts).
          testTimeout: 30_000,
        },
      },
    ],
  },
});
