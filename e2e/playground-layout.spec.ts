import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test.describe('at 1440×900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the Run bar stays at the bottom of a long form, with the result beside it', async ({ page }) => {
    await page.goto('/sign-in');
    await signInThroughUi(page, freshEmail());
    await expect(page).toHaveURL(/\/playground/);
    await page.goto('/playground?tool=image&model=local-sketch');
    // Open the option groups so the form runs well past the fold.
    await page.getByRole('button', { name: /local options/ }).click();
    await page.getByRole('button', { name: /Job options/ }).click();
    // Without the sticky bar, the bottom of the form (where Run is) would be below the fold.
    const formBottom = await page
      .getByRole('form', { name: 'Run' })
      .evaluate((form) => form.getBoundingClientRect().bottom + window.scrollY);
    expect(formBottom).toBeGreaterThan(900 + 300);

    const runBar = page.getByTestId('run-bar');
    for (const scrolled of [0, 500]) {
      await page.evaluate((y) => window.scrollTo(0, y), scrolled);
      await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeInViewport();
      await expect(page.getByTestId('cost-estimate')).toBeInViewport();
      await expect(runBar.getByRole('button', { name: 'Copy as cURL' })).toBeInViewport();
      await expect(runBar).toContainText('Balance');
      await expect(page.getByRole('region', { name: 'Result' })).toBeInViewport();
    }
  });
});

test.describe('on a phone (390×844)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true });

  test('the navigation is a menu, and Run is in reach without scrolling', async ({ page }) => {
    await page.goto('/sign-in');
    await signInThroughUi(page, freshEmail());
    await expect(page).toHaveURL(/\/playground/);

    const menuButton = page.getByRole('button', { name: 'Menu', exact: true });
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();

    // Keyboard: open with Enter (focus moves to the first section), close with Escape (back on the button).
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Playground' })).toBeFocused();
    for (const name of ['Playground', 'Jobs', 'Files', 'Analytics', 'Keys', 'Team', 'Settings']) {
      await expect(nav.getByRole('link', { name })).toBeInViewport();
    }
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(menuButton).toBeFocused();

    // Choosing a section goes there and closes the menu.
    await menuButton.click();
    await nav.getByRole('link', { name: 'Jobs' }).click();
    await expect(page).toHaveURL(/\/jobs/);
    await expect(nav).toBeHidden();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'false');

    // The Run bar sticks to the bottom of the screen on a long form.
    await page.goto('/playground?tool=speech&model=local-flite');
    await expect(page.getByRole('textbox', { name: /^Text/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeInViewport();
    await expect(page.getByTestId('run-bar')).toContainText('Balance');
    // The tool tabs scroll sideways: the cut edge fades (a sign of more), and the chosen tool is brought in.
    const tools = page.getByRole('navigation', { name: 'Tools' });
    const mask = () =>
      tools.evaluate((nav) => getComputedStyle(nav).maskImage || getComputedStyle(nav).webkitMaskImage);
    await expect.poll(mask).toContain('linear-gradient');
    await page.goto('/playground?tool=pipeline');
    await expect(tools.getByRole('link', { name: /^Pipeline/ })).toBeInViewport();
    await expect.poll(mask).toBe('none');
    // No part of the page is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
