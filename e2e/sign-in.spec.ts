import { expect, test } from '@playwright/test';
import { accountMenu, freshEmail, latestCode, requestCode, signInThroughUi } from './support/sign-in.ts';

test('signs in with an emailed code, stays signed in across reloads, and signs out', async ({ page }) => {
  const email = freshEmail();
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in$/);

  await signInThroughUi(page, email);

  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Playground', level: 1 })).toBeVisible();
  // The Sign in button left with the sign-in page: the console's main region has focus, not the body.
  await expect(page.locator('main#main')).toBeFocused();
  await expect(accountMenu(page)).toContainText(email);
  await accountMenu(page).click();
  await expect(page.getByText('1,000 credits ($10.00)')).toBeVisible();

  await page.reload();
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  await expect(accountMenu(page)).toContainText(email);
  await expect(accountMenu(page)).toContainText('1,000 credits');
  // Signed in, the sign-in page sends the person back into the console.
  await page.goto('/sign-in');
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);

  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token,
  );
  await accountMenu(page).click();
  await page.getByRole('button', { name: 'Sign out' }).click();

  await expect(page).toHaveURL(/\/sign-in$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Media Console' })).toBeVisible();
  // The session was revoked on the server, not only forgotten here.
  const me = await page.request.get('/v2/me', { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(401);
  await page.goto('/playground');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fplayground$/);
});

test('a signed-out visit to /settings signs in first, then lands on /settings', async ({ page }) => {
  const email = freshEmail();
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fsettings$/);

  // This time, take the code from the console's own dev mailbox panel.
  await requestCode(page, email);
  await latestCode(page.request, email); // the mail is there
  await page.getByRole('button', { name: 'Open dev mailbox' }).click();
  await page.getByRole('button', { name: 'Sign in with this code' }).first().click();

  await expect(page).toHaveURL(/\/settings\?team=[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});

test('a wrong code shows why, and the right one still works', async ({ page }) => {
  const email = freshEmail();
  await page.goto('/sign-in');
  await requestCode(page, email);
  const code = await latestCode(page.request, email);
  const wrong = code.slice(0, 5) + String((Number(code[5]) + 1) % 10);

  await page.getByLabel('Verification code').fill(wrong);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText(/code/i);
  await expect(page.getByLabel('Verification code')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/sign-in$/);

  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
});

test('a session revoked elsewhere sends the person to sign in, then back', async ({ page }) => {
  const email = freshEmail();
  await page.goto('/sign-in');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  await page.getByRole('link', { name: 'Jobs' }).click();
  await expect(page).toHaveURL(/\/jobs\?team=[0-9a-f-]{36}$/);

  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('media-console:session') ?? 'null')?.token,
  );
  const revoked = await page.request.post('/api/auth/sign-out', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(revoked.ok()).toBe(true);

  await page.reload();
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fjobs%3Fteam%3D[0-9a-f-]{36}&reason=expired$/);
  await expect(page.getByText('Your session has ended.')).toBeVisible();

  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/jobs\?team=[0-9a-f-]{36}$/);
});

test('signing out in one tab signs out the other tabs', async ({ context }) => {
  const first = await context.newPage();
  await first.goto('/sign-in');
  await signInThroughUi(first, freshEmail());
  await expect(first).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);

  const second = await context.newPage();
  await second.goto('/keys');
  await expect(second.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();

  await accountMenu(first).click();
  await first.getByRole('button', { name: 'Sign out' }).click();
  await expect(first).toHaveURL(/\/sign-in$/);
  await expect(second).toHaveURL(/\/sign-in\?redirect=%2Fkeys%3Fteam%3D[0-9a-f-]{36}$/);
});
