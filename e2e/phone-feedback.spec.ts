import { expect, type Page, test } from '@playwright/test';
import { freshEmail, latestCode, requestCode } from './support/sign-in.ts';

/*
 * On a phone (issue #29): what a tap or a key does is seen where the person is looking. Signing in and
 * choosing a page from the menu open the page at its top with the header in view; Run shows the job it
 * started, though the result sits far below the form.
 */

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

const header = (page: Page) => page.getByRole('banner');

async function signInWithEnter(page: Page) {
  const email = freshEmail();
  await page.goto('/sign-in');
  await requestCode(page, email);
  const code = page.getByLabel('Verification code');
  await code.fill(await latestCode(page.request, email));
  await code.press('Enter');
  await expect(page).toHaveURL(/\/playground\?/);
}

test('signing in with Enter and choosing from the menu keep the header in view', async ({ page }) => {
  await signInWithEnter(page);
  await expect(page.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
  await expect(header(page)).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  for (const name of ['Jobs', 'Files', 'Playground']) {
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(header(page)).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  }
});

test('Run shows the job it started, though the result is below the form', async ({ page }) => {
  await signInWithEnter(page);
  await page.goto('/playground?tool=image&model=local-sketch');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a green kite in the sky');
  const result = page.getByRole('region', { name: 'Result' });
  // Far below the Run button: without help, nothing on screen changes when the run starts.
  await expect(result).not.toBeInViewport();
  await page.getByRole('button', { name: 'Run', exact: true }).tap();
  await expect(page).toHaveURL(/job=job_/);
  await expect(result.getByRole('heading', { name: 'Result' })).toBeInViewport();
});
