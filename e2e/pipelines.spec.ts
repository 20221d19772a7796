import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test('builds a two-step pipeline in the form, wires the first output into the second, and watches its graph complete', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pipelines' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pipelines' })).toBeVisible();

  // Step 1: a sketch.
  const first = page.getByRole('group', { name: 'Step 1' });
  await first.getByLabel('Name').fill('sketch');
  await first.getByLabel('Tool').selectOption('image');
  await first.getByLabel('Model').selectOption('local-sketch');
  await first.getByRole('textbox', { name: 'Prompt' }).fill('a lighthouse at dusk');

  // Step 2: an upscale of the sketch, its input picked from step 1's output.
  await page.getByRole('button', { name: 'Add a step' }).click();
  const second = page.getByRole('group', { name: 'Step 2' });
  await second.getByLabel('Name').fill('bigger');
  await second.getByLabel('Tool').selectOption('image');
  await second.getByLabel('Model').selectOption('local-upscale');
  await second.getByLabel('Add the output of').selectOption('sketch');
  await expect(second.getByRole('textbox', { name: 'File 1' })).toHaveValue('{{steps.sketch.output.url}}');

  // Its estimate before it runs: the sum of its steps', each named.
  await expect(page.getByText(/^Sum of the steps: sketch \d+ \+ bigger \d+$/)).toBeVisible();
  await expect(page.getByTestId('cost-estimate')).toHaveText(/^[1-9]\d* credits? \(\$/);

  await page.getByRole('button', { name: 'Run pipeline' }).click();
  await expect(page).toHaveURL(/\/pipelines\?.*job=job_/);

  // The graph: both steps drawn, the upscale after the sketch, each live until done.
  const steps = page.getByRole('list', { name: 'Steps of this run' });
  await expect(steps.getByRole('article', { name: 'Step sketch' })).toBeVisible();
  await expect(steps.getByRole('article', { name: 'Step bigger' })).toBeVisible();
  await expect(page.getByTestId('pipeline-run')).toHaveAttribute('data-status', 'completed', {
    timeout: 60_000,
  });
  for (const id of ['sketch', 'bigger']) {
    const node = steps.locator(`[data-step="${id}"]`);
    await expect(node).toHaveAttribute('data-status', 'completed');
    await expect(node.getByRole('img', { name: `Output of ${id}` })).toBeVisible();
    await expect(node.getByText(/^Charged \d+ credits?$/)).toBeVisible();
  }
  const sketchBox = await steps.locator('[data-step="sketch"]').boundingBox();
  const biggerBox = await steps.locator('[data-step="bigger"]').boundingBox();
  expect(biggerBox!.x).toBeGreaterThan(sketchBox!.x + sketchBox!.width);
  await expect(page.getByTestId('pipeline-run')).toContainText(/Cost \d+ credits?/);

  // Re-run with changes: the builder starts from the finished run's steps.
  await page.getByRole('button', { name: 'Re-run with changes' }).first().click();
  await expect(page.getByRole('heading', { name: 'Re-run with changes' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Step 1' }).getByLabel('Name')).toHaveValue('sketch');
  await expect(
    page.getByRole('group', { name: 'Step 1' }).getByRole('textbox', { name: 'Prompt' }),
  ).toHaveValue('a lighthouse at dusk');
});

test('a failed run draws every step whole inside its graph, its error inside its card', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  // Three columns deep, with a step that fails on an input of ours that names no file (a long URL).
  const missing = new URL('/media/file_nosuchfile00/a-file-that-is-not-there.png', page.url()).href;
  const response = await page.request.post('/v2/pipeline', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      steps: [
        { id: 'sketch', tool: 'image', input: { model: 'local-sketch', prompt: 'a lighthouse' } },
        {
          id: 'broken',
          tool: 'image',
          needs: ['sketch'],
          input: { model: 'local-upscale', files: [{ url: missing }] },
        },
        {
          id: 'after',
          tool: 'image',
          input: { model: 'local-upscale', files: [{ url: '{{steps.broken.output.url}}' }] },
        },
      ],
    },
  });
  expect(response.ok()).toBe(true);
  const run = await response.json();
  await page.goto(`/pipelines?job=${run.id}`);
  await expect(page.getByTestId('pipeline-run')).toHaveAttribute('data-status', 'failed', {
    timeout: 60_000,
  });
  const steps = page.getByRole('list', { name: 'Steps of this run' });
  await expect(steps.locator('[data-step="after"]')).toHaveAttribute('data-status', 'skipped');
  // The frame that scrolls: the list sits in the drawing, the drawing in the frame.
  const frame = (await steps.locator('xpath=../..').boundingBox())!;
  for (const id of ['sketch', 'broken', 'after']) {
    const box = (await steps.locator(`[data-step="${id}"]`).boundingBox())!;
    expect.soft(box.x + box.width, `right of ${id}`).toBeLessThanOrEqual(frame.x + frame.width + 0.5);
    expect.soft(box.y + box.height, `bottom of ${id}`).toBeLessThanOrEqual(frame.y + frame.height + 0.5);
  }
  // The error wraps inside its card rather than running out of it.
  const error = steps.locator('[data-step="broken"]').getByText(/There is no file at/);
  expect(await error.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
});
