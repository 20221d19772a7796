import { readFile } from 'node:fs/promises';
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

/** The console's session token, for calls to the API beside the page. */
async function sessionHeaders(page: Page): Promise<Record<string, string>> {
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  return { authorization: `Bearer ${token}` };
}

/** Every box of `items` lies whole inside `frame`'s box: nothing drawn beyond the graph's edge. */
async function expectInside(frame: ReturnType<Page['locator']>, items: ReturnType<Page['locator']>) {
  const outer = (await frame.boundingBox())!;
  const count = await items.count();
  expect(count).toBeGreaterThan(0);
  for (let index = 0; index < count; index += 1) {
    const box = (await items.nth(index).boundingBox())!;
    const label = await items.nth(index).textContent();
    expect.soft(box.x, `left of ${label}`).toBeGreaterThanOrEqual(outer.x - 0.5);
    expect.soft(box.y, `top of ${label}`).toBeGreaterThanOrEqual(outer.y - 0.5);
    expect.soft(box.x + box.width, `right of ${label}`).toBeLessThanOrEqual(outer.x + outer.width + 0.5);
    expect.soft(box.y + box.height, `bottom of ${label}`).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
  }
}

test('the lineage graph shows every node whole, on a desktop and on a phone', async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page);
  const headers = await sessionHeaders(page);
  const data = (await png('#2266cc')).toString('base64');
  const upload = await (
    await page.request.post('/v2/files', { headers, data: { filename: 'start.png', data } })
  ).json();
  /** An upscale of `url`, finished: its first output. */
  const upscale = async (url: string) => {
    const job = await (
      await page.request.post('/v2/image', {
        headers,
        data: { model: 'local-upscale', files: [{ url }], provider_options: { local: { factor: 2 } } },
      })
    ).json();
    let output: { url: string; file_id: string } | undefined;
    await expect
      .poll(
        async () => {
          const done = await (await page.request.get(`/v2/jobs/${job.id}`, { headers })).json();
          output = done.output?.outputs?.[0];
          return done.status;
        },
        { timeout: 30_000 },
      )
      .toBe('completed');
    return output!;
  };
  // A chain of five: start.png → upscale → middle → upscale → end, seen from the middle file.
  const middle = await upscale(upload.url);
  await upscale(middle.url);

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    await page.goto(`/files/${middle.file_id}`);
    const lineage = page.getByRole('list', { name: 'Lineage, from inputs to outputs' });
    await expect(lineage.getByRole('link', { name: /^This file / })).toBeVisible();
    await expect(lineage.getByRole('listitem')).toHaveCount(5);
    // The frame that scrolls: the list sits in the drawing, the drawing in the frame.
    await expectInside(lineage.locator('xpath=../..'), lineage.getByRole('listitem'));
  }
});

/** The names a zip lists in its central directory (signature PK\1\2, name length at 28, name at 46). */
function zipNames(zip: Buffer): string[] {
  const names: string[] = [];
  for (let at = zip.indexOf('PK\x01\x02'); at >= 0; at = zip.indexOf('PK\x01\x02', at + 4)) {
    names.push(zip.subarray(at + 46, at + 46 + zip.readUInt16LE(at + 28)).toString('utf8'));
  }
  return names;
}

test('one drop stores the same bytes once; many files are selected, moved, zipped and deleted at once', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  const headers = await sessionHeaders(page);
  expect((await page.request.post('/v2/workspaces', { headers, data: { name: 'Picks' } })).ok()).toBe(true);
  await page.getByRole('link', { name: 'Files' }).first().click();
  await expect(page.getByRole('heading', { name: 'No files yet' })).toBeVisible();

  // Four files dropped at once, two of them the same bytes: three are stored, one is their duplicate.
  const puts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'PUT') puts.push(request.url());
  });
  const green = await png('#22aa44');
  await page
    .locator('input[type="file"]')
    .first()
    .setInputFiles([
      { name: 'one.png', mimeType: 'image/png', buffer: green },
      { name: 'two.png', mimeType: 'image/png', buffer: await png('#aa2244') },
      { name: 'one-again.png', mimeType: 'image/png', buffer: green },
      { name: 'three.png', mimeType: 'image/png', buffer: await png('#4422aa') },
    ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  for (const name of ['one.png', 'two.png', 'three.png']) {
    await expect(uploads.getByRole('listitem').filter({ hasText: name }).first()).toContainText('Uploaded', {
      timeout: 20_000,
    });
  }
  const again = uploads.getByRole('listitem').filter({ hasText: 'one-again.png' });
  await expect(again).toContainText('Already in your files');
  await expect(again).toContainText('the same bytes as one.png in this drop');
  expect(puts).toHaveLength(3);
  const grid = page.getByRole('region', { name: 'Files' });
  await expect(grid.getByRole('link')).toHaveCount(3);

  // Select the first two with a click and Shift+click, the last by keyboard (in the list's order: newest
  // first, as the uploads happened to finish).
  const boxes = grid.getByRole('checkbox');
  await boxes.nth(0).click();
  await boxes.nth(1).click({ modifiers: ['Shift'] });
  await boxes.nth(2).focus();
  await page.keyboard.press('Space');
  const bar = page.getByRole('toolbar', { name: 'Selected files' });
  await expect(bar).toContainText('3 files selected');
  await bar.getByLabel('Folder').selectOption({ label: 'Picks' });
  await bar.getByRole('button', { name: 'Move into Picks' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Moved' })).toHaveText('Moved 3 files into Picks.');

  // In the folder: all three, downloaded as one zip named after it.
  const folders = page.getByRole('navigation', { name: 'Folders' });
  await folders.getByRole('link', { name: /^Picks/ }).click();
  // The list is the folder's once its heading says so (all files were three as well, a moment before).
  await expect(page.getByRole('heading', { name: 'Picks', exact: true })).toBeAttached();
  await expect(grid.getByRole('link')).toHaveCount(3);
  await page.getByRole('button', { name: 'Select all 3 files shown' }).click();
  const downloading = page.waitForEvent('download');
  await bar.getByRole('button', { name: 'Download as zip' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Picks.zip');
  const zip = await readFile((await download.path())!);
  expect(zipNames(zip).sort()).toEqual(['one.png', 'three.png', 'two.png']);
  expect(zip.includes(green)).toBe(true);

  // Delete two, after the dialog says which.
  await bar.getByRole('button', { name: 'Clear selection' }).click();
  await grid.getByRole('checkbox', { name: 'Select one.png' }).click();
  await grid.getByRole('checkbox', { name: 'Select two.png' }).click();
  await bar.getByRole('button', { name: 'Delete…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete 2 files?' });
  await expect(dialog).toContainText('one.png');
  await dialog.getByRole('button', { name: 'Delete 2 files' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Deleted' })).toHaveText('Deleted 2 files.');
  await expect(grid.getByRole('link')).toHaveCount(1);
  await expect(grid.getByRole('link', { name: /three\.png/ })).toBeVisible();
});
