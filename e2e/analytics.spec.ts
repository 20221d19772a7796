import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { DEMO_EMAIL, DEMO_TEAM_SLUG } from '../src/server/domain/analytics/demo-seed.ts';
import { seedDemoTeam } from './support/demo-data.ts';
import { signInThroughUi } from './support/sign-in.ts';

/*
 * Analytics on the demo history (the seed `npm run seed:demo` writes, smaller), in the real server's
 * database: the demo owner signs in through the UI, opens Analytics, changes the range, the timezone and
 * a filter and sees the figures and charts follow, exports CSVs whose totals are the spend card's, and
 * opens the job feed from a breakdown row.
 */

/** "1,234 credits" in a figure card → 1234. */
async function cardCredits(page: Page, name: string): Promise<number> {
  const text = (await page.getByRole('article', { name, exact: true }).textContent()) ?? '';
  const match = /(-?[\d,]+) credits?/.exec(text);
  if (!match?.[1]) throw new Error(`no amount in the ${name} card: ${text}`);
  return Number(match[1].replaceAll(',', ''));
}

/** Clicks an Export CSV button and answers the downloaded file's rows (no cell of ours holds a comma). */
async function exportCsv(page: Page, label: string): Promise<string[][]> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Export CSV of ${label}` }).click(),
  ]);
  const text = await readFile(await download.path(), 'utf8');
  return text
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
}

const spendTable = (page: Page) => page.getByRole('region', { name: 'Spend over time' }).getByRole('table');
const breakdownRegion = (page: Page) => page.getByRole('region', { name: /^Spend by / });

/** The table alternative of the spend chart, as text, once no new view is loading. */
async function spendRows(page: Page): Promise<string[]> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  return spendTable(page).getByRole('row').allTextContents();
}

test('the demo history on the analytics page: range, timezone and a filter change the charts; CSV totals equal the card', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `e2e-demo-${randomUUID().slice(0, 8)}@example.com`;
  const seeded = await seedDemoTeam(email, `e2e-demo-${randomUUID().slice(0, 8)}`, 4000);
  expect(seeded.charges).toBeGreaterThan(3500);

  await page.goto('/sign-in');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
  // The browser's timezone goes into the URL; the last 30 days by default, compared with the 30 before.
  await expect(page).toHaveURL(/\/analytics\?.*tz=/);
  await expect.poll(() => cardCredits(page, 'Spend')).toBeGreaterThan(0);
  await expect(page.getByRole('article', { name: 'Spend', exact: true })).toContainText(
    /vs .* credits? in \w{3} \d+/,
  );
  await expect(
    page.getByRole('region', { name: 'What changed' }).getByRole('listitem').first(),
  ).toContainText(/of the movement/);
  // The charts draw their bars: recharts comes in several chunks (vite.config.ts), run in its order.
  for (const chart of ['Spend over time', /^Spend by /]) {
    await expect(
      page.getByRole('region', { name: chart }).locator('.recharts-bar-rectangle path').first(),
    ).toBeVisible();
  }

  // Timezone first (UTC), so the bucket counts below do not depend on the machine's.
  await page.getByLabel('Timezone').selectOption('UTC');
  await expect(page).toHaveURL(/tz=UTC/);
  await page.getByRole('button', { name: 'Show spend over time as table' }).click();
  await expect(spendTable(page).getByRole('row')).toHaveCount(31); // 30 days + the header
  const thirtyDays = await cardCredits(page, 'Spend');
  const utcDays = await spendRows(page);

  // Range: 12 months is month buckets, and more spend than 30 days.
  await page.getByLabel('Range').selectOption('12m');
  await expect(page).toHaveURL(/range=12m/);
  await expect(spendTable(page).getByRole('row')).toHaveCount(13); // 12 months + the header
  await expect.poll(() => cardCredits(page, 'Spend')).toBeGreaterThan(thirtyDays);

  // Back to 30 days in Kiritimati (UTC+14): the same days hold other charges.
  await page.getByLabel('Range').selectOption('30d');
  await page.getByLabel('Timezone').selectOption('Pacific/Kiritimati');
  await expect(page).toHaveURL(/tz=Pacific%2FKiritimati/);
  await expect(page.getByText(/days\) in Pacific\/Kiritimati/)).toBeVisible();
  await expect(spendTable(page).getByRole('row')).toHaveCount(31);
  await expect.poll(() => spendRows(page)).not.toEqual(utcDays);

  // A filter: one tool. The card becomes that tool's row of the breakdown, and the chip and URL say so.
  const imageRow = breakdownRegion(page).getByRole('row', { name: /^Image / });
  const imageSpend = Number(
    ((await imageRow.getByRole('cell').first().textContent()) ?? '').replace(/[^\d]/g, ''),
  );
  expect(imageSpend).toBeGreaterThan(0);
  await page.getByLabel('Filter by', { exact: true }).selectOption('capability');
  await page.getByLabel('Value', { exact: true }).selectOption('image');
  await page.getByRole('button', { name: 'Add filter' }).click();
  await expect(page).toHaveURL(/capability=image/);
  await expect(page.getByRole('button', { name: 'Remove filter Tool: Image' })).toBeVisible();
  await expect.poll(() => cardCredits(page, 'Spend')).toBe(imageSpend);

  // CSV of what is on screen: each total is the card's.
  const card = await cardCredits(page, 'Spend');
  const breakdown = await exportCsv(page, 'breakdown');
  expect(breakdown[0]?.[2]).toBe('spend_credits');
  expect(breakdown.at(-1)?.[0]).toBe('total');
  expect(Number(breakdown.at(-1)?.[2])).toBe(card);
  // Each panel loads on its own: under load the series can still show the unfiltered spend (as it says
  // while it loads) when the card has changed, so wait for it rather than export the earlier answer.
  await expect.poll(async () => Number((await exportCsv(page, 'spend over time')).at(-1)?.at(-1))).toBe(card);
  await expect
    .poll(async () => (await exportCsv(page, 'summary')).find((row) => row[0] === 'spend_credits')?.[1])
    .toBe(String(card));

  // A shared link shows the same view.
  await page.goto(page.url());
  await expect(page.getByRole('button', { name: 'Remove filter Tool: Image' })).toBeVisible();
  await expect.poll(() => cardCredits(page, 'Spend')).toBe(card);

  // A breakdown row opens the job feed with the same tool and days.
  await breakdownRegion(page).getByRole('link', { name: 'Image' }).click();
  await expect(page).toHaveURL(/\/jobs\?.*tool=image/);
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}.*to=\d{4}-\d{2}-\d{2}/);
});

/** "2026-07-01": a calendar day in UTC. */
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Last quarter and the quarter before it, in UTC at the test's time: first and last days. */
function lastTwoQuarters(now = new Date()) {
  const year = now.getUTCFullYear();
  const quarterStart = (back: number) => Date.UTC(year, Math.floor(now.getUTCMonth() / 3) * 3 - 3 * back, 1);
  const period = (back: number) => ({
    first: isoDay(quarterStart(back)),
    last: isoDay(quarterStart(back - 1) - 1),
  });
  return { current: period(1), previous: period(2) };
}

/** "Apr 1 – Jun 30, 2026", as the page writes inclusive days. */
function shownDays(first: string, last: string): string {
  const day = (iso: string, options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-US', { ...options, timeZone: 'UTC' }).format(new Date(`${iso}T00:00:00Z`));
  const end = day(last, { dateStyle: 'medium' });
  return first.slice(0, 4) === last.slice(0, 4)
    ? `${day(first, { month: 'short', day: 'numeric' })} – ${end}`
    : `${day(first, { dateStyle: 'medium' })} – ${end}`;
}

test('last quarter against the quarter before: both periods named on the cards, in the CSV and its file name; What changed in one dimension', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `e2e-quarter-${randomUUID().slice(0, 8)}@example.com`;
  await seedDemoTeam(email, `e2e-quarter-${randomUUID().slice(0, 8)}`, 4000);
  await page.goto('/sign-in');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);

  const analytics: URL[] = [];
  // Only the analytics page's own requests: the playground just left may still be asking for its
  // model figures (GET /v2/analytics/performance) on a loaded machine.
  page.on('request', (request) => {
    if (request.url().includes('/v2/analytics/') && new URL(request.frame().url()).pathname === '/analytics')
      analytics.push(new URL(request.url()));
  });
  await page.goto('/analytics?range=last_quarter&tz=UTC');
  const { current, previous } = lastTwoQuarters();
  const currentDays = shownDays(current.first, current.last);
  const previousDays = shownDays(previous.first, previous.last);

  // The quarter before, not the same number of days before (which starts a day early).
  await expect(page.getByText(`${currentDays} compared with ${previousDays}`)).toBeVisible();
  const spendCard = page.getByRole('article', { name: 'Spend', exact: true });
  await expect(spendCard).toContainText(`in ${previousDays}`);
  await expect(spendCard).toContainText(/credits \(\$[\d,]+\.\d\d\)/);
  const card = await cardCredits(page, 'Spend');
  expect(card).toBeGreaterThan(0);

  // What changed: one dimension, shares of all movement that add up to 100%.
  const changed = page.getByRole('region', { name: 'What changed' });
  await expect(changed.getByRole('listitem').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Top people' }).getByRole('table')).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Spend over time' }).locator('.recharts-bar-rectangle path').first(),
  ).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  // The whole page: the summary, the breakdown, one long breakdown shared by What changed and the
  // filter's choices, one grouped series for the stacked chart (it took 1 + up to 7 before), top keys and
  // people.
  const series = analytics.filter((url) => url.pathname.endsWith('/timeseries'));
  expect(new Set(series.map(String)).size).toBe(1);
  expect(series[0]!.searchParams.get('group_by')).toBe('capability');
  const asked = [...new Set(analytics.map((url) => `${url.pathname}${url.search}`))];
  expect(asked.length, asked.join('\n')).toBeLessThanOrEqual(6);
  const shares = (await changed.getByRole('listitem').allTextContents()).map((text) =>
    Number(/([\d.]+)% of the movement/.exec(text)?.[1]),
  );
  for (const share of shares) expect(share).toBeLessThanOrEqual(100);
  expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 0);

  // The summary CSV says the periods in its name and on its rows, and its spend is the card's.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV of summary' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(
    `analytics-${current.first}-to-${current.last}-vs-${previous.first}-to-${previous.last}-UTC-summary.csv`,
  );
  const summary = (await readFile(await download.path(), 'utf8'))
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
  const spendRow = summary.find((row) => row[0] === 'spend_credits') ?? [];
  expect(spendRow[1]).toBe(String(card));
  expect(spendRow.slice(-2)).toEqual([
    `${current.first} to ${current.last}`,
    `${previous.first} to ${previous.last}`,
  ]);
  // What changed's movements add up to the card's change.
  const whatChanged = await exportCsv(page, 'what changed');
  const netChange = whatChanged.slice(1).reduce((sum, row) => sum + Number(row[5]), 0);
  expect(netChange).toBe(Number(spendRow[3]));

  // Every request asked for the comparison with the current range: none asked for the earlier quarter
  // alone, and each long breakdown (What changed's among them) was asked for once per dimension.
  expect(analytics.filter((url) => url.searchParams.get('from') === previous.first)).toEqual([]);
  const long = analytics
    .filter((url) => url.pathname.endsWith('/breakdown') && url.searchParams.get('limit') === '100')
    .map((url) => url.searchParams);
  for (const params of long) expect(params.get('compare_from')).toBe(previous.first);
  const dimensions = long.map((params) => params.get('dimension'));
  expect(dimensions).toContain('capability');
  expect(new Set(dimensions).size).toBe(dimensions.length);

  // Filtered to one tool, What changed ranks by another dimension: the tool's own row would be 100%.
  await page.goto(`/analytics?range=last_quarter&tz=UTC&capability=image`);
  const changesBy = changed.getByLabel('Changes by');
  await expect(changesBy).toHaveValue('model');
  await expect(changesBy.getByRole('option', { name: 'Tool' })).toHaveCount(0);
});

test('the compared view on the demo history has no serious accessibility violation in light or dark, and fits a phone', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = `e2e-a11y-${randomUUID().slice(0, 8)}@example.com`;
  await seedDemoTeam(email, `e2e-a11y-${randomUUID().slice(0, 8)}`, 2000);
  await page.goto('/sign-in');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  // Every part a comparison adds: custom days compared, the change column, What changed.
  await page.goto('/analytics?range=last_month&tz=UTC&compare=custom&cfrom=2026-01-01&cto=2026-01-31');
  await expect(page.getByRole('form', { name: 'Days compared' })).toBeVisible();
  const found: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(
      page.getByRole('region', { name: 'What changed' }).getByRole('listitem').first(),
    ).toBeVisible();
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    const results = await new AxeBuilder({ page })
      .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
      .analyze();
    for (const violation of results.violations) {
      if (violation.impact === 'serious' || violation.impact === 'critical') {
        found.push(
          `${scheme}: ${violation.id}: ${violation.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
        );
      }
    }
  }
  expect(found).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    )
    .toBeLessThanOrEqual(0);
});

test('"Explore the demo data" on the sign-in page signs in as the demo owner and lands on its analytics', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Before `npm run seed:demo`, the sign-in page offers no demo, and asking is not an error (a failed
  // request in the browser's console on every visit to the sign-in page).
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  const probe = page.waitForResponse((response) => response.url().endsWith('/api/dev/demo'));
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Email me a code' })).toBeVisible();
  expect(await (await probe).json()).toEqual({ email: null });
  await expect(page.getByRole('button', { name: 'Explore the demo data' })).toHaveCount(0);
  expect(failed).toEqual([]);

  await seedDemoTeam(DEMO_EMAIL, DEMO_TEAM_SLUG, 4000);
  await page.reload();
  await page.getByRole('button', { name: 'Explore the demo data' }).click();
  await expect(page).toHaveURL(/\/analytics/);
  await expect.poll(() => cardCredits(page, 'Spend')).toBeGreaterThan(0);
  // Signed in as the demo owner, acting for the demo team (their only team: it existed before them).
  await page.getByRole('button', { name: `Account menu ${DEMO_EMAIL}` }).click();
  await expect(page.getByRole('definition').filter({ hasText: 'Demo Studio' })).toBeVisible();
});
