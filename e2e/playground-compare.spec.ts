import { expect, test } from '@playwright/test';
import { runJobThroughApi } from './support/api-jobs.ts';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test('compares a new run with one older than the last eight, in a dialog that opens in view', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  for (let n = 1; n <= 9; n++) {
    await runJobThroughApi(page, 'image', {
      model: 'local-sketch',
      prompt: `${n} red ${n === 1 ? 'kite' : 'kites'}`,
    });
  }

  await page.goto('/playground?tool=image&model=local-sketch');
  const recent = page.getByRole('region', { name: /Recent image runs/ });
  await expect(recent.getByRole('listitem')).toHaveCount(8);
  await recent.getByRole('button', { name: 'Show older runs' }).click();
  await expect(recent.getByRole('listitem')).toHaveCount(9);
  await expect(recent.getByRole('button', { name: 'Show older runs' })).toHaveCount(0);

  // Each box says which run it selects, in words.
  const newest = recent.getByRole('checkbox', { name: /^Compare the run “9 red kites”, / });
  const oldest = recent.getByRole('checkbox', { name: /^Compare the run “1 red kite”, / });
  await expect(newest).toHaveAccessibleName(/, just now$/);
  await newest.check();
  await oldest.check();
  await recent.getByRole('button', { name: 'Compare (2)' }).click();

  const dialog = page.getByRole('dialog', { name: 'Comparing 2 runs' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeInViewport();
  await expect(dialog).toContainText('1 input differs, marked below.');
  await expect(dialog.getByRole('row', { name: /prompt/ })).toContainText('1 red kite');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(recent.getByRole('button', { name: 'Compare (2)' })).toBeFocused();
});
