import { chromium } from '@playwright/test';
import { browserOrExit, type FoundBrowser, findBrowser } from './find-browser.ts';
import { packagedChromiumEnv, unpackPackagedChromium } from './packaged-chromium.ts';

/*
 * The one place that says how the end-to-end tests (and the first-screen bench) start their browser,
 * whichever the search found: the flags every one gets, and what the packaged Chromium needs more.
 */

/** The search as the tests run it, on this machine. */
function machineSearch() {
  return {
    env: process.env,
    playwrightChromium: () => chromium.executablePath(),
    packagedChromium: unpackPackagedChromium,
  };
}

/** Flags for every browser: headless, no sandbox (CI runs as root), no GPU, nothing phoning home. */
export const COMMON_BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface TestBrowser {
  found: FoundBrowser;
  launchOptions: {
    executablePath: string;
    args: string[];
    /** Only when the browser needs more than the test runner's environment. */
    env?: Record<string, string | undefined>;
  };
}

/** Launch options for a found browser. */
export function launchOptionsFor(found: FoundBrowser): TestBrowser['launchOptions'] {
  const options = { executablePath: found.executablePath, args: [...COMMON_BROWSER_ARGS] };
  if (found.source !== 'packaged') return options;
  return { ...options, env: { ...process.env, ...packagedChromiumEnv(found.executablePath) } };
}

/** The browser for the e2e tests; none stops the run saying what to do (playwright.config.ts, npm test). */
export function testBrowserOrExit(): TestBrowser {
  const found = browserOrExit(machineSearch());
  return { found, launchOptions: launchOptionsFor(found) };
}

/** The browser for scripts that report their own errors (the bench). */
export function testBrowser(): TestBrowser {
  const found = findBrowser(machineSearch());
  return { found, launchOptions: launchOptionsFor(found) };
}
