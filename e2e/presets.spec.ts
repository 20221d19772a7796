import { expect, type Page, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/** The person's image jobs with their input, read from the API with the console's own session. */
async function imageJobs(
  page: Page,
): Promise<Array<{ id: string; status: string; input: Record<string, unknown> }>> {
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  const response = await page.request.get('/v2/jobs?tool=image&limit=100', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()).data;
}

test('picks an image style preset, runs it from the playground, and keeps the run as a team preset', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Presets' }).first().click();
  await expect(page.getByRole('heading', { name: 'Presets', level: 1 })).toBeVisible();
  await page.getByRole('combobox', { name: 'Type' }).selectOption('style');
  await expect(page).toHaveURL(/preset_type=style/);
  // A metadata value on a card filters by it, and the filter is in the URL too.
  const presets = page.getByRole('list', { name: 'Presets' });
  await presets
    .getByRole('article', { name: 'Ink sketch' })
    .getByRole('button', { name: 'medium: ink' })
    .click();
  await expect(page).toHaveURL(/metadata=/);
  await expect(presets.getByRole('article')).toHaveCount(1);
  const card = presets.getByRole('article', { name: 'Ink sketch' });
  // Its sample picture is drawn and shown in place.
  const sample = card.getByRole('img', { name: 'Sample of Ink sketch' });
  await expect.poll(() => sample.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const presetId = await card.getAttribute('data-preset-id');

  await card.getByRole('link', { name: 'Use Ink sketch in playground' }).click();
  await expect(page).toHaveURL(/\/playground\?.*preset=/);
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a sailboat on the sea at dawn');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });

  // The style is in what the job was asked to do.
  const [job] = await imageJobs(page);
  expect(job!.input).toMatchObject({
    model: 'local-sketch',
    prompt: 'a sailboat on the sea at dawn',
    provider_options: { local: { style: presetId } },
  });

  // Kept as the team's own preset, then renamed and deleted on the Presets page.
  await result.getByRole('button', { name: 'Save as preset' }).click();
  const save = page.getByRole('dialog', { name: 'Save as preset' });
  await save.getByRole('textbox', { name: 'Preset name' }).fill('Harbour in ink');
  await save.getByRole('button', { name: 'Save preset' }).click();
  await expect(save).toHaveCount(0);

  // The job drawer saves one too.
  await page.goto(`/jobs/${job!.id}`);
  await page.getByRole('button', { name: 'Save as preset' }).click();
  const fromDrawer = page.getByRole('dialog', { name: 'Save as preset' });
  await fromDrawer.getByRole('textbox', { name: 'Preset name' }).fill('Drawer harbour');
  await fromDrawer.getByRole('button', { name: 'Save preset' }).click();
  await expect(fromDrawer).toHaveCount(0);

  await page.goto('/presets?namespace=team');
  await expect(page.getByRole('article', { name: 'Drawer harbour' })).toBeVisible();
  const mine = page.getByRole('article', { name: 'Harbour in ink' });
  await expect(mine).toBeVisible();
  await mine.getByRole('button', { name: 'Rename Harbour in ink' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename Harbour in ink' });
  await rename.getByRole('textbox', { name: 'Name' }).fill('Dawn harbour');
  await rename.getByRole('button', { name: 'Rename' }).click();
  const renamed = page.getByRole('article', { name: 'Dawn harbour' });
  await expect(renamed).toBeVisible();
  await renamed.getByRole('button', { name: 'Delete Dawn harbour' }).click();
  await page
    .getByRole('dialog', { name: 'Delete Dawn harbour?' })
    .getByRole('button', { name: 'Delete preset' })
    .click();
  await expect(page.getByRole('article', { name: 'Dawn harbour' })).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Presets' }).getByRole('article')).toHaveCount(1);
});
