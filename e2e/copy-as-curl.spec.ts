import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { sessionToken } from './support/api-jobs.ts';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test('Copy as cURL gives a runnable command with its own Idempotency-Key, and says where the key comes from', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  await page.goto('/playground?tool=image&model=local-sketch');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a red sailboat on the sea');

  await page.getByRole('button', { name: 'Copy as cURL' }).click();
  await expect(page.getByText('Copied the cURL command.')).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  // A literal key, made when copied: no `$(uuidgen)`, which is missing on many machines.
  expect(snippet).toMatch(
    /-H 'Idempotency-Key: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}'/,
  );
  expect(snippet).not.toContain('$(');
  expect(snippet).toContain('$MEDIA_API_KEY');
  // Copying again is a new run: a new key.
  await page.getByRole('button', { name: 'Copy as cURL' }).click();
  const again = await page.evaluate(() => navigator.clipboard.readText());
  expect(again.match(/Idempotency-Key: (\S+)'/)?.[1]).not.toBe(snippet.match(/Idempotency-Key: (\S+)'/)?.[1]);

  // The note says how to get a key for $MEDIA_API_KEY, and links to the Keys page.
  const note = page.getByRole('region', { name: 'Running the copied request' });
  await expect(note).toContainText('$MEDIA_API_KEY');
  await expect(note).toContainText('export MEDIA_API_KEY=');
  await expect(note.getByRole('link', { name: 'Keys page' })).toHaveAttribute(
    'href',
    /^\/keys\?team=[0-9a-f-]{36}$/,
  );

  // Run as a person would, with a key of their own: twice, and one job comes of it.
  const created = await page.request.post('/v2/api-keys', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data: { name: 'curl test' },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { api_key: apiKey } = (await created.json()) as { api_key: string };
  const run = () =>
    JSON.parse(
      execFileSync('bash', ['-c', `${again} --silent --show-error`], {
        env: { ...process.env, MEDIA_API_KEY: apiKey },
        encoding: 'utf8',
      }),
    ) as { id: string; status: string };
  const first = run();
  const second = run();
  expect(first.id).toMatch(/^job_/);
  expect(second.id).toBe(first.id);

  await note.getByRole('link', { name: 'Keys page' }).click();
  await expect(page).toHaveURL(/\/keys\?team=[0-9a-f-]{36}$/);
});

/** A key of the signed-in person's own, as they would make on the Keys page. */
async function newApiKey(page: Page): Promise<string> {
  const created = await page.request.post('/v2/api-keys', {
    headers: { authorization: `Bearer ${await sessionToken(page)}` },
    data: { name: 'snippet test' },
  });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { api_key: string }).api_key;
}

/** Copies the form in a language and runs it as saved from the clipboard, with the key in the environment. */
async function copyAndRun(
  page: Page,
  language: string,
  file: string,
  command: string[],
  apiKey: string,
  env: Record<string, string> = {},
) {
  await page.getByRole('button', { name: `Copy as ${language}` }).click();
  await expect(page.getByText(`Copied the ${language}.`)).toBeVisible();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  const dir = mkdtempSync(path.join(tmpdir(), 'media-snippet-'));
  try {
    writeFileSync(path.join(dir, file), snippet);
    const run = spawnSync(command[0]!, [...command.slice(1), file], {
      cwd: dir,
      env: { ...process.env, ...env, MEDIA_API_KEY: apiKey },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    return run.stdout.trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const pythonWithRequests = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' }).status === 0;

test('Copy as JavaScript, as Python and as a media command give programs that run as pasted, wait for the job and print its output', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  await page.goto('/playground?tool=image&model=local-sketch');
  await page.getByRole('textbox', { name: 'Prompt' }).fill("a small red sailboat, it's windy");
  const apiKey = await newApiKey(page);

  // Nothing of this repository to install: the platform's fetch in Node.
  const js = await copyAndRun(page, 'JavaScript', 'create-job.mjs', [process.execPath], apiKey);
  expect(js).toMatch(/^completed https?:\/\/\S+/);

  // The media command of this checkout, as `npm link` would put it on the PATH.
  const bin = mkdtempSync(path.join(tmpdir(), 'media-bin-'));
  try {
    const media = path.join(bin, 'media');
    writeFileSync(media, `#!/bin/sh\nexec "${process.execPath}" "${path.resolve('bin/media.mjs')}" "$@"\n`, {
      mode: 0o755,
    });
    const printed = await copyAndRun(page, 'media command', 'create-job.sh', ['sh'], apiKey, {
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
    });
    // Not a terminal: the job as JSON, waited for.
    expect(JSON.parse(printed)).toMatchObject({ status: 'completed', model: 'local-sketch' });
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }

  // Python 3 with requests (CI installs python3-requests; elsewhere this part says what is missing).
  if (!pythonWithRequests && process.env.REQUIRE_OPTIONAL_PROGRAMS !== '1') {
    test.info().annotations.push({
      type: 'skipped part',
      description: 'Python 3 with requests is not installed (apt-get install python3-requests)',
    });
    return;
  }
  const python = await copyAndRun(page, 'Python', 'create_job.py', ['python3'], apiKey);
  expect(python).toMatch(/^completed https?:\/\/\S+/);
});
