import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/*
 * The Audit log page against the real server: an owner's sign-up and sign-in are in the log in words
 * (with the raw action beside them), a filter narrows it through the URL, and the CSV downloads.
 */
test('an owner reads the audit log, filters it by action and downloads it as CSV', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Audit log', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit log entries' });
  await expect(table.getByRole('rowheader', { name: /Signed in/ })).toBeVisible();
  await expect(table.getByText('auth.sign_in', { exact: true })).toBeVisible();
  await expect(table.getByRole('rowheader', { name: /Credits granted/ })).toBeVisible();

  await page.getByLabel('Action').selectOption('api_key.');
  await expect(page).toHaveURL(/action=api_key\./);
  await expect(table.getByRole('rowheader', { name: /Key created/ })).toBeVisible();
  await expect(table.getByRole('rowheader', { name: /Signed in/ })).toHaveCount(0);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d\d-\d\d\.csv$/);
  const csv = await readFile(await file.path(), 'utf8');
  expect(csv.split('\r\n')[0]).toMatch(/^occurred_at,action,action_label,/);
  expect(csv).toContain(',api_key.created,Key created,');
  expect(csv).not.toContain(',auth.sign_in,');

  await page.getByLabel('Action').selectOption('budget.');
  await expect(page.getByText('No entries match these filters')).toBeVisible();
});
