import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { testBrowser } from '../e2e/support/browser-launch.ts';
import { ensureConsoleBuild } from '../scripts/console-build.ts';
import { createClient } from '../src/client/create-client.ts';
import type { Job } from '../src/contract/jobs.ts';
import { freshJob } from '../src/contract/test-fixtures.ts';
import { freePort } from '../src/server/db/embedded.ts';

/*
 * The job feed's render cost in Chromium, against the built console and the real server: GET /v2/jobs is
 * answered from memory with one page of N synthetic jobs (the live updates' requests with nothing, or with
 * changes when asked), so what is timed is the console, not the database. Three numbers per size:
 * - render: from the list response (and the price catalog's, loaded alongside) to the first row in the
 *   DOM, then painted: JSON parse, React render, layout;
 * - scroll: frame times while the table is scrolled from top to bottom, one viewport per frame;
 * - live merge: from a live-update response with 20 changed jobs to the change on screen.
 * 100 and 10,000 jobs are measured alternately: a virtualised feed costs about the same for both.
 */

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round1 = (value: number) => Math.round(value * 10) / 10;

function syntheticJobs(count: number): Job[] {
  const start = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    const n = count - i;
    const at = new Date(start + n * 1000).toISOString();
    const running = i < 20;
    return freshJob({
      id: `job_${n.toString(16).padStart(32, '0')}`,
      status: running ? 'running' : 'completed',
      progress: running ? 0.4 : null,
      progress_message: running ? 'Rendering' : null,
      tool: i % 3 === 0 ? 'video' : 'image',
      model: i % 3 === 0 ? 'local-motion' : 'local-sketch',
      input: {
        model: 'local-sketch',
        prompt: `synthetic prompt number ${n} with a few more words to fill the cell`,
      },
      created_at: at,
      started_at: at,
      completed_at: running ? null : at,
      updated_at: at,
      actual_cost_cents: running ? null : 1,
    });
  });
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(tsx, ['scripts/start.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Media Console is running at/.test(output)) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return child;
}

async function stop(child: ChildProcess) {
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A console session for a new person, as the sign-in page stores it. */
async function session(origin: string) {
  const client = createClient({ baseUrl: `${origin}/v2` });
  const email = `bench-${Date.now()}@example.com`;
  await client.sendOtp({ body: { email } });
  const code = (await client.devMailbox({ query: { to: email } })).data[0]?.code;
  if (!code) throw new Error('no sign-in code in the dev mailbox');
  const signedIn = await client.verifyOtp({ body: { email, code } });
  return { token: signedIn.access_token, expiresAt: signedIn.expires_at, email };
}

/** In the page: when list responses arrive, and when rows appear and change. */
const PROBE = () => {
  const probe = { listAt: 0, pricingAt: 0, deltaAt: 0, rowsAt: 0, paintedAt: 0, mergeMs: 0 };
  Object.assign(window, { __feed: probe });
  const fetch0 = window.fetch.bind(window);
  window.fetch = async (...args: Parameters<typeof fetch>) => {
    const response = await fetch0(...args);
    const url = String(args[0] instanceof Request ? args[0].url : args[0]);
    // The route also loads the price catalog (model filter): rendering starts when both are in.
    if (url.includes('/v2/pricing')) probe.pricingAt = performance.now();
    if (url.includes('/v2/jobs?')) {
      if (url.includes('updated_since')) probe.deltaAt = performance.now();
      else probe.listAt = performance.now();
    }
    return response;
  };
  new MutationObserver(() => {
    const first = document.querySelector('tr[aria-rowindex="2"]');
    if (first && !probe.rowsAt) {
      probe.rowsAt = performance.now();
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          probe.paintedAt = performance.now();
        }),
      );
    }
    if (first && probe.deltaAt && !probe.mergeMs && !first.textContent?.includes('Running')) {
      // The change comes from the latest live-update response (they never overlap).
      probe.mergeMs = performance.now() - probe.deltaAt;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
};

interface Probe {
  listAt: number;
  pricingAt: number;
  deltaAt: number;
  rowsAt: number;
  paintedAt: number;
  mergeMs: number;
}

const readProbe = (page: Page) => page.evaluate(() => (window as unknown as { __feed: Probe }).__feed);

/** Scrolls the job list top to bottom, one viewport per frame; answers frame times in ms. */
function scrollFrames(page: Page) {
  return page.evaluate(async () => {
    const list = document.querySelector<HTMLElement>('section[aria-label="Job list"]');
    if (!list) throw new Error('no job list');
    const frames: number[] = [];
    let last = performance.now();
    while (list.scrollTop + list.clientHeight < list.scrollHeight - 1 && frames.length < 2_000) {
      list.scrollTop += list.clientHeight;
      await new Promise(requestAnimationFrame);
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    return frames;
  });
}

async function measure(page: Page, origin: string, jobs: Job[], changes: { next: Job[] | null }) {
  const jobsLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Jobs' });
  await page.goto(`${origin}/settings`);
  await jobsLink.waitFor();
  await page.evaluate(PROBE);
  await jobsLink.click();
  await page.waitForFunction(() => (window as unknown as { __feed: Probe }).__feed.paintedAt > 0);
  const loaded = await readProbe(page);

  // The next live update brings the 20 running jobs back completed.
  changes.next = jobs.slice(0, 20).map((job) => ({
    ...job,
    status: 'completed',
    progress: null,
    completed_at: new Date(Date.parse(job.updated_at) + 5_000).toISOString(),
    updated_at: new Date(Date.parse(job.updated_at) + 5_000).toISOString(),
  }));
  await page.waitForFunction(() => (window as unknown as { __feed: Probe }).__feed.mergeMs > 0, null, {
    timeout: 20_000,
  });
  const merged = await readProbe(page);
  const frames = await scrollFrames(page);
  const sorted = [...frames].sort((a, b) => a - b);
  const dataAt = Math.max(loaded.listAt, loaded.pricingAt);
  return {
    renderMs: loaded.paintedAt - dataAt,
    rowsMs: loaded.rowsAt - dataAt,
    mergeMs: merged.mergeMs,
    scrollFrames: frames.length,
    scrollP95Ms: sorted[Math.floor(sorted.length * 0.95)] ?? 0,
    scrollMaxMs: sorted[sorted.length - 1] ?? 0,
  };
}

export interface FeedRenderResult {
  rounds: number;
  sizes: Record<
    string,
    {
      renderMs: number;
      rowsMs: number;
      mergeMs: number;
      scrollP95Ms: number;
      scrollMaxMs: number;
      frames: number;
    }
  >;
}

export async function benchFeedRender(rounds = 5): Promise<FeedRenderResult> {
  ensureConsoleBuild(root);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-bench-feed-'));
  const port = await freePort();
  const server = await startServer(dataDir, port);
  const origin = `http://127.0.0.1:${port}`;
  // The e2e suite's browser, launched as it is (browser-launch.ts).
  const browser = await chromium.launch(testBrowser().launchOptions);
  try {
    const signedIn = await session(origin);
    const sizes = [100, 10_000];
    const samples = new Map(sizes.map((size) => [size, [] as Awaited<ReturnType<typeof measure>>[]]));
    for (let round = 0; round < rounds; round++) {
      for (const size of sizes) {
        const jobs = syntheticJobs(size);
        const body = JSON.stringify({ data: jobs, next_cursor: null });
        const changes: { next: Job[] | null } = { next: null };
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        await context.addInitScript((value) => {
          localStorage.setItem('media-console:session', value);
        }, JSON.stringify(signedIn));
        const page = await context.newPage();
        await page.route(/\/v2\/jobs\?/, (route) => {
          const since = new URL(route.request().url()).searchParams.has('updated_since');
          const data = since ? (changes.next ?? []) : null;
          return route.fulfill({
            contentType: 'application/json',
            body: data ? JSON.stringify({ data, next_cursor: null }) : body,
          });
        });
        samples.get(size)!.push(await measure(page, origin, jobs, changes));
        await context.close();
      }
    }
    const result: FeedRenderResult = { rounds, sizes: {} };
    for (const [size, runs] of samples) {
      result.sizes[size] = {
        renderMs: round1(median(runs.map((r) => r.renderMs))),
        rowsMs: round1(median(runs.map((r) => r.rowsMs))),
        mergeMs: round1(median(runs.map((r) => r.mergeMs))),
        scrollP95Ms: round1(median(runs.map((r) => r.scrollP95Ms))),
        scrollMaxMs: round1(Math.max(...runs.map((r) => r.scrollMaxMs))),
        frames: median(runs.map((r) => r.scrollFrames)),
      };
    }
    return result;
  } finally {
    await browser.close();
    await stop(server);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

export function feedRenderLine(result: FeedRenderResult): string {
  const line = (size: string) => {
    const s = result.sizes[size]!;
    return `${Number(size).toLocaleString('en-US')} jobs: response → rows in DOM ${s.rowsMs} ms, painted ${s.renderMs} ms; live merge of 20 changes ${s.mergeMs} ms; scroll top to bottom (${s.frames} frames) p95 frame ${s.scrollP95Ms} ms, worst ${s.scrollMaxMs} ms`;
  };
  return `job feed render (Chromium, built console, median of ${result.rounds}): ${line('10000')}; ${line('100')}\n`;
}

// `tsx bench/feed-render.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(feedRenderLine(await benchFeedRender()));
}
