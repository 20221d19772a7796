import { type APIRequestContext, expect, type Page, type Request, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/*
 * The job feed against the real server: jobs made through the API show up and finish in the feed without
 * a reload, a running job is cancelled from its details, filters survive a reload, and the feed's live
 * updates cost one list request per interval however many jobs are active.
 */

interface CreatedJob {
  id: string;
  status: string;
}

/** Signs a new person in through the UI and answers their session token (the API takes it as Bearer). */
async function signIn(page: Page): Promise<string> {
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  if (!token) throw new Error('no session after sign-in');
  return token;
}

async function createJob(request: APIRequestContext, token: string, path: string, body: object) {
  const response = await request.post(`/v2/${path}`, {
    headers: { authorization: `Bearer ${token}` },
    data: body,
  });
  expect(response.status(), await response.text()).toBe(202);
  return (await response.json()) as CreatedJob;
}

/** A local video that renders for several seconds: a camera move over `seconds` of frames. */
const slowVideo = (prompt: string, seconds: number) => ({ model: 'local-motion', prompt, duration: seconds });
const sketch = (prompt: string) => ({ model: 'local-sketch', prompt, options: { cache: false } });

const feedRow = (page: Page, text: string | RegExp) =>
  page.getByRole('table').getByRole('row').filter({ hasText: text });

test('jobs appear and finish in the feed without a reload; a running job is cancelled from its details', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const token = await signIn(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Jobs', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'No jobs yet' })).toBeVisible();

  await createJob(page.request, token, 'image', sketch('a lighthouse at dusk'));
  const fox = await createJob(page.request, token, 'image', sketch('a red fox in snow'));

  // Live: no reload, and each sketch reaches Completed in its row.
  for (const prompt of ['a lighthouse at dusk', 'a red fox in snow']) {
    await expect(feedRow(page, prompt).getByText('Completed')).toBeVisible({ timeout: 20_000 });
  }
  // Each finished sketch shows its picture in the row.
  await expect(feedRow(page, 'a red fox in snow').locator('img')).toBeVisible();
  // The person started these jobs, so they hear when they finish.
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /Image job completed|jobs finished/ })
      .first(),
  ).toBeVisible();

  // A completed sketch shows its output and a link to the file's lineage.
  await feedRow(page, 'a red fox in snow').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${fox.id}\\?team=[0-9a-f-]{36}$`));
  const details = page.getByRole('dialog');
  await expect(details.getByRole('img', { name: 'Output 1' })).toBeVisible();
  await expect(details.getByRole('link', { name: 'Lineage' })).toHaveAttribute('href', /^\/files\//);
  await expect(details.getByText('This job has no webhook (options.webhook_url).')).toBeVisible();
  // Deep-linkable: a reload opens the same details over the feed.
  await page.reload();
  await expect(page.getByRole('dialog').getByRole('heading', { name: fox.id })).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('img', { name: 'Output 1' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();

  // The video starts only now: a local render of a minute at 30 fps still runs when it is cancelled, even
  // on a loaded machine (started beside the sketches, a shorter one finished first there).
  const video = await createJob(page.request, token, 'video', {
    ...slowVideo('three horses on the hills, pan left', 60),
    options: { fps: 30 },
  });
  const videoRow = feedRow(page, 'three horses on the hills, pan left');
  await expect(videoRow.getByText('Running')).toBeVisible({ timeout: 20_000 });
  await videoRow.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/jobs/${video.id}\\?team=[0-9a-f-]{36}$`));
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('heading', { name: video.id })).toBeVisible();
  await expect(drawer.getByRole('progressbar')).toBeVisible();

  await drawer.getByRole('button', { name: 'Cancel job' }).click();
  // A job under way for more than 30 s asks first (a loaded machine may have started it that long ago).
  const confirm = page.getByRole('dialog', { name: 'Cancel this job?' });
  const cancelledBadge = page.getByRole('dialog').getByText('Cancelled', { exact: true }).first();
  await expect(confirm.or(cancelledBadge)).toBeVisible();
  if (await confirm.isVisible()) await confirm.getByRole('button', { name: 'Cancel job' }).click();
  await expect(cancelledBadge).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Retry' })).toBeVisible();
  const cancelled = await page.request.get(`/v2/jobs/${video.id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(((await cancelled.json()) as CreatedJob).status).toBe('cancelled');

  // Escape closes the drawer; the feed behind shows the cancelled job.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/jobs\?team=[0-9a-f-]{36}$/);
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(feedRow(page, 'three horses on the hills, pan left').getByText('Cancelled')).toBeVisible();
});

test('filters the feed, and a reload keeps the filter', async ({ page }) => {
  test.setTimeout(60_000);
  const token = await signIn(page);
  await createJob(page.request, token, 'image', sketch('a blue teapot'));
  await createJob(page.request, token, 'speech', { model: 'local-flite', text: 'Hello from the feed.' });
  await page.goto('/jobs');
  await expect(feedRow(page, 'a blue teapot')).toBeVisible();
  await expect(feedRow(page, 'Hello from the feed.')).toBeVisible();

  await page.getByLabel('Tool').selectOption('speech');
  await expect(page).toHaveURL(/[?&]tool=speech/);
  await expect(feedRow(page, 'Hello from the feed.')).toBeVisible();
  await expect(feedRow(page, 'a blue teapot')).toHaveCount(0);

  await page.reload();
  await expect(page.getByLabel('Tool')).toHaveValue('speech');
  await expect(feedRow(page, 'Hello from the feed.')).toBeVisible();
  await expect(feedRow(page, 'a blue teapot')).toHaveCount(0);

  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page).toHaveURL(/\/jobs\?team=[0-9a-f-]{36}$/);
  await expect(feedRow(page, 'a blue teapot')).toBeVisible();
});

test('with 20 active jobs the feed makes one list request per interval, pauses while hidden, and bulk-cancels', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The page's clock runs as usual; the test moves it on instead of waiting out the feed's intervals.
  await page.clock.install();
  const token = await signIn(page);
  const auth = { authorization: `Bearer ${token}` };
  // 4 local workers: 4 render (about 7 s each) while 16 wait queued; all 20 are active for well over 10 s.
  const jobs = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      createJob(page.request, token, 'video', slowVideo(`a quiet green meadow, take ${i}`, 30)),
    ),
  );
  await page.goto('/jobs');
  await expect(
    page.getByRole('table').getByRole('row').filter({ hasText: 'a quiet green meadow' }),
  ).toHaveCount(20);

  const seen: Request[] = [];
  const inFlight = new Set<Request>();
  page.on('request', (request) => {
    if (!new URL(request.url()).pathname.startsWith('/v2/jobs')) return;
    seen.push(request);
    inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  const isList = (request: Request) =>
    request.method() === 'GET' && new URL(request.url()).pathname === '/v2/jobs';

  // Ten seconds of the page's clock, a second (the active interval) at a time, each step waiting for
  // the feed's answer. How often it asks is feed-poller.test.ts's to time; here: what it asks for.
  for (let i = 0; i < 10; i++) {
    const answered = page.waitForResponse((response) => isList(response.request()));
    await page.clock.runFor(1_000);
    await answered;
  }
  const lists = seen.filter(isList).length;
  const perJob = seen.filter((request) => !isList(request)).map((r) => `${r.method()} ${r.url()}`);
  test.info().annotations.push({
    type: "feed requests in 10 s of the page's clock with 20 active jobs",
    description: `${lists} list, ${perJob.length} per job`,
  });
  expect(perJob).toEqual([]);
  // One list request per interval (at most one was already under way when counting began); one
  // request per job per interval would be 200 here.
  expect(lists).toBeGreaterThanOrEqual(9);

  const still = await page.request.get('/v2/jobs?status=queued,submitting,running&limit=100', {
    headers: auth,
  });
  expect(((await still.json()) as { data: CreatedJob[] }).data.length, 'jobs still active').toBeGreaterThan(
    0,
  );

  // Hidden tab: no requests, over 10 s of the page's clock. Shown again: one at once, the first since.
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => value });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  await setVisibility('hidden');
  // A request already under way may still land: counting starts once none is.
  await expect.poll(() => inFlight.size).toBe(0);
  seen.length = 0;
  await page.clock.runFor(10_000);
  const resumed = page.waitForRequest(isList);
  await setVisibility('visible');
  // Requests are reported in the order the page makes them: one made while hidden would come first.
  expect(seen.indexOf(await resumed)).toBe(0);

  // Bulk cancel everything still active, from the UI.
  await page.getByLabel('Select all loaded jobs').check();
  const toolbar = page.getByRole('toolbar', { name: 'Actions on selected jobs' });
  const cancelButton = toolbar.getByRole('button', { name: /^Cancel \(\d+\)$/ });
  const count = Number((await cancelButton.textContent())?.match(/\d+/)?.[0]);
  await cancelButton.click();
  // Asked once, with how many will be cancelled.
  const confirm = page.getByRole('dialog', { name: /^Cancel \d+ jobs?\?$/ });
  await expect(confirm).toBeVisible();
  expect(Number((await confirm.getByRole('heading').textContent())?.match(/\d+/)?.[0])).toBeLessThanOrEqual(
    count,
  );
  await confirm.getByRole('button', { name: /^Cancel \d+ jobs?$/ }).click();
  // Up to 20 cancels, 4 at a time, while 4 video renders take both cores: in CI each took 0.2-1.1 s and
  // the browser's own turns waited up to 2 s between them (8 s in all), past the default 10 s once.
  await expect(
    page.getByRole('status').filter({ hasText: /Cancelled \d+ jobs|Cancelled the job|already finished/ }),
  ).toBeVisible({ timeout: 30_000 });
  const rows = page.getByRole('table').getByRole('row').filter({ hasText: 'a quiet green meadow' });
  await expect(rows.filter({ hasText: /Queued|Submitting|Running/ })).toHaveCount(0);

  for (const job of jobs) {
    const response = await page.request.get(`/v2/jobs/${job.id}`, { headers: auth });
    expect(['completed', 'cancelled']).toContain(((await response.json()) as CreatedJob).status);
  }
});

test('on a phone the feed is a card per job with its picture, and the filters fold behind a button with their count', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const token = await signIn(page);
  await createJob(page.request, token, 'image', sketch('a kite over dunes'));
  await page.goto('/jobs?tool=image');

  const filters = page.getByRole('button', { name: /^Filters/ });
  await expect(filters).toHaveAccessibleName('Filters 1 set');
  await expect(filters).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByLabel('Tool')).toBeHidden();

  // No table narrowed to three columns: a card, with the output's picture once the job is done.
  await expect(page.getByRole('table')).toHaveCount(0);
  const card = page
    .getByRole('list', { name: 'Jobs' })
    .getByRole('listitem')
    .filter({ hasText: 'a kite over dunes' });
  await expect(card.getByText('Completed')).toBeVisible({ timeout: 20_000 });
  await expect(card.locator('img')).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, 'the page does not scroll sideways').toBeLessThanOrEqual(390);

  // Unfolded, the filters follow the URL; the panel stays open while a filter changes.
  await filters.click();
  await expect(page.getByLabel('Tool')).toHaveValue('image');
  await page.getByLabel('Tool').selectOption('');
  await expect(page).toHaveURL(/\/jobs\?team=[0-9a-f-]{36}$/);
  await expect(page.getByLabel('Tool')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Filters/ })).toHaveAccessibleName('Filters');
});
