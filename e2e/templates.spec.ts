import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

test('renders a starter template with its own text and sees the result; publishes one of its own', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/sign-in');
  await signInThroughUi(page, freshEmail());
  await expect(page).toHaveURL(/\/playground/);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Templates' })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();

  // A tag narrows the gallery, and it is in the URL.
  await page.getByRole('list', { name: 'Tags' }).getByRole('button', { name: 'title', exact: true }).click();
  await expect(page).toHaveURL(/tag=title/);
  const gallery = page.getByRole('list', { name: 'Templates' });
  const card = gallery.getByRole('article', { name: 'Title card' });
  await expect(card).toBeVisible();
  await expect(gallery.getByRole('article', { name: 'Square social post' })).toHaveCount(0);
  // Its sample picture is drawn.
  const sample = card.getByRole('img', { name: 'Sample of Title card' });
  await expect.poll(() => sample.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Text search finds by name.
  await page.getByRole('list', { name: 'Tags' }).getByRole('button', { name: 'All' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill('square');
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(/q=square/);
  await expect(gallery.getByRole('article')).toHaveCount(1);
  await expect(gallery.getByRole('article', { name: 'Square social post' })).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill('title card');
  await page.getByRole('searchbox', { name: 'Search' }).press('Enter');
  await gallery.getByRole('link', { name: 'Title card' }).click();
  await expect(page.getByRole('heading', { name: 'Title card', level: 1 })).toBeVisible();

  // Render it with one's own text: the result is followed live, like a playground run.
  const form = page.getByRole('form', { name: 'Render Title card' });
  await form.getByRole('button', { name: 'Render' }).click();
  await expect(form.getByText(/required/i).first()).toBeVisible();
  await form.getByRole('textbox', { name: 'Title', exact: true }).fill('Harbour lights');
  await form.getByRole('button', { name: 'Render' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByText('Completed', { exact: true })).toBeVisible({ timeout: 60_000 });
  const picture = result.getByRole('img').first();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1280);

  // The job was asked for the text typed in.
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token as string | undefined,
  );
  const jobs = await page.request.get('/v2/jobs?tool=render&limit=5', {
    headers: { authorization: `Bearer ${token}` },
  });
  const [job] = (await jobs.json()).data as Array<{ input: { layers: Array<{ text?: string }> } }>;
  expect(job?.input.layers[0]?.text).toBe('Harbour lights');

  // "Use" counts a use without rendering.
  await page.getByRole('button', { name: 'Use', exact: true }).click();
  await expect(page.getByText(/Counted: Title card now has/)).toBeVisible();

  // Publishing one's own: it opens on its page, pending approval, and the team's list shows it.
  await page.getByRole('link', { name: 'All templates' }).click();
  await page.getByRole('button', { name: 'Publish a template' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish a template' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Launch square');
  await dialog.getByRole('textbox', { name: 'Tags', exact: true }).fill('launch, social');
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('heading', { name: 'Launch square', level: 1 })).toBeVisible();
  await expect(page.getByText(/Pending approval/)).toBeVisible();
  await expect(
    page.getByRole('form', { name: 'Render Launch square' }).getByRole('textbox', { name: 'Headline' }),
  ).toBeVisible();
});
