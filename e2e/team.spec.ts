import { type Browser, expect, type Page, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/*
 * The Team page against the real server: an owner invites a colleague, who joins at their next sign-in
 * and, as a member, sees no button for what members may not do; the owner makes them a manager, then
 * removes them, each after a confirmation.
 */

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/sign-in');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  return page;
}

async function openTeam(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Team', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
}

const memberRow = (page: Page, email: string) =>
  page.getByRole('row').filter({ has: page.getByText(email, { exact: true }) });

test('an owner invites a colleague, who joins as a member without manager buttons; the owner promotes and removes them', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const ownerEmail = freshEmail();
  const colleagueEmail = freshEmail();
  const owner = await signedInPage(browser, ownerEmail);
  await openTeam(owner);
  await expect(owner.getByText('(your personal team). You are owner.')).toBeVisible();

  await owner.getByRole('button', { name: 'Invite' }).click();
  const invite = owner.getByRole('dialog', { name: /^Invite to / });
  await invite.getByLabel('Email').fill('not an email');
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite.getByText('Email must be an email address.')).toBeVisible();
  await invite.getByLabel('Email').fill(colleagueEmail);
  await invite.getByRole('radio', { name: /^Member/ }).check();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite.getByText(`Invitation sent to ${colleagueEmail}.`)).toBeVisible();
  await owner.keyboard.press('Escape');
  const pending = owner.getByRole('region', { name: 'Pending invitations' });
  await expect(pending).toContainText(colleagueEmail);

  // The colleague's sign-in takes up the invitation; they pick the owner's team on the Team page.
  const colleague = await signedInPage(browser, colleagueEmail);
  await openTeam(colleague);
  const picker = colleague.getByLabel('Team', { exact: true });
  const ownerTeam = picker.getByRole('option', { name: /\(member\)$/ });
  await picker.selectOption((await ownerTeam.getAttribute('value')) ?? '');
  await expect(colleague).toHaveURL(/\/team\?team=/);
  await expect(colleague.getByText('You are member.')).toBeVisible();
  await expect(memberRow(colleague, ownerEmail)).toBeVisible();
  await expect(colleague.getByRole('button', { name: 'Invite' })).toHaveCount(0);
  await expect(colleague.getByRole('button', { name: /^Change role/ })).toHaveCount(0);
  await expect(colleague.getByRole('button', { name: /^Remove/ })).toHaveCount(0);
  await expect(
    memberRow(colleague, colleagueEmail).getByRole('button', { name: 'Leave team' }),
  ).toBeVisible();

  // The owner sees them join, makes them a manager, then removes them.
  await owner.reload();
  const row = memberRow(owner, colleagueEmail);
  await expect(row.getByText('Member', { exact: true })).toBeVisible();
  await expect(pending).not.toContainText(colleagueEmail);
  await row.getByRole('button', { name: /^Change role of / }).click();
  const change = owner.getByRole('dialog', { name: /^Change the role of / });
  await change.getByRole('radio', { name: /^Manager/ }).check();
  await change.getByRole('button', { name: 'Make manager' }).click();
  await expect(change).toBeHidden();
  await expect(row.getByText('Manager', { exact: true })).toBeVisible();

  await row.getByRole('button', { name: /^Remove / }).click();
  const confirm = owner.getByRole('dialog', { name: /^Remove .* from / });
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Remove member' }).click();
  await expect(confirm).toBeHidden();
  await expect(memberRow(owner, colleagueEmail)).toHaveCount(0);
});
