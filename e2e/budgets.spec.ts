import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/*
 * Budgets against the real server: the owner of a new team creates a hard cap of 1 credit a day from
 * the Budgets page, runs one image in the playground (1 credit), sees the next run stopped with what is
 * left and when it resets, reads the used-up budget on its card, and deletes it. In dark mode, with axe
 * run on the page and on its form (the accessibility spec visits it in both schemes too).
 */

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
}

async function openBudgets(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Budgets', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Budgets', level: 1 })).toBeVisible();
}

async function runImage(page: Page, prompt: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Playground', exact: true })
    .click();
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
}

test('an owner caps the team at 1 credit a day; the second run is stopped, saying when the cap resets', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);

  await openBudgets(page);
  await expect(page.getByRole('region', { name: 'No budgets yet' })).toBeVisible();
  await page.getByRole('button', { name: 'New budget' }).click();
  const dialog = page.getByRole('dialog', { name: 'New budget' });
  await expect(dialog.getByLabel('Credits per period')).toBeFocused();
  expect(await seriousViolations(page)).toEqual([]);
  // The form checks what the server would refuse.
  await dialog.getByLabel('Credits per period').fill('0');
  await dialog.getByRole('button', { name: 'Create budget' }).click();
  await expect(dialog.getByText('Credits must be at least 1 credit.')).toBeVisible();
  await dialog.getByLabel('Credits per period').fill('1');
  await dialog.getByLabel('Period', { exact: true }).selectOption('day');
  await dialog.getByRole('radio', { name: /Hard cap/ }).check();
  await dialog.getByLabel('Alert at (% of the budget)').fill('');
  await dialog.getByRole('button', { name: 'Create budget' }).click();
  await expect(dialog).toBeHidden();
  const card = page.getByRole('list', { name: 'Budgets' }).getByRole('listitem');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Whole team');
  await expect(card).toContainText('1 credits per day');
  await expect(card).toContainText('Hard cap');
  expect(await seriousViolations(page)).toEqual([]);

  await runImage(page, 'a lighthouse at dusk, ink sketch');
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
  // Another prompt, so no cached answer makes it free.
  await runImage(page, 'a harbour at dawn, ink sketch');
  const refusal = page.getByRole('alert').filter({ hasText: 'A spend limit stopped this run' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('0 credits are left until it resets at');
  await expect(refusal).toContainText('has 0 left and resets');
  await refusal.getByRole('link', { name: 'See budgets' }).click();

  await expect(page.getByRole('heading', { name: 'Budgets', level: 1 })).toBeVisible();
  await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '1');
  await expect(card).toContainText('1 spent (100%)');
  await expect(card).toContainText('Used up for this period.');
  await card.getByRole('button', { name: 'Delete budget: Whole team' }).click();
  await page
    .getByRole('dialog', { name: 'Delete this budget?' })
    .getByRole('button', { name: 'Delete budget' })
    .click();
  await expect(page.getByRole('region', { name: 'No budgets yet' })).toBeVisible();
});
