import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Response } from 'playwright-core';
import { CHUNK_BUDGET_BYTES, chunkSizes } from '../scripts/check-chunk-budget.ts';
import { ensureConsoleBuild } from '../scripts/console-build.ts';
import { launchChromium, signedInSession, startServer } from './console-server.ts';

/*
 * What each first screen of the console really loads: every screen opened in a fresh Chromium context
 * (empty cache) against the real server serving the built console, counting what the page fetched until
 * the network was idle. "served" is what the server sent (brotli 11 from the build's siblings; the
 * encoding is shown), the unit of the targets since #28; gzip -9 (node:zlib) of each decoded body, file by
 * file, is kept beside it to compare with figures from before. Byte counts, not timings: the shared
 * machine's load does not change them.
 */

const root = path.resolve(import.meta.dirname, '..');
const LEVEL = 9;

/** The targets (#14), KB of JavaScript as served. */
export const TARGETS = { signInJs: 120, firstVisitJs: 180, largestChunk: CHUNK_BUDGET_BYTES / 1000 } as const;

interface Screen {
  name: string;
  path: string;
  signedIn: boolean;
  /** The JavaScript of a first visit to it has a target (KB as served). */
  jsTarget?: number;
}

export const SCREENS: readonly Screen[] = [
  { name: 'sign-in (signed out)', path: '/sign-in', signedIn: false, jsTarget: TARGETS.signInJs },
  { name: 'signed out at /jobs', path: '/jobs', signedIn: false, jsTarget: TARGETS.signInJs },
  { name: 'playground', path: '/playground', signedIn: true, jsTarget: TARGETS.firstVisitJs },
  { name: 'jobs', path: '/jobs', signedIn: true, jsTarget: TARGETS.firstVisitJs },
  { name: 'analytics', path: '/analytics', signedIn: true },
  { name: 'files', path: '/files', signedIn: true },
  { name: 'pipelines', path: '/pipelines', signedIn: true },
  { name: 'templates', path: '/templates', signedIn: true },
  { name: 'presets', path: '/presets', signedIn: true },
  { name: 'keys', path: '/keys', signedIn: true },
  { name: 'team', path: '/team', signedIn: true },
  { name: 'settings', path: '/settings', signedIn: true },
];

type Kind = 'js' | 'css' | 'font' | 'api' | 'other';

interface Loaded {
  url: string;
  kind: Kind;
  gzip: number;
  wire: number;
}

interface Tally {
  files: number;
  gzip: number;
  wire: number;
}

export interface ScreenLoad {
  name: string;
  path: string;
  /** Where the page ended up (a signed-out visit to a console page shows sign-in). */
  landedOn: string;
  jsTarget?: number;
  byKind: Record<Kind, Tally>;
  total: Tally;
  largestJs: { file: string; served: number } | null;
  /** What the server answered with on the wire for scripts: `br`, `gzip` or `identity`. */
  scriptEncoding: string;
  jsFiles: string[];
}

export interface FirstScreenResult {
  gzipLevel: number;
  screens: ScreenLoad[];
  /** The sign-in page once the person starts typing an address (the form's checks load then). */
  signInTyping: ScreenLoad;
  /** The largest JavaScript file of the whole build, loaded or not. */
  largestBuiltChunk: { file: string; served: number };
}

const gzipSize = (bytes: Buffer) => gzipSync(bytes, { level: LEVEL }).length;

function kindOf(response: Response): Kind | null {
  const type = response.request().resourceType();
  if (type === 'script') return 'js';
  if (type === 'stylesheet') return 'css';
  if (type === 'font') return 'font';
  if (type === 'fetch' || type === 'xhr') return 'api';
  if (type === 'document' || type === 'image' || type === 'other' || type === 'manifest') return 'other';
  return null;
}

const empty = (): Tally => ({ files: 0, gzip: 0, wire: 0 });

function summarize(screen: Screen, landedOn: string, loaded: Loaded[], encodings: Set<string>): ScreenLoad {
  const byKind = { js: empty(), css: empty(), font: empty(), api: empty(), other: empty() };
  const total = empty();
  for (const file of loaded) {
    for (const tally of [byKind[file.kind], total]) {
      tally.files++;
      tally.gzip += file.gzip;
      tally.wire += file.wire;
    }
  }
  const scripts = loaded.filter((file) => file.kind === 'js');
  const largest = scripts.reduce<Loaded | null>(
    (max, file) => (max && max.wire >= file.wire ? max : file),
    null,
  );
  return {
    name: screen.name,
    path: screen.path,
    landedOn,
    ...(screen.jsTarget ? { jsTarget: screen.jsTarget } : {}),
    byKind,
    total,
    largestJs: largest
      ? { file: path.posix.basename(new URL(largest.url).pathname), served: largest.wire }
      : null,
    scriptEncoding: [...encodings].join('+') || 'none',
    jsFiles: scripts.map((file) => path.posix.basename(new URL(file.url).pathname)),
  };
}

/** Opens `screen` in a fresh context and counts what it fetched until the network went idle. */
async function loadScreen(
  browser: Browser,
  base: string,
  screen: Screen,
  session: string | null,
  afterLoad?: (page: import('playwright-core').Page) => Promise<void>,
): Promise<ScreenLoad> {
  const context = await browser.newContext({ baseURL: base });
  if (session) {
    await context.addInitScript(
      (value) => window.localStorage.setItem('media-console:session', value),
      session,
    );
  }
  const page = await context.newPage();
  const quiet = trackQuiet(page);
  const pending: Array<Promise<Loaded | null>> = [];
  const encodings = new Set<string>();
  page.on('response', (response) => {
    const kind = kindOf(response);
    if (!kind || response.status() < 200 || response.status() >= 300) return;
    if (kind === 'js') encodings.add(response.headers()['content-encoding'] ?? 'identity');
    pending.push(
      (async () => {
        const body = await response.body().catch(() => null);
        if (!body) return null;
        const sizes = await response
          .request()
          .sizes()
          .catch(() => null);
        return {
          url: response.url(),
          kind,
          gzip: gzipSize(body),
          wire: sizes?.responseBodySize ?? body.length,
        };
      })(),
    );
  });
  try {
    // Generous timeouts: bytes do not depend on how busy the machine is, only how long they take.
    await page.goto(screen.path, { waitUntil: 'networkidle', timeout: 120_000 });
    await page.locator('main').first().waitFor({ state: 'visible', timeout: 120_000 });
    if (afterLoad) await afterLoad(page);
    // Lazy pieces a screen starts after its first paint (a chart, a list) or on a keystroke count: wait
    // until nothing has been in flight for a while (the load state "networkidle" is reached only once).
    await quiet(1_000);
    const landedOn = new URL(page.url()).pathname;
    const loaded = (await Promise.all(pending)).filter((file): file is Loaded => file !== null);
    return summarize(screen, landedOn, loaded, encodings);
  } finally {
    await context.close();
  }
}

/** Resolves once no request has been in flight for `ms` (or after two minutes). */
function trackQuiet(page: import('playwright-core').Page): (ms: number) => Promise<void> {
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', () => {
    inFlight++;
    lastActivity = Date.now();
  });
  const done = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async (ms) => {
    const giveUp = Date.now() + 120_000;
    while (Date.now() < giveUp && (inFlight > 0 || Date.now() - lastActivity < ms)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
}

export async function firstScreens(dist = path.join(root, 'dist')): Promise<FirstScreenResult> {
  if (dist === path.join(root, 'dist')) ensureConsoleBuild(root);
  const server = await startServer(dist);
  const browser = await launchChromium();
  try {
    const session = await signedInSession(server.base);
    const screens: ScreenLoad[] = [];
    for (const screen of SCREENS) {
      screens.push(await loadScreen(browser, server.base, screen, screen.signedIn ? session : null));
    }
    const signIn = SCREENS[0]!;
    const signInTyping = await loadScreen(
      browser,
      server.base,
      { ...signIn, name: 'sign-in, once typing (+ form checks, console)', jsTarget: undefined },
      null,
      (page) => page.getByLabel('Email').pressSequentially('a'),
    );
    return { gzipLevel: LEVEL, screens, signInTyping, largestBuiltChunk: chunkSizes(dist)[0]! };
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** KB are 1,000 bytes, as in the figures (its 38 KB price list is 38,000 bytes) and the targets table. */
const KB = 1000;
const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

export function firstScreenTable(result: FirstScreenResult): string {
  const header = [
    'screen',
    'JS files',
    'JS served',
    'target',
    'JS gzip -9',
    'largest JS',
    'CSS',
    'fonts',
    'API',
    'total',
    'total served',
  ];
  const rows = [...result.screens, result.signInTyping].map((s) => {
    const js = s.byKind.js;
    const met =
      s.jsTarget === undefined ? '' : `${js.wire / KB <= s.jsTarget ? '≤' : 'OVER'} ${s.jsTarget} KB`;
    const landed = s.landedOn === s.path ? '' : ` → ${s.landedOn}`;
    return [
      `${s.name}${landed}`,
      String(js.files),
      `${kb(js.wire)} ${s.scriptEncoding}`,
      met,
      kb(js.gzip),
      s.largestJs ? `${kb(s.largestJs.served)} ${s.largestJs.file.replace(/-[\w-]{8}\.js$/, '')}` : '-',
      kb(s.byKind.css.gzip),
      kb(s.byKind.font.gzip),
      `${kb(s.byKind.api.gzip)} (${s.byKind.api.files})`,
      `${kb(s.total.gzip)} (${s.total.files})`,
      kb(s.total.wire),
    ];
  });
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]!.length)));
  const lines = all.map((row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
  );
  const largest = result.largestBuiltChunk;
  const largestMet = largest.served / KB <= TARGETS.largestChunk ? '≤' : 'OVER';
  return [
    `console first screens in Chromium (fresh context each, until the network is idle; served = what the server sent, scripts in the encoding shown; gzip -${result.gzipLevel} of each decoded body beside it; CSS, fonts, API, total in gzip -${result.gzipLevel})`,
    ...lines.map((line) => `  ${line.trimEnd()}`),
    `largest chunk of the build: ${largest.file} ${kb(largest.served)} as served (${largestMet} ${TARGETS.largestChunk} KB)`,
    '',
  ].join('\n');
}

// `tsx bench/first-screen.ts [dist]` runs it alone (dist/ by default, built when stale).
if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  const result = await firstScreens(dist);
  process.stdout.write(firstScreenTable(result));
  if (process.env.FIRST_SCREEN_JSON) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
