import { expect, type Page, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/** Every policy violation and every request that leaves this server, gathered while the page is used. */
async function watch(page: Page, origin: string) {
  const violations: string[] = [];
  const elsewhere: string[] = [];
  await page.exposeFunction('reportViolation', (line: string) => violations.push(line));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportViolation: (line: string) => void }).reportViolation;
      report(`${location.pathname}: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
  });
  return { violations, elsewhere };
}

test('the API reference is linked from the header and the playground, drawn from /v2/openapi.json, offline and under the policy', async ({
  page,
  baseURL,
}) => {
  // The renderer reads the whole document (about 250 KB) before it draws: seconds on a busy machine.
  test.setTimeout(180_000);
  const seen = await watch(page, baseURL!);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);

  // From the playground, beside the copy buttons.
  const copyGroup = page.getByRole('group', { name: 'Copy the request' });
  await expect(copyGroup.getByRole('link', { name: 'API reference' })).toHaveAttribute(
    'href',
    '/api-reference',
  );

  // From the header, on every page.
  await page.getByRole('banner').getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page).toHaveTitle('API reference · Media Console');
  const response = await page.request.get('/api-reference');
  const policy = response.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval)/);

  // The reference names the routes of this server's document, with their summaries.
  const document = (await (await page.request.get('/v2/openapi.json')).json()) as {
    info: { title: string };
    paths: Record<string, Record<string, { summary?: string }>>;
  };
  // Drawn: the page's own "Loading…" note is gone.
  await expect(page.getByText('Loading the API reference')).toHaveCount(0, { timeout: 90_000 });
  const main = page.getByRole('main');
  await expect(main).toContainText(document.info.title);
  // An operation has an address of its own: its summary, route and headers.
  const summary = document.paths['/v2/image']?.post?.summary;
  expect(summary).toBeTruthy();
  await page.goto('/api-reference#post-/v2/image');
  await expect(main).toContainText(summary!, { timeout: 90_000 });
  await expect(main).toContainText('/v2/image');
  await expect(main).toContainText('Idempotency-Key');
  // Back to the console from the reference.
  await expect(page.getByRole('link', { name: '← Back to the console' })).toHaveAttribute(
    'href',
    '/playground',
  );

  expect(seen.violations).toEqual([]);
  expect(seen.elsewhere).toEqual([]);
});
