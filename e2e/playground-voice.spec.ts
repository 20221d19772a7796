import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test('a chosen voice preset shows its name, with its id on hover and to copy', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  await page.goto('/playground?tool=speech&model=local-flite');

  await page.getByRole('button', { name: 'Browse voices' }).click();
  const first = page.getByRole('list', { name: 'Voices' }).getByRole('button', { name: /^Use / }).first();
  const name = ((await first.getAttribute('aria-label')) ?? (await first.textContent()) ?? '')
    .replace(/^Use\s*/, '')
    .trim();
  expect(name).not.toBe('');
  await first.click();

  const voice = page.getByRole('textbox', { name: 'Voice' });
  await expect(voice).toHaveValue(name);
  await expect(voice).toHaveAttribute('title', /^Voice preset preset_[0-9a-f]{12}$/);
  const id = (await voice.getAttribute('title'))?.replace('Voice preset ', '') ?? '';
  await expect(page.getByText(id, { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Copy id' }).click();
  await expect(page.getByRole('button', { name: 'Copied the id' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);

  // What is sent is still the id: the copied request carries it.
  await page.getByRole('textbox', { name: /^Text/ }).fill('Hello.');
  await page.getByRole('button', { name: 'Copy as cURL' }).click();
  await expect(page.getByText('Copied the cURL command.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(`"voice": "${id}"`);

  // "Type a voice" goes back to a free text field.
  await page.getByRole('button', { name: 'Type a voice' }).click();
  await expect(voice).toHaveValue('');
  await expect(voice).toBeEditable();
});
