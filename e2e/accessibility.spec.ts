import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { runJobThroughApi } from './support/api-jobs.ts';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/**
 * Every page of the console, in light and in dark mode, has no serious or critical axe violation.
 * label-content-name-mismatch is one of axe's experimental rules: enabled here, since people who steer
 * by voice say the words they see on a control.
 */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${where}: ${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 3)
          .map((node) => `${node.target.join(' ')} ${node.failureSummary ?? ''}`)
          .join(' | ')}`,
    );
}

/**
 * Whether the page scrolls sideways: only a wide table or graph may, inside its own frame. Text for screen
 * readers (`sr-only`, positioned absolutely) in a frame that is not positioned escapes the frame: it widened
 * Keys and Team on a phone to 710 and 642 px.
 */
async function sidewaysOverflow(page: Page, where: string): Promise<string[]> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  return scrollWidth > clientWidth ? [`${where}: ${scrollWidth} px wide in a ${clientWidth} px window`] : [];
}

/** Opens a page and waits for its heading and for its data (no "Loading…" left). */
async function visit(page: Page, path: string, heading: string | RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
}

/** Signs a new person in and runs an image, a speech and a pipeline job, so every page has something. */
async function setUp(page: Page, scheme: 'light' | 'dark') {
  await page.emulateMedia({ colorScheme: scheme });
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  const image = await runJobThroughApi(page, 'image', { model: 'local-sketch', prompt: 'a red kite' });
  await runJobThroughApi(page, 'speech', { model: 'local-flite', text: 'Hello there.' });
  const pipeline = await runJobThroughApi(page, 'pipeline', {
    steps: [{ id: 'kite', tool: 'image', input: { model: 'local-sketch', prompt: 'a kite' } }],
  });
  const fileId = image.output?.outputs[0]?.file_id;
  expect(fileId).toBeTruthy();
  return { image, pipeline, fileId };
}

type Ids = Awaited<ReturnType<typeof setUp>>;

/** Visits each page and gathers its violations, so one run names them all. */
async function checkPages(
  page: Page,
  scheme: string,
  pages: Array<{ path: string; heading: string | RegExp }>,
): Promise<string[]> {
  const found: string[] = [];
  for (const { path, heading } of pages) {
    await visit(page, path, heading);
    found.push(...(await seriousViolations(page, `${path} (${scheme})`)));
  }
  return found;
}

// Two tests per colour scheme, run side by side: one test per scheme took close to three minutes on a
// loaded machine.
test.describe.configure({ mode: 'parallel' });

for (const scheme of ['light', 'dark'] as const) {
  test(`the sign-in page and the working pages have no serious or critical accessibility violation, in ${scheme} mode`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    await visit(page, '/sign-in', /Sign in/);
    const found = await seriousViolations(page, `sign-in (${scheme})`);
    const { image, fileId }: Ids = await setUp(page, scheme);
    found.push(
      ...(await checkPages(page, scheme, [
        { path: `/playground?tool=image&job=${image.id}`, heading: 'Playground' },
        { path: '/playground?tool=speech', heading: 'Playground' },
        { path: '/jobs', heading: 'Jobs' },
        { path: `/jobs/${image.id}`, heading: 'Jobs' },
        { path: '/files', heading: 'Files' },
        { path: `/files/${fileId}`, heading: /\.(png|webp|jpe?g)$/ },
      ])),
    );

    // Open parts of the playground: the voice list and the model picker.
    await visit(page, '/playground?tool=speech', 'Playground');
    await page.getByRole('button', { name: 'Browse voices' }).click();
    await expect(page.getByRole('list', { name: 'Voices' })).toBeVisible();
    found.push(...(await seriousViolations(page, `voice list (${scheme})`)));
    await page.getByRole('button', { name: /^Model: / }).click();
    await expect(page.getByRole('listbox', { name: 'Models' })).toBeVisible();
    found.push(...(await seriousViolations(page, `model picker (${scheme})`)));
    expect(found).toEqual([]);
  });

  test(`the other pages, and the menu on a phone, have no serious or critical accessibility violation, in ${scheme} mode; no page is wider than a phone`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { image, pipeline, fileId }: Ids = await setUp(page, scheme);
    const otherPages = [
      { path: '/keys', heading: /Keys/ },
      { path: `/pipelines?job=${pipeline.id}`, heading: 'Pipelines' },
      { path: '/presets?preset_type=style', heading: 'Presets' },
      { path: '/templates', heading: 'Templates' },
      { path: '/templates/tpl_starter_title_card', heading: 'Title card' },
      { path: '/team', heading: /Team/ },
      { path: '/analytics', heading: 'Analytics' },
      { path: '/analytics?tab=performance', heading: 'Analytics' },
      { path: '/billing', heading: 'Billing' },
      { path: '/budgets', heading: 'Budgets' },
      { path: '/settings', heading: 'Settings' },
      { path: '/no-such-page', heading: 'This page does not exist' },
    ];
    const found = await checkPages(page, scheme, otherPages);

    // On a phone: the menu (open) and the feed's cards.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const { path, heading } of [
      { path: '/jobs', heading: 'Jobs' },
      { path: '/playground?tool=speech', heading: 'Playground' },
    ]) {
      await visit(page, path, heading);
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      found.push(...(await seriousViolations(page, `${path} on a phone, menu open (${scheme})`)));
    }
    // Every page fits a phone's width (layout, so in one scheme).
    if (scheme === 'light') {
      const everyPage = [
        { path: `/playground?tool=image&job=${image.id}`, heading: 'Playground' },
        { path: '/jobs', heading: 'Jobs' },
        { path: `/jobs/${image.id}`, heading: 'Jobs' },
        { path: '/files', heading: 'Files' },
        { path: `/files/${fileId}`, heading: /\.(png|webp|jpe?g)$/ },
        ...otherPages,
      ];
      for (const { path, heading } of everyPage) {
        await visit(page, path, heading);
        found.push(...(await sidewaysOverflow(page, `${path} on a phone`)));
      }
    }
    expect(found).toEqual([]);
  });
}
