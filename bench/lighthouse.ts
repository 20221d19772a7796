import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse, {
  desktopConfig,
  type Flags,
  type Config as LighthouseConfig,
  type Result,
} from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { testBrowser } from '../e2e/support/browser-launch.ts';
import { ensureConsoleBuild } from '../scripts/console-build.ts';
import { createClient } from '../src/client/create-client.ts';
import { freePort } from '../src/server/db/embedded.ts';
import { SESSION_KEY, type Session } from '../src/web/auth/session.ts';

/*
 * Lighthouse (performance, accessibility, best practices) of the Playground and the job feed, signed in,
 * against the built console and the real server, in Debian's Chromium.
 * - Sign-in: through the API (dev mailbox), then the session is written to localStorage over the DevTools
 *   protocol (puppeteer-core, Lighthouse's own dependency) before Lighthouse navigates; Lighthouse runs
 *   with `disableStorageReset` so it keeps it. That also keeps the HTTP cache, so every run gets a fresh
 *   Chromium (chrome-launcher: a new temporary profile): each run is a cold first visit.
 * - Settings: Lighthouse's desktop preset (form factor, 1350×940 screen, desktop user agent) with its
 *   simulated throttling (Lantern, desktop dense 4G: 40 ms RTT, 10 Mbit/s, no CPU slowdown). Simulated
 *   rather than `provided`: on loopback an unthrottled load hides what the bundle's bytes and request chain
 *   cost. The simulation starts from the observed trace, so CPU-bound numbers (TBT most) still move with
 *   the shared machine's load: three runs per page, medians reported, the load average printed.
 * BENCH_LIGHTHOUSE_REPORTS=<dir> also writes every run's report there (<page>-<run>.json, for the
 * Lighthouse viewer at https://googlechrome.github.io/lighthouse/viewer/).
 */

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const THROTTLING_METHOD = 'simulate' as const;
const PAGES = [
  { name: 'playground', path: '/playground' },
  { name: 'jobs', path: '/jobs' },
] as const;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(tsx, ['scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code}:\n${output}`));
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!/Media Console is running at/.test(output)) return;
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.stdout?.resume();
      child.stderr?.resume();
      resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', onExit);
  });
  return child;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Signs a new person in through the API and gives the feed a few completed jobs; answers the session. */
async function signedInWithJobs(origin: string, jobs: number): Promise<Session> {
  const anonymous = createClient({ baseUrl: `${origin}/v2` });
  const email = `bench-lighthouse-${Date.now()}@example.com`;
  await anonymous.sendOtp({ body: { email } });
  const code = (await anonymous.devMailbox({ query: { to: email } })).data[0]?.code;
  if (!code) throw new Error('no sign-in code in the dev mailbox');
  const signedIn = await anonymous.verifyOtp({ body: { email, code } });
  const client = createClient({ baseUrl: `${origin}/v2`, token: signedIn.api_key });
  const ids: string[] = [];
  for (let i = 0; i < jobs; i++) {
    const job = await client.createImage({
      body: {
        model: 'local-sketch',
        prompt: `lighthouse sample ${i + 1}: a lighthouse on a rocky coast at dusk`,
      },
    });
    ids.push(job.id);
  }
  const deadline = Date.now() + 60_000;
  for (const id of ids) {
    while ((await client.getJobStatus({ params: { id } })).status !== 'completed') {
      if (Date.now() > deadline) throw new Error(`job ${id} did not complete within a minute`);
      await sleep(100);
    }
  }
  return { token: signedIn.access_token, expiresAt: signedIn.expires_at, email };
}

/** Opens the origin in the launched browser and stores the session, as the sign-in page would. */
async function storeSession(port: number, origin: string, session: Session) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });
  try {
    const page = await browser.newPage();
    // A static file of the origin: the console itself is not loaded (nothing cached but this icon).
    await page.goto(`${origin}/favicon.svg`);
    await page.evaluate(
      (key, value) => localStorage.setItem(key, value),
      SESSION_KEY,
      JSON.stringify(session),
    );
    await page.close();
  } finally {
    await browser.disconnect();
  }
}

const config: LighthouseConfig = {
  ...desktopConfig,
  settings: {
    ...desktopConfig.settings,
    throttlingMethod: THROTTLING_METHOD,
    onlyCategories: [...CATEGORIES],
    disableStorageReset: true,
  },
};

async function runOnce(url: string, origin: string, session: Session): Promise<Result> {
  // The e2e suite's browser (browser-launch.ts), with Lighthouse's own flags.
  const { launchOptions } = testBrowser();
  const chrome = await launch({
    chromePath: launchOptions.executablePath,
    chromeFlags: CHROME_FLAGS,
    ...(launchOptions.env ? { envVars: launchOptions.env } : {}),
    logLevel: 'silent',
  });
  try {
    await storeSession(chrome.port, origin, session);
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true };
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError)
      throw new Error(`Lighthouse: ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    // A redirect to the sign-in page would score the wrong page.
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}: the session did not take`);
    }
    return lhr;
  } finally {
    chrome.kill();
  }
}

export interface FailedAudit {
  id: string;
  category: string;
  title: string;
  score: number;
  /** Category points it costs: weight / category weight × (1 − score) × 100. */
  pointsLost: number;
  /** In how many of the runs it failed. */
  failedRuns: number;
  /** The first few elements or items it names (from the first run where it failed). */
  items: string[];
}

export interface LighthousePageResult {
  path: string;
  runs: number;
  /** Median category scores, 0-100. */
  scores: Record<(typeof CATEGORIES)[number], number>;
  perRun: Record<(typeof CATEGORIES)[number], number[]>;
  /** Median metrics: LCP and TBT in ms, CLS unitless. */
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Lighthouse's CPU benchmark index of the host, median (higher is faster; ~1000+ is a fast desktop). */
  benchmarkIndex: number;
  /** Failing accessibility and best-practices audits, most costly first. */
  failedAudits: FailedAudit[];
  /** Performance audits with estimated savings (first run), largest first: where the score goes. */
  opportunities: { id: string; savingsMs: number; savingsKiB: number }[];
}

export interface LighthouseResult {
  lighthouse: string;
  chromium: string;
  formFactor: 'desktop';
  throttlingMethod: typeof THROTTLING_METHOD;
  jobsInFeed: number;
  /** os.loadavg()[0] before and after, and the CPU count: how busy the shared machine was. */
  load: { before: number; after: number; cpus: number };
  pages: Record<string, LighthousePageResult>;
}

interface AuditDetailItem {
  node?: { selector?: string; snippet?: string; nodeLabel?: string };
  description?: string;
  source?: string;
  url?: string;
  issueType?: string;
}

function describeItems(details: unknown): string[] {
  const items = (details as { items?: AuditDetailItem[] } | undefined)?.items ?? [];
  const clip = (text: string) => (text.length > 110 ? `${text.slice(0, 107)}...` : text);
  return items.slice(0, 3).map((item) => {
    if (item.node) {
      const { selector, snippet, nodeLabel } = item.node;
      return clip([selector, snippet, nodeLabel ? `"${nodeLabel}"` : ''].filter(Boolean).join(' '));
    }
    return clip(
      [item.source, item.issueType, item.description, item.url].filter(Boolean).join(': ') ||
        JSON.stringify(item),
    );
  });
}

function failedAudits(runs: Result[]): FailedAudit[] {
  const found = new Map<string, FailedAudit>();
  for (const lhr of runs) {
    for (const category of ['accessibility', 'best-practices']) {
      const refs = lhr.categories[category]?.auditRefs ?? [];
      const total = refs.reduce((sum, ref) => sum + ref.weight, 0) || 1;
      for (const ref of refs) {
        const audit = lhr.audits[ref.id];
        if (!audit || audit.score === null || audit.score >= 1) continue;
        if (!['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode)) continue;
        const seen = found.get(ref.id);
        if (seen) {
          seen.failedRuns++;
          continue;
        }
        found.set(ref.id, {
          id: ref.id,
          category,
          title: audit.title,
          score: audit.score,
          pointsLost: Math.round((ref.weight / total) * (1 - audit.score) * 1000) / 10,
          failedRuns: 1,
          items: describeItems(audit.details),
        });
      }
    }
  }
  return [...found.values()].sort((a, b) => b.pointsLost - a.pointsLost || b.failedRuns - a.failedRuns);
}

function opportunities(lhr: Result) {
  return Object.values(lhr.audits)
    .flatMap((audit) => {
      const details = audit.details as
        | { overallSavingsMs?: number; overallSavingsBytes?: number }
        | undefined;
      const savingsMs = Math.round(details?.overallSavingsMs ?? 0);
      const savingsKiB = Math.round((details?.overallSavingsBytes ?? 0) / 1024);
      if (audit.score === null || audit.score >= 1 || (savingsMs === 0 && savingsKiB === 0)) return [];
      return [{ id: audit.id, savingsMs, savingsKiB }];
    })
    .sort((a, b) => b.savingsMs - a.savingsMs || b.savingsKiB - a.savingsKiB)
    .slice(0, 5);
}

function summarise(pagePath: string, runs: Result[]): LighthousePageResult {
  const perRun = Object.fromEntries(
    CATEGORIES.map((id) => [id, runs.map((lhr) => Math.round((lhr.categories[id]?.score ?? 0) * 100))]),
  ) as Record<(typeof CATEGORIES)[number], number[]>;
  const metric = (id: string) => runs.map((lhr) => lhr.audits[id]?.numericValue ?? Number.NaN);
  return {
    path: pagePath,
    runs: runs.length,
    scores: Object.fromEntries(CATEGORIES.map((id) => [id, median(perRun[id])])) as Record<
      (typeof CATEGORIES)[number],
      number
    >,
    perRun,
    lcpMs: Math.round(median(metric('largest-contentful-paint'))),
    tbtMs: Math.round(median(metric('total-blocking-time'))),
    cls: Math.round(median(metric('cumulative-layout-shift')) * 1000) / 1000,
    benchmarkIndex: Math.round(median(runs.map((lhr) => lhr.environment.benchmarkIndex))),
    failedAudits: failedAudits(runs),
    opportunities: opportunities(runs[0]!),
  };
}

export async function benchLighthouse(rounds = 3, jobs = 6): Promise<LighthouseResult> {
  ensureConsoleBuild(root);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-lighthouse-'));
  const port = await freePort();
  const server = await startServer(dataDir, port);
  const origin = `http://127.0.0.1:${port}`;
  const loadBefore = os.loadavg()[0]!;
  try {
    const session = await signedInWithJobs(origin, jobs);
    const runs = new Map<string, Result[]>(PAGES.map((page) => [page.name, []]));
    // Pages alternate, so a busy spell on the machine does not land on one page only.
    const reports = process.env.BENCH_LIGHTHOUSE_REPORTS;
    if (reports) await fs.mkdir(reports, { recursive: true });
    for (let round = 0; round < rounds; round++) {
      for (const page of PAGES) {
        const lhr = await runOnce(`${origin}${page.path}`, origin, session);
        runs.get(page.name)!.push(lhr);
        if (reports)
          await fs.writeFile(path.join(reports, `${page.name}-${round + 1}.json`), JSON.stringify(lhr));
      }
    }
    const first = runs.get(PAGES[0].name)![0]!;
    return {
      lighthouse: first.lighthouseVersion,
      chromium:
        first.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? first.environment.hostUserAgent,
      formFactor: 'desktop',
      throttlingMethod: THROTTLING_METHOD,
      jobsInFeed: jobs,
      load: {
        before: Math.round(loadBefore * 100) / 100,
        after: Math.round(os.loadavg()[0]! * 100) / 100,
        cpus: os.cpus().length,
      },
      pages: Object.fromEntries(PAGES.map((page) => [page.name, summarise(page.path, runs.get(page.name)!)])),
    };
  } finally {
    await stop(server);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export function lighthouseTable(result: LighthouseResult): string {
  const rows: string[][] = [
    ['page', 'perf', 'a11y', 'best pr.', 'LCP', 'TBT', 'CLS', 'perf runs', 'bench idx'],
  ];
  for (const page of Object.values(result.pages)) {
    rows.push([
      page.path,
      String(page.scores.performance),
      String(page.scores.accessibility),
      String(page.scores['best-practices']),
      `${page.lcpMs} ms`,
      `${page.tbtMs} ms`,
      String(page.cls),
      page.perRun.performance.join(' '),
      String(page.benchmarkIndex),
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const lines = rows.map((row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
  );
  const audits = Object.values(result.pages).flatMap((page) => [
    `  performance opportunities on ${page.path} (first run, estimated savings): ${page.opportunities.map((o) => `${o.id} ${o.savingsMs} ms/${o.savingsKiB} KiB`).join(', ') || 'none'}`,
    `  failing audits on ${page.path} (most costly first, points of the category lost):`,
    ...(page.failedAudits.length === 0
      ? ['    none']
      : page.failedAudits
          .slice(0, 3)
          .flatMap((a) => [
            `    ${a.category}/${a.id} (−${a.pointsLost}, ${a.failedRuns}/${page.runs} runs): ${a.title}`,
            ...a.items.map((item) => `      ${item}`),
          ])),
  ]);
  const { load } = result;
  return [
    `Lighthouse ${result.lighthouse} (${result.chromium}, ${result.formFactor}, throttling: ${result.throttlingMethod}; median of ${Object.values(result.pages)[0]?.runs} cold runs per page, signed in, ${result.jobsInFeed} jobs in the feed; shared machine, load average ${load.before} → ${load.after} on ${load.cpus} CPUs: TBT and performance move with it)`,
    ...lines.map((line) => `  ${line}`),
    ...audits,
    '',
  ].join('\n');
}

// `tsx bench/lighthouse.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(lighthouseTable(await benchLighthouse()));
}
