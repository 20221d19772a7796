import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ensureConsoleBuild } from '../scripts/console-build.ts';
import { launchChromium, signedInSession, startServer } from './console-server.ts';

/*
 * How long each console page takes to be usable in Chromium, against the real server serving a built
 * console (issue #29: every page's first load under 1 s on a quiet machine). Three ways in, per page:
 *
 * - first load: a fresh browser context (empty cache, signed in), from navigation start until the page is
 *   ready (below);
 * - reload: the same page again in that context (the hashed files come from the browser's cache);
 * - navigation: from another page of the console, a click on the page's link in the side navigation until
 *   it is ready (the console's code already running, the page's own chunk and data not loaded yet).
 *
 * "Ready" is the page's heading in its main region with no loading line left in it (no `role=status` that
 * says Loading or Preparing), read in the page's own clock at each animation frame.
 *
 * `PAGE_LOAD_BEFORE=<dist>` adds another build of the console (the previous one), served by a second
 * server from this checkout: both are measured in the same rounds, alternating which goes first, and the
 * table gives both medians and their ratio. Timings depend on the machine's load; compare side by side.
 */

const root = path.resolve(import.meta.dirname, '..');

export interface ConsolePage {
  name: string;
  path: string;
  /** The side navigation's label of the page (the navigation's start is another page). */
  link: string;
}

export const PAGES: readonly ConsolePage[] = [
  { name: 'playground', path: '/playground', link: 'Playground' },
  { name: 'pipelines', path: '/pipelines', link: 'Pipelines' },
  { name: 'jobs', path: '/jobs', link: 'Jobs' },
  { name: 'files', path: '/files', link: 'Files' },
  { name: 'presets', path: '/presets', link: 'Presets' },
  { name: 'templates', path: '/templates', link: 'Templates' },
  { name: 'analytics', path: '/analytics', link: 'Analytics' },
  { name: 'billing', path: '/billing', link: 'Billing' },
  { name: 'keys', path: '/keys', link: 'Keys' },
  { name: 'team', path: '/team', link: 'Team' },
  { name: 'settings', path: '/settings', link: 'Settings' },
];

/** The first-load target of #29, in milliseconds. */
export const FIRST_LOAD_TARGET_MS = 1000;

type Way = 'first' | 'reload' | 'navigation';
const WAYS: readonly Way[] = ['first', 'reload', 'navigation'];

export interface BuildTimings {
  build: string;
  /** Milliseconds per page and way, one figure per round. */
  pages: Record<string, Record<Way, number[]>>;
  /** Errors and warnings the pages wrote to the browser's console, with the page they came from. */
  consoleMessages: string[];
}

export interface PageLoadResult {
  rounds: number;
  builds: BuildTimings[];
}

/** Resolves with the page's own clock (ms since its navigation started) once `pathname` is ready. */
async function readyAt(page: Page, pathname: string): Promise<number> {
  const handle = await page.waitForFunction(
    (expected) => {
      if (window.location.pathname !== expected) return false;
      const main = document.querySelector('main');
      if (!main?.querySelector('h1')) return false;
      const loading = [...main.querySelectorAll('[role="status"]')].some((status) =>
        /Loading|Preparing/.test(status.textContent ?? ''),
      );
      return loading ? false : performance.now();
    },
    pathname,
    { polling: 'raf', timeout: 60_000 },
  );
  return (await handle.jsonValue()) as number;
}

async function signedInContext(browser: Browser, base: string, session: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: base });
  await context.addInitScript(
    (value) => window.localStorage.setItem('media-console:session', value),
    session,
  );
  return context;
}

/** One round of one page on one build: first load and reload in a fresh context, then a navigation to it. */
async function measurePage(
  browser: Browser,
  base: string,
  session: string,
  target: ConsolePage,
  messages: string[],
): Promise<Record<Way, number>> {
  const context = await signedInContext(browser, base, session);
  try {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        messages.push(`${target.path}: ${message.type()}: ${message.text()}`);
      }
    });
    page.on('pageerror', (error) => messages.push(`${target.path}: uncaught: ${error.message}`));

    await page.goto(target.path, { waitUntil: 'commit' });
    const first = await readyAt(page, target.path);
    await page.goto(target.path, { waitUntil: 'commit' });
    const reload = await readyAt(page, target.path);

    // From another page (settings, or jobs for settings itself), its code and data loaded and settled.
    const from = target.path === '/settings' ? '/jobs' : '/settings';
    await page.goto(from, { waitUntil: 'commit' });
    await readyAt(page, from);
    await page.waitForLoadState('networkidle');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: target.link });
    const clicked = await link.evaluate((element: HTMLElement) => {
      const at = performance.now();
      element.click();
      return at;
    });
    const navigation = (await readyAt(page, target.path)) - clicked;
    return { first, reload, navigation };
  } finally {
    await context.close();
  }
}

interface Served {
  build: string;
  base: string;
  session: string;
  stop: () => Promise<void>;
  timings: BuildTimings;
}

async function serve(build: string, dist: string): Promise<Served> {
  const server = await startServer(dist);
  const session = await signedInSession(server.base);
  const pages = Object.fromEntries(PAGES.map((p) => [p.name, { first: [], reload: [], navigation: [] }]));
  return { build, ...server, session, timings: { build, pages, consoleMessages: [] } };
}

export async function benchPageLoad(
  options: { dist?: string; before?: string; rounds?: number } = {},
): Promise<PageLoadResult> {
  const dist = options.dist ?? path.join(root, 'dist');
  if (dist === path.join(root, 'dist')) ensureConsoleBuild(root);
  const rounds = options.rounds ?? 3;
  const builds: Served[] = [];
  let browser: Browser | null = null;
  try {
    builds.push(await serve('this build', dist));
    if (options.before) builds.push(await serve('before', options.before));
    browser = await launchChromium();
    for (let round = 0; round < rounds; round++) {
      for (const target of PAGES) {
        // Alternate which build goes first, so neither always meets the machine in the same state.
        const order = round % 2 === 0 ? builds : [...builds].reverse();
        for (const served of order) {
          const times = await measurePage(
            browser,
            served.base,
            served.session,
            target,
            served.timings.consoleMessages,
          );
          for (const way of WAYS) served.timings.pages[target.name]![way].push(times[way]);
        }
      }
    }
    return { rounds, builds: builds.map((served) => served.timings) };
  } finally {
    await browser?.close();
    await Promise.all(builds.map((served) => served.stop()));
  }
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const ms = (value: number) => `${Math.round(value)} ms`;

/** The slowest page's median first load of a build. */
export function slowestFirstLoad(timings: BuildTimings): { page: string; ms: number } {
  return Object.entries(timings.pages)
    .map(([page, ways]) => ({ page, ms: median(ways.first) }))
    .reduce((max, entry) => (entry.ms > max.ms ? entry : max), { page: '', ms: 0 });
}

export function pageLoadTable(result: PageLoadResult): string {
  const [now, before] = result.builds;
  if (!now) return '';
  const header = ['page', ...WAYS.flatMap((way) => (before ? [`${way}`, 'before', 'ratio'] : [way]))];
  const rows = PAGES.map((page) => [
    page.name,
    ...WAYS.flatMap((way) => {
      const mine = median(now.pages[page.name]![way]);
      if (!before) return [ms(mine)];
      const theirs = median(before.pages[page.name]![way]);
      return [ms(mine), ms(theirs), `${(mine / theirs).toFixed(2)}×`];
    }),
  ]);
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const lines = all.map((row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
  );
  const slowest = slowestFirstLoad(now);
  const messages = result.builds.flatMap((build) =>
    [...new Set(build.consoleMessages)].map((message) => `  ${build.build}: ${message}`),
  );
  return [
    `console pages in Chromium, median of ${result.rounds} rounds (first = fresh context, navigation start → ready; reload = again, cached; navigation = side-nav click from another page → ready)${before ? '; "before" is PAGE_LOAD_BEFORE, alternating' : ''}`,
    ...lines.map((line) => `  ${line.trimEnd()}`),
    `slowest first load: ${slowest.page} ${ms(slowest.ms)} (target < ${FIRST_LOAD_TARGET_MS} ms on a quiet machine)`,
    messages.length
      ? `browser console errors and warnings:\n${messages.join('\n')}`
      : 'browser console: no errors or warnings',
    '',
  ].join('\n');
}

// `tsx bench/console-page-load.ts` runs it alone; PAGE_LOAD_BEFORE, PAGE_LOAD_ROUNDS.
if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchPageLoad({
    before: process.env.PAGE_LOAD_BEFORE ? path.resolve(process.env.PAGE_LOAD_BEFORE) : undefined,
    rounds: Number(process.env.PAGE_LOAD_ROUNDS ?? 3),
  });
  process.stdout.write(pageLoadTable(result));
  if (process.env.PAGE_LOAD_JSON) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
