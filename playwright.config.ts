import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { testBrowserOrExit } from './e2e/support/browser-launch.ts';

// E2E_PORT lets two runs share a machine.
const PORT = Number(process.env.E2E_PORT ?? 8799);
const BASE_URL = `http://127.0.0.1:${PORT}`;

const DATA_DIR_PREFIX = 'media-console-e2e-';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Data directories of earlier runs (about 45 MB each) are removed once a day old. */
function sweepOldRuns() {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(DATA_DIR_PREFIX)) continue;
    const dir = path.join(tmpdir(), name);
    if (Date.now() - statSync(dir).mtimeMs > DAY_MS) rmSync(dir, { recursive: true, force: true });
  }
}

// A fresh data directory per run (a new embedded PostgreSQL, no accounts). Playwright loads this file
// in the runner and again in each worker; the environment variable makes them all agree on one.
if (!process.env.E2E_DATA_DIR) {
  sweepOldRuns();
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), DATA_DIR_PREFIX));
}

// CHROMIUM_PATH, a system Chromium or Chrome, Playwright's own, then the packaged one (unpacked on first
// use); none stops the run saying what to do. Flags and the packaged browser's needs: browser-launch.ts.
const browser = testBrowserOrExit();

export default defineConfig({
  testDir: 'e2e',
  // e2e/support holds helpers and their unit tests (run by vitest), not journeys.
  testIgnore: 'support/**',
  // One spec file per journey, each with its own people: two workers share the one server, so the suite
  // takes about half the time on CI's two cores.
  fullyParallel: false,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: browser.launchOptions,
      },
    },
  ],
  webServer: {
    // The real reference server, serving the console built into dist/ (`npm run test:e2e` builds first).
    command: 'npx tsx src/server/main.ts',
    url: `${BASE_URL}/healthz`,
    timeout: 180_000,
    reuseExistingServer: false,
    env: {
      PORT: String(PORT),
      PUBLIC_URL: BASE_URL,
      DATA_DIR: process.env.E2E_DATA_DIR,
      SIGNUP_CREDITS: '1000',
      // Every journey signs its people in from 127.0.0.1: more than one address may ask for in production.
      SIGN_IN_CODES_PER_ADDRESS: '1000',
      // Empty means unset to the server: embedded PostgreSQL in DATA_DIR, and the dev mailbox.
      DATABASE_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
    },
  },
});
