import { expect, type Page, test } from '@playwright/test';
import sharp from 'sharp';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

async function signIn(page: Page) {
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
}

/** A small PNG of one colour: different colours are different bytes (and hashes). */
function png(background: string): Promise<Buffer> {
  return sharp({ create: { width: 24, height: 16, channels: 3, background } })
    .png()
    .toBuffer();
}

/** The person's image jobs, read from the API with the console's own session. */
async function imageJobs(
  page: Page,
): Promise<Array<{ id: string; status: string; input: { files?: Array<{ url: string }> } }>> {
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  const response = await page.request.get('/v2/jobs?tool=image&limit=100', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
}

function resultArea(page: Page) {
  return page.getByRole('region', { name: 'Result' });
}

test('a folder, two uploads and a duplicate, a run from a file, and its lineage back to the upload', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.getByRole('link', { name: 'Files' }).first().click();
  await expect(page).toHaveURL(/\/files\?team=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'No files yet' })).toBeVisible();

  // A folder, selected: it goes into the URL, and uploads go into it.
  const folders = page.getByRole('navigation', { name: 'Folders' });
  await folders.getByRole('button', { name: 'New folder' }).click();
  await folders.getByLabel('New folder name').fill('Campaign');
  await folders.getByRole('button', { name: 'Create folder' }).click();
  await folders.getByRole('link', { name: /^Campaign/ }).click();
  await expect(page).toHaveURL(/\/files\?team=[0-9a-f-]{36}&folder=[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: 'This folder is empty' })).toBeVisible();

  // Two files at once, each with its own row, then the first one's bytes again under another name.
  const puts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(new URL(request.url()).pathname);
  });
  const blue = await png('#2266cc');
  const picker = page.locator('input[type="file"]').first();
  await picker.setInputFiles([
    { name: 'blue.png', mimeType: 'image/png', buffer: blue },
    { name: 'red.png', mimeType: 'image/png', buffer: await png('#cc2222') },
  ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await expect(uploads.getByRole('listitem').filter({ hasText: 'blue.png' })).toContainText('Uploaded', {
    timeout: 20_000,
  });
  await expect(uploads.getByRole('listitem').filter({ hasText: 'red.png' })).toContainText('Uploaded', {
    timeout: 20_000,
  });
  await picker.setInputFiles({ name: 'blue-again.png', mimeType: 'image/png', buffer: blue });
  const duplicate = uploads.getByRole('listitem').filter({ hasText: 'blue-again.png' });
  await expect(duplicate).toContainText('Already in your files', { timeout: 20_000 });
  await expect(duplicate).toContainText('already stored as blue.png');
  // Two uploads went straight to storage (presigned URLs, not the API's proxy); the duplicate sent no bytes.
  expect(puts).toHaveLength(2);
  for (const path of puts) expect(path).not.toMatch(/^\/v2\//);

  // The folder holds the two files (the duplicate added none).
  const grid = page.getByRole('region', { name: 'Files' });
  await expect(grid.getByRole('link')).toHaveCount(2);
  await expect(folders.getByRole('link', { name: /^Campaign/ })).toContainText('2');

  // Open one: its page shows it, with its facts.
  await grid.getByRole('link', { name: /blue\.png/ }).click();
  await expect(page).toHaveURL(/\/files\/file_[A-Za-z0-9_-]+\?team=[0-9a-f-]{36}$/);
  const uploadUrl = page.url();
  await expect(page.getByRole('heading', { level: 1, name: 'blue.png' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Facts' })).toContainText('24 × 16 px');
  await expect(page.getByRole('region', { name: 'Facts' })).toContainText('Campaign');

  // Generate from it in the playground: an upscale with the file as input.
  await page.getByRole('link', { name: 'Use in playground: Image' }).click();
  await expect(page).toHaveURL(/\/playground\?.*input=/);
  await page.getByRole('button', { name: /Model/ }).click();
  await page.getByRole('combobox', { name: 'Search models' }).fill('upscale');
  await page.getByRole('option', { name: /Local upscale/ }).click();
  await expect(page.getByText(/\/media\/file_[^/]+\/blue\.png$/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(resultArea(page).getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });

  // The output is among the generated files; its lineage leads back to the upload.
  await page.getByRole('link', { name: 'Files' }).first().click();
  await page.getByLabel('Origin').selectOption('job');
  await expect(page).toHaveURL(/origin=job/);
  await expect(grid.getByRole('link')).toHaveCount(1);
  await grid.getByRole('link').first().click();
  const lineage = page.getByRole('list', { name: 'Lineage, from inputs to outputs' });
  await expect(lineage.getByRole('link', { name: /^This file / })).toHaveAttribute('aria-current', 'page');
  await expect(lineage.getByRole('region', { name: /^Job: Image, local-upscale/ })).toBeVisible();
  await lineage.getByRole('link', { name: 'File blue.png' }).click();
  await expect(page).toHaveURL(uploadUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'blue.png' })).toBeVisible();

  // From the upload's page, re-run the job that used it: the playground opens with that job's input.
  const [first] = await imageJobs(page);
  await page
    .getByRole('list', { name: 'Lineage, from inputs to outputs' })
    .getByRole('button', { name: /^Re-run from here: Image, local-upscale/ })
    .click();
  await expect(page).toHaveURL(/\/playground\?.*model=local-upscale/);
  await expect(page.getByText(first!.input.files![0]!.url, { exact: true }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect
    .poll(async () => (await imageJobs(page)).map((job) => job.status), { timeout: 30_000 })
    .toEqual(['completed', 'completed']);
  const [second] = await imageJobs(page);
  expect(second!.id).not.toBe(first!.id);
  expect(second!.input.files).toEqual(first!.input.files);
});

test('an upload goes through the API when storage cannot be reached directly', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page);
  await page.getByRole('link', { name: 'Files' }).first().click();
  await expect(page.getByRole('heading', { name: 'No files yet' })).toBeVisible();
  // The presigned storage URL is unreachable from this browser (a proxy or firewall in between).
  const refused: string[] = [];
  await page.route(
    (url) => url.pathname.startsWith('/uploads/'),
    (route) => {
      refused.push(route.request().url());
      return route.abort('connectionrefused');
    },
  );
  const proxied: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT' && /^\/v2\/files\/upload\/file_/.test(new URL(request.url()).pathname)) {
      proxied.push(request.headers().authorization ?? '');
    }
  });
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles({ name: 'green.png', mimeType: 'image/png', buffer: await png('#22aa44') });
  const row = page
    .getByRole('list', { name: 'Uploads' })
    .getByRole('listitem')
    .filter({ hasText: 'green.png' });
  await expect(row).toContainText('Uploaded', { timeout: 20_000 });
  expect(refused).toHaveLength(1);
  expect(proxied).toEqual([expect.stringMatching(/^Bearer .+/)]);
  await page
    .getByRole('region', { name: 'Files' })
    .getByRole('link', { name: /green\.png/ })
    .click();
  await expect(page.getByRole('region', { name: 'Facts' })).toContainText('Uploaded');
  await expect(page.getByRole('img', { name: 'green.png' })).toHaveJSProperty('naturalWidth', 24);
});

test('a link to a file that is not there says so and leads back to the files', async ({ page }) => {
  await signIn(page);
  for (const path of ['/files/file_nosuchfile', '/files/not-a-file-id']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'This file is not here' })).toBeVisible();
  }
  await page.getByRole('link', { name: 'Back to your files' }).click();
  await expect(page).toHaveURL(/\/files\?team=[0-9a-f-]{36}$/);
});
