import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/** Signs a new person in through the real flow and lands on the playground. */
async function signIn(page: Page) {
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
}

/** The person's jobs of a tool, read from the API with the console's own session. */
async function jobsOf(page: Page, tool: string): Promise<Array<{ id: string; status: string }>> {
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  const response = await page.request.get(`/v2/jobs?tool=${tool}&limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: Array<{ id: string; status: string }> }).data;
}

function resultArea(page: Page) {
  return page.getByRole('region', { name: 'Result' });
}

/** The media element of the result has loaded its source (not only got a src attribute). */
async function expectLoaded(page: Page, selector: 'img' | 'audio' | 'video') {
  const element = resultArea(page).locator(selector).first();
  await expect(element).toHaveAttribute('src', /\/media\/file_[^/]+\/.+/);
  await expect
    .poll(() =>
      element.evaluate((node) =>
        node instanceof HTMLImageElement ? node.naturalWidth : (node as HTMLMediaElement).readyState,
      ),
    )
    .toBeGreaterThan(0);
}

test('runs an image, a speech and a video job from the playground and shows each one live', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  // Set once: it would be gone after a reload, which following a job must not need.
  await page.evaluate(() => {
    (window as unknown as { stillHere: boolean }).stillHere = true;
  });

  // Image: the default tab, the first local model.
  await expect(page.getByRole('link', { name: /^Image/ })).toHaveAttribute('aria-current', 'page');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a red fox in the snow at night');
  // Segmented choices are radios drawn over their labels: click the label, as a person does.
  await page
    .locator('label')
    .filter({ hasText: /^16:9$/ })
    .click();
  await expect(page.getByRole('radio', { name: '16:9' })).toBeChecked();
  await expect(page.getByTestId('cost-estimate')).toHaveText('1 credit ($0.01)');
  // How long it takes, measured here or the catalog's said as such; the picker says the same of the model.
  const runTime = page.getByTestId('run-time-estimate');
  await expect(runTime).toHaveText(/^Run time: (usually .+ here|about .+ \(typical for this model\))$/);
  const said = ((await runTime.textContent()) ?? '').replace('Run time: ', '');
  await expect(page.getByTestId('model-figures')).toContainText(said);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(resultArea(page).getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectLoaded(page, 'img');
  await expect(resultArea(page)).toContainText('Charged 1 credit');

  // Speech: Flite, sent with Ctrl+Enter from the text.
  await page.getByRole('link', { name: /^Speech/ }).click();
  await expect(page.getByRole('button', { name: /Model/ })).toContainText('Flite');
  const text = page.getByRole('textbox', { name: /^Text/ });
  await text.fill('Hello from the playground.');
  await text.press('Control+Enter');
  await expect(resultArea(page).getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectLoaded(page, 'audio');

  // Video: local motion, one second long.
  await page.getByRole('link', { name: /^Video/ }).click();
  await expect(page.getByRole('button', { name: /Model/ })).toContainText('Local motion');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('three blue whales, pan left');
  await page.getByRole('textbox', { name: 'Duration' }).fill('1');
  await expect(page.getByTestId('cost-estimate')).toHaveText('1 credit ($0.01)');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(resultArea(page).getByText('Completed', { exact: true })).toBeVisible({ timeout: 60_000 });
  await expectLoaded(page, 'video');

  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  // Each run is in its tool's recent runs, as the API has it.
  for (const tool of ['image', 'speech', 'video']) {
    const jobs = await jobsOf(page, tool);
    expect(jobs.map((job) => job.status)).toEqual(['completed']);
  }
  await expect(page.getByRole('region', { name: /Recent video runs/ }).getByRole('listitem')).toHaveCount(1);
});

test('a double click on Run creates exactly one job', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  const posts: Array<string | undefined> = [];
  page.on('request', (request) => {
    if (
      request.method() === 'POST' &&
      /\/v2\/(tools\/image\/call|image)$/.test(new URL(request.url()).pathname)
    ) {
      posts.push(request.headers()['idempotency-key']);
    }
  });
  expect(await jobsOf(page, 'image')).toHaveLength(0);

  await page.getByRole('textbox', { name: 'Prompt' }).fill('one red kite in a blue sky');
  await page.getByRole('button', { name: 'Run', exact: true }).dblclick();
  await expect(resultArea(page).getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectLoaded(page, 'img');

  const jobs = await jobsOf(page, 'image');
  expect(jobs).toHaveLength(1);
  // Whatever reached the server carried one key: a repeat would have answered the same job.
  expect(posts.length).toBeGreaterThanOrEqual(1);
  expect(new Set(posts).size).toBe(1);
  expect(posts[0]).toMatch(/^[0-9a-f-]{36}$/);
  await expect(page).toHaveURL(new RegExp(`job=${jobs[0]?.id}`));
});

test('an uploaded picture is the input of an edit model', async ({ page }) => {
  test.setTimeout(60_000);
  // The page's clock runs as usual; the test moves it past the double-click window instead of waiting.
  await page.clock.install();
  await signIn(page);
  await page.goto('/playground?tool=image&model=local-upscale');
  await expect(page.getByRole('button', { name: /Model/ })).toContainText('upscale');
  // A small PNG, uploaded through the field's Upload button (an upload session, as on the Files page).
  const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: '#2266cc' } })
    .png()
    .toBuffer();
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: png });
  // Its URL in the field's list means the upload finished (its name shows at once, in the progress row).
  await expect(page.getByText(/\/media\/file_[^/]+\/dot\.png$/).first()).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(resultArea(page).getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectLoaded(page, 'img');

  // A second run picks the same picture from the Files picker (GET /v2/files) instead of uploading again.
  const uploads: string[] = [];
  page.on('request', (request) => {
    if (
      request.method() === 'POST' &&
      /^\/v2\/files(\/upload-session)?$/.test(new URL(request.url()).pathname)
    )
      uploads.push(request.url());
  });
  const [first] = await jobsOf(page, 'image');
  const firstInput = (await jobInput(page, first!.id)).files?.[0]?.url;
  expect(firstInput).toMatch(/\/media\/file_[^/]+\/dot\.png$/);
  await page.getByRole('button', { name: 'Remove file 1' }).click();
  await page.getByRole('button', { name: 'From your files' }).first().click();
  const picker = page.getByRole('region', { name: 'Your files' });
  // The image field narrows the picker to images; the search box asks the server by name.
  await expect(picker.getByRole('button', { name: 'Images' })).toHaveAttribute('aria-pressed', 'true');
  await picker.getByRole('searchbox', { name: 'Search your files by name' }).fill('dot');
  const pick = picker.getByRole('button', { name: /^Use dot\.png \(image\/png · .+\), Uploaded/ });
  await expect(pick.locator('img')).toHaveAttribute('src', /\/media\/file_[^/]+\/thumbnail\.webp$/);
  await pick.click();
  await expect(page.getByText(firstInput!, { exact: true }).first()).toBeVisible();
  // The same inputs again within 2 s of a run are the second half of a double click (one job); past
  // that window they are a new run on purpose.
  await page.clock.fastForward(2_100);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect
    .poll(async () => (await jobsOf(page, 'image')).map((job) => job.status), { timeout: 30_000 })
    .toEqual(['completed', 'completed']);
  const [second] = await jobsOf(page, 'image');
  expect(second!.id).not.toBe(first!.id);
  expect((await jobInput(page, second!.id)).files).toEqual([{ url: firstInput }]);
  expect(uploads).toEqual([]);
});

/** The input a job was created with, read from the API with the console's own session. */
async function jobInput(page: Page, id: string): Promise<{ files?: Array<{ url: string }> }> {
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  const response = await page.request.get(`/v2/jobs/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { input: { files?: Array<{ url: string }> } }).input;
}
