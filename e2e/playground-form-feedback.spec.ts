import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test('the estimate and the error banner follow the form: no price for an invalid form, plain words that clear', async ({
  page,
}) => {
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);

  // A duration the schema refuses has no price beside it, and says why.
  await page.goto('/playground?tool=video&model=local-motion');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a whale in the sea, pan right');
  const duration = page.getByRole('textbox', { name: 'Duration' });
  await duration.fill('99999999');
  await duration.blur();
  await expect(page.getByText(/^At most \d+\.$/)).toBeVisible();
  await expect(page.getByTestId('cost-estimate')).toHaveCount(0);
  await expect(page.getByTestId('cost-missing')).toHaveText('No estimate while 1 field needs attention.');
  await expect(page.getByText(/99,999,999/)).toHaveCount(0);
  await duration.fill('2');
  await expect(page.getByTestId('cost-estimate')).toHaveText('2 credits ($0.02)');

  // The model's description reads its Markdown code spans as code, not as backticks.
  await page.goto('/playground?tool=video&model=local-motion-i2v');
  const description = page.getByTestId('model-description');
  await expect(description.locator('code', { hasText: 'files' })).toBeVisible();
  await expect(description).not.toContainText('`');

  // The server refuses an image with neither prompt nor files: the banner names the field by its label.
  await page.goto('/playground?tool=image&model=local-sketch');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'Some inputs need attention' });
  await expect(banner).toContainText('Prompt: Prompt or files is required.');
  await expect(banner).not.toContainText('Invalid request');
  await expect(banner).not.toContainText('prompt:');
  // Fixing the field clears it: it described the values that were sent.
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a kite');
  await expect(banner).toHaveCount(0);
});
