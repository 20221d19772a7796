import { expect, type Page, test } from '@playwright/test';
import { runJobThroughApi } from './support/api-jobs.ts';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/**
 * The console runs whole under its Content-Security-Policy (scripts and workers from 'self', no inline
 * script, no eval): no page, preview, player, chart or upload worker trips it. A blocked resource only
 * shows as a console error, so every violation the browser reports is gathered and must be none.
 */
async function watchViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.exposeFunction('reportViolation', (line: string) => found.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportViolation: (line: string) => void }).reportViolation;
      report(`${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return found;
}

async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
}

test('every page works under the Content-Security-Policy, with no violation reported', async ({ page }) => {
  test.setTimeout(120_000);
  const violations = await watchViolations(page);
  const response = await page.goto('/sign-in');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  // The saved theme is applied by the boot script before the console's own code runs.
  await page.evaluate(() => localStorage.setItem('media-console:theme', JSON.stringify('dark')));
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);

  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  const image = await runJobThroughApi(page, 'image', {
    model: 'local-sketch',
    prompt: 'a yellow kite over the sea',
  });
  const speech = await runJobThroughApi(page, 'speech', { model: 'local-flite', text: 'Under policy.' });
  const fileId = image.output?.outputs[0]?.file_id;
  expect(fileId).toBeTruthy();

  // An upload hashes the file in the sha256 worker (a blocked worker would fall back silently).
  await visit(page, '/files', 'Files');
  const worker = page.waitForEvent('worker');
  await page
    .locator('input[type=file]')
    .first()
    .setInputFiles({
      name: 'dot.png',
      mimeType: 'image/png',
      buffer: Buffer.from(
        '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
          '1f15c4890000000d49444154789c6360f8cfc0000003010100c9fe92ef0000000049454e44ae426082',
        'hex',
      ),
    });
  await worker;
  await expect(page.getByText('dot.png').first()).toBeVisible();

  for (const [path, heading] of [
    [`/playground?tool=image&job=${image.id}`, 'Playground'],
    [`/playground?tool=speech&job=${speech.id}`, 'Playground'],
    ['/jobs', 'Jobs'],
    [`/jobs/${image.id}`, 'Jobs'],
    [`/files/${fileId}`, /\.(png|webp|jpe?g)$/],
    ['/keys', /Keys/],
    ['/team', /Team/],
    ['/analytics', 'Analytics'],
    ['/billing', 'Billing'],
    ['/settings', 'Settings'],
  ] as const) {
    await visit(page, path, heading);
  }
  expect(violations).toEqual([]);
});
