import { type Browser, expect, type Page, test } from '@playwright/test';
import { runJobThroughApi } from './support/api-jobs.ts';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/*
 * Working in a team one was invited to (issue #29): the owner invites a colleague; she signs in, switches
 * to the owner's team in the header and sees its jobs, on every page without an error, and a link copied
 * there opens in that team in a new browser of hers.
 */

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/sign-in');
  await signInThroughUi(page, email);
  await expect(page).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  return page;
}

async function openSection(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

test('a member switches to the team she was invited to and works in it everywhere', async ({ browser }) => {
  test.setTimeout(180_000);
  const ownerEmail = freshEmail();
  const colleagueEmail = freshEmail();
  const owner = await signedInPage(browser, ownerEmail);
  await runJobThroughApi(owner, 'image', { model: 'local-sketch', prompt: 'an orange kite over the city' });

  await openSection(owner, 'Team');
  await owner.getByRole('button', { name: 'Invite' }).click();
  const invite = owner.getByRole('dialog', { name: /^Invite to / });
  await invite.getByLabel('Email').fill(colleagueEmail);
  await invite.getByRole('radio', { name: /^Member/ }).check();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(invite.getByText(`Invitation sent to ${colleagueEmail}.`)).toBeVisible();
  await owner.keyboard.press('Escape');

  const colleague = await signedInPage(browser, colleagueEmail);
  await openSection(colleague, 'Jobs');
  await expect(colleague.getByText('No jobs yet')).toBeVisible();

  // The header lists both teams with her role; she switches and stays on the Jobs page.
  const switcher = colleague.getByRole('combobox', { name: 'Team' });
  const ownerTeam = switcher.getByRole('option', { name: /\(member\)$/ });
  await expect(switcher.getByRole('option', { name: /\(owner, personal\)$/ })).toHaveCount(1);
  const ownerTeamId = (await ownerTeam.getAttribute('value')) ?? '';
  await switcher.selectOption(ownerTeamId);
  await expect(colleague).toHaveURL(new RegExp(`/jobs\\?team=${ownerTeamId}$`));
  await expect(colleague.getByText('an orange kite over the city').first()).toBeVisible();

  // Every page answers her in that team, none with an error.
  for (const section of ['Files', 'Analytics', 'Billing', 'Keys', 'Team', 'Playground']) {
    await openSection(colleague, section);
    await expect(colleague).toHaveURL(new RegExp(`team=${ownerTeamId}`));
    await expect(colleague.getByRole('alert').filter({ hasText: /\S/ })).toHaveCount(0);
  }
  await openSection(colleague, 'Team');
  await expect(colleague.getByText('You are member.', { exact: false })).toBeVisible();
  await expect(colleague.getByText(/your personal team/)).toHaveCount(0);

  // A link copied in the team opens in it, in a browser that never chose it.
  await openSection(colleague, 'Jobs');
  const link = colleague.url();
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto('/sign-in');
  await signInThroughUi(fresh, colleagueEmail);
  await expect(fresh).toHaveURL(/\/playground\?team=[0-9a-f-]{36}$/);
  await fresh.goto(link);
  await expect(fresh.getByRole('combobox', { name: 'Team' })).toHaveValue(ownerTeamId);
  await expect(fresh.getByText('an orange kite over the city').first()).toBeVisible();

  // A link the owner copies in her own team names it too: it opens there for the colleague, who was
  // working in her own team in this tab.
  const freshSwitcher = fresh.getByRole('combobox', { name: 'Team' });
  const ownTeamId = await freshSwitcher
    .getByRole('option', { name: /\(owner, personal\)$/ })
    .getAttribute('value');
  await freshSwitcher.selectOption(ownTeamId ?? '');
  await expect(fresh.getByText('No jobs yet')).toBeVisible();
  await openSection(owner, 'Jobs');
  await expect(owner).toHaveURL(new RegExp(`/jobs\\?team=${ownerTeamId}$`));
  await fresh.goto(owner.url());
  await expect(fresh.getByRole('combobox', { name: 'Team' })).toHaveValue(ownerTeamId);
  await expect(fresh.getByText('an orange kite over the city').first()).toBeVisible();
});
