import { type Browser, expect, type Page, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/*
 * The Keys page against the real server, with two people in two browser contexts: a manager (the
 * owner of the personal team their first sign-in made) creates a revealable key, reveals it and shares
 * it with a colleague and with an address that has no account; the colleague reveals it too; the
 * manager reads the reveal log and revokes the key, which stops working at once.
 */

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/sign-in');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  return page;
}

async function openKeys(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Keys', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Keys', level: 1 })).toBeVisible();
}

const keyRow = (page: Page, name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) });

/** GET /v2/me with the key as Bearer: the status says whether the key works. */
async function meStatusWith(page: Page, key: string): Promise<number> {
  const response = await page.request.get('/v2/me', { headers: { authorization: `Bearer ${key}` } });
  return response.status();
}

test('a manager creates, reveals, shares and revokes a key; a colleague reveals it', async ({ browser }) => {
  test.setTimeout(120_000);
  const keyName = 'Shared CI key';
  const colleagueEmail = freshEmail();
  const unknownEmail = freshEmail();

  // The colleague signs in once, so they have an account to share with.
  const colleague = await signedInPage(browser, colleagueEmail);
  const manager = await signedInPage(browser, freshEmail());
  await openKeys(manager);

  // Create, by keyboard only: the dialog takes focus, and gives it back when it closes.
  const createButton = manager.getByRole('button', { name: 'Create key' }).first();
  await createButton.focus();
  await manager.keyboard.press('Enter');
  const createDialog = manager.getByRole('dialog', { name: 'Create an API key' });
  await expect(createDialog.getByLabel('Name')).toBeFocused();
  await manager.keyboard.type(keyName);
  await manager.keyboard.press('Tab');
  await expect(createDialog.getByRole('checkbox', { name: /revealable/ })).toBeFocused();
  await manager.keyboard.press('Space');
  await manager.keyboard.press('Shift+Tab');
  await manager.keyboard.press('Enter');

  const shownDialog = manager.getByRole('dialog', { name: `Your new key “${keyName}”` });
  const apiKey = await shownDialog.getByLabel('API key').inputValue();
  expect(apiKey).toMatch(/^mcsk_/);
  await expect(shownDialog.getByText('Copy it now')).toBeVisible();
  await expect(shownDialog.getByRole('button', { name: 'Done' })).toBeFocused();
  await manager.keyboard.press('Escape');
  await expect(shownDialog).toBeHidden();
  await expect(createButton).toBeFocused();
  expect(await meStatusWith(manager, apiKey)).toBe(200);

  const row = keyRow(manager, keyName);
  await expect(row.getByText('Revealable')).toBeVisible();
  await expect(row.getByText(new RegExp(`^mcsk_\\w*…${apiKey.slice(-4)}$`))).toBeVisible();

  // Reveal: the same key, with a countdown.
  await row.getByRole('button', { name: `Reveal ${keyName}` }).click();
  const revealDialog = manager.getByRole('dialog', { name: `Reveal “${keyName}”` });
  await revealDialog.getByRole('button', { name: 'Show key' }).click();
  await expect(revealDialog.getByLabel('API key')).toHaveValue(apiKey);
  await expect(revealDialog.getByText(/Hides in \d+ s/)).toBeVisible();
  await manager.keyboard.press('Escape');
  await expect(revealDialog).toBeHidden();

  // Share with the colleague and with an address that has no account.
  await row.getByRole('button', { name: `Share ${keyName}` }).click();
  const shareDialog = manager.getByRole('dialog', { name: `Share “${keyName}”` });
  await expect(shareDialog.getByText('Nobody yet.')).toBeVisible();
  await shareDialog.getByLabel('Email addresses').fill(`${colleagueEmail}, ${unknownEmail}`);
  await shareDialog.getByLabel('Email addresses').press('Enter');
  await shareDialog.getByRole('button', { name: 'Share', exact: true }).click();
  const notFound = shareDialog.getByRole('alert').filter({ hasText: 'No account for these addresses' });
  await expect(notFound).toContainText(unknownEmail);
  await expect(notFound).not.toContainText(colleagueEmail);
  const sharedWith = shareDialog.getByRole('region', { name: /^Shared with \(1 of 50\)/ });
  await expect(sharedWith).toContainText(colleagueEmail);
  await manager.keyboard.press('Escape');
  await expect(row.getByRole('img', { name: /^Shared with / })).toBeVisible();

  // The colleague sees the key as shared with them, and reveals it too.
  await openKeys(colleague);
  const colleagueRow = keyRow(colleague, keyName);
  await expect(colleagueRow.getByText('Shared with you')).toBeVisible();
  await expect(colleagueRow.getByRole('button', { name: `Revoke ${keyName}` })).toHaveCount(0);
  await colleagueRow.getByRole('button', { name: `Reveal ${keyName}` }).click();
  const colleagueReveal = colleague.getByRole('dialog', { name: `Reveal “${keyName}”` });
  await colleagueReveal.getByRole('button', { name: 'Show key' }).click();
  await expect(colleagueReveal.getByLabel('API key')).toHaveValue(apiKey);

  // The manager's reveal log names both reveals, with where they came from.
  await row.getByRole('button', { name: `Reveal log ${keyName}` }).click();
  const log = manager.getByRole('dialog', { name: `Reveal log of “${keyName}”` });
  await expect(log.getByRole('row')).toHaveCount(3);
  await expect(log).toContainText(colleagueEmail);
  await manager.keyboard.press('Escape');

  // Revoke, after a confirmation: the key stops working at once.
  await row.getByRole('button', { name: `Revoke ${keyName}` }).click();
  const confirm = manager.getByRole('dialog', { name: `Revoke “${keyName}”?` });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(confirm).toBeHidden();
  await expect(keyRow(manager, keyName)).toHaveCount(0);
  expect(await meStatusWith(manager, apiKey)).toBe(401);

  // It is still listed among the revoked keys, with its reveal log.
  await manager.getByLabel('Show revoked keys').check();
  await expect(manager).toHaveURL(/revoked=true/);
  await expect(keyRow(manager, keyName).getByText(/^Revoked/)).toBeVisible();
  await expect(keyRow(manager, keyName).getByRole('button', { name: `Reveal ${keyName}` })).toHaveCount(0);
});

test('an owner restricts a key, edits it and rotates it with a grace (issue #31)', async ({ browser }) => {
  test.setTimeout(120_000);
  const keyName = 'Restricted bot';
  const owner = await signedInPage(browser, freshEmail());
  await openKeys(owner);

  await owner.getByRole('button', { name: 'Create key' }).first().click();
  const createDialog = owner.getByRole('dialog', { name: 'Create an API key' });
  await createDialog.getByLabel('Name').fill(keyName);
  await createDialog.getByText('Restrictions (optional)').click();
  await createDialog.getByLabel('Models').fill('local-sketch');
  await createDialog.getByLabel('Jobs at once').fill('2');
  await createDialog.getByRole('button', { name: 'Create key' }).click();
  const shown = owner.getByRole('dialog', { name: `Your new key “${keyName}”` });
  const oldKey = await shown.getByLabel('API key').inputValue();
  await shown.getByRole('button', { name: 'Done' }).click();

  const badges = owner.getByRole('list', { name: `Restrictions of ${keyName}` });
  await expect(badges).toContainText('Models: local-sketch');
  await expect(badges).toContainText('≤ 2 at once');

  // Read-only from the next request on.
  await keyRow(owner, keyName)
    .getByRole('button', { name: `Edit ${keyName}` })
    .click();
  const editDialog = owner.getByRole('dialog', { name: `Edit “${keyName}”` });
  await editDialog.getByRole('checkbox', { name: /Read-only/ }).check();
  await editDialog.getByRole('button', { name: 'Save' }).click();
  await expect(editDialog).toBeHidden();
  await expect(badges).toContainText('Read-only');
  const refused = await owner.request.post('/v2/image', {
    headers: { authorization: `Bearer ${oldKey}` },
    data: { model: 'local-sketch', prompt: 'a kite' },
  });
  expect(refused.status()).toBe(403);

  // Rotate, keeping the old secret for an hour: both work.
  await keyRow(owner, keyName)
    .getByRole('button', { name: `Rotate ${keyName}` })
    .click();
  const rotateDialog = owner.getByRole('dialog', { name: `Rotate “${keyName}”` });
  await rotateDialog.getByRole('radio', { name: 'Keeps working for 1 hour' }).check();
  await rotateDialog.getByRole('button', { name: 'Rotate key' }).click();
  const rotated = owner.getByRole('dialog', { name: `New secret for “${keyName}”` });
  const newKey = await rotated.getByLabel('API key').inputValue();
  expect(newKey).not.toBe(oldKey);
  await expect(rotated.getByText(/The old secret keeps working until/)).toBeVisible();
  await rotated.getByRole('button', { name: 'Done' }).click();
  expect(await meStatusWith(owner, newKey)).toBe(200);
  expect(await meStatusWith(owner, oldKey)).toBe(200);
  await expect(badges).toContainText('Old secret still valid');
});
