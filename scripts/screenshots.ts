import { randomUUID } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { launchChromium, signedInSession, startServer } from '../bench/console-server.ts';
import { ensureConsoleBuild } from './console-build.ts';

/*
 * The README's screenshots, made from real results: `npx tsx scripts/screenshots.ts` builds the console if
 * stale, starts the real server on a fresh data directory (as the benches and the e2e suite do), signs a
 * new person in, runs a sketch and a short video through the playground's form, and photographs the
 * playground showing each and the file browser, with the e2e suite's Chromium and flags. The pictures go to docs/images/ as
 * palette PNGs (a few tens of kB each). Run it again after a visible change to the playground.
 */

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'docs', 'images');
const VIEWPORT = { width: 1280, height: 1000 };
/** Shown in the README at about half size: this width keeps text readable and the files small. */
const SAVED_WIDTH = 1100;

interface Job {
  id: string;
  status: string;
}

async function runJob(base: string, token: string, tool: string, body: Record<string, unknown>) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const created = await fetch(`${base}/v2/tools/${tool}/call`, {
    method: 'POST',
    headers: { ...headers, 'idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  if (!created.ok) throw new Error(`${tool} job: ${created.status} ${await created.text()}`);
  const { id } = (await created.json()) as Job;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const job = (await (await fetch(`${base}/v2/jobs/${id}`, { headers })).json()) as Job;
    if (job.status === 'completed') return id;
    if (job.status === 'failed' || job.status === 'cancelled')
      throw new Error(`${tool} job ${id} ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${tool} job ${id} did not finish in 2 minutes`);
}

/** Fills the prompt and the seed, runs, and waits for the job to complete. */
async function runInForm(page: Page, prompt: string, seed: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  const seedField = page.getByRole('textbox', { name: /^Seed/ });
  if (await seedField.count()) await seedField.fill(seed);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await page
    .getByRole('region', { name: 'Result' })
    .getByText('Completed', { exact: true })
    .waitFor({ timeout: 120_000 });
}

/** Saves the page as a small palette PNG. */
async function shoot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot({ type: 'png' });
  const file = path.join(out, name);
  await sharp(png)
    .resize({ width: SAVED_WIDTH })
    .png({ palette: true, quality: 85, effort: 10, compressionLevel: 9 })
    .toFile(file);
  const { size } = await stat(file);
  process.stdout.write(`${path.relative(root, file)} (${Math.round(size / 1024)} kB)\n`);
}

/** The result's media element has loaded (an image decoded, a video able to show a frame). */
async function mediaLoaded(page: Page, selector: 'img' | 'video'): Promise<void> {
  const element = page.getByRole('region', { name: 'Result' }).locator(selector).first();
  await element.waitFor();
  await page.waitForFunction(
    (node) =>
      node instanceof HTMLImageElement
        ? node.complete && node.naturalWidth > 0
        : (node as HTMLVideoElement).readyState >= 2,
    await element.elementHandle(),
  );
}

async function main() {
  ensureConsoleBuild(root);
  await mkdir(out, { recursive: true });
  const server = await startServer(path.join(root, 'dist'));
  const browser = await launchChromium();
  try {
    const session = await signedInSession(server.base, 'ada@example.com');
    const { token } = JSON.parse(session) as { token: string };
    // Something for the file browser besides the two made through the form below.
    await runJob(server.base, token, 'image', {
      model: 'local-sketch',
      prompt: 'three blue whales',
      aspect_ratio: '16:9',
      provider_options: { local: { seed: 3 } },
    });

    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'light' });
    await context.addInitScript((value) => {
      localStorage.setItem('media-console:session', value);
    }, session);
    const page = await context.newPage();

    // Through the form, as a person does: the prompt stays in view next to its result.
    await page.goto(`${server.base}/playground?tool=image&model=local-sketch`);
    await page.getByRole('button', { name: 'Hide get started' }).click();
    // Wide, like the file browser's thumbnails, so they show the whole scene.
    await page
      .locator('label')
      .filter({ hasText: /^16:9$/ })
      .click();
    await runInForm(page, 'a red fox in the snow at night', '7');
    await mediaLoaded(page, 'img');
    await shoot(page, 'playground-sketch.png');

    await page.goto(`${server.base}/playground?tool=video&model=local-motion`);
    await page.getByRole('textbox', { name: 'Duration' }).fill('4');
    await runInForm(page, 'a lighthouse on a rocky cliff at sunset, pan right', '2');
    await mediaLoaded(page, 'video');
    // A frame from the middle of the clip, paused, rather than whatever the first paint shows.
    await page
      .getByRole('region', { name: 'Result' })
      .locator('video')
      .first()
      .evaluate(
        (node: HTMLVideoElement) =>
          new Promise<void>((resolve) => {
            node.pause();
            node.addEventListener('seeked', () => resolve(), { once: true });
            node.currentTime = 2;
          }),
      );
    await shoot(page, 'playground-video.png');

    await page.goto(`${server.base}/files`);
    await page.waitForLoadState('networkidle');
    await shoot(page, 'files.png');
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
