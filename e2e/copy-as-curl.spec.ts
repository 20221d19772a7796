import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
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
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a paper boat');

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
