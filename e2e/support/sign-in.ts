import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

/** A new person for every test: the first sign-in creates the account. */
export function freshEmail(): string {
  return `e2e-${randomUUID().slice(0, 12)}@example.com`;
}

function isMailbox(value: unknown): value is { data: Array<{ code: string | null }> } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { data?: unknown }).data);
}

/** The newest sign-in code sent to `email`, read from the server's dev mailbox (no SMTP in e2e). */
export async function latestCode(request: APIRequestContext, email: string): Promise<string> {
  // Widened on purpose: TypeScript does not see the assignment inside the polled callback.
  let code = null as string | null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
        const body: unknown = response.ok() ? await response.json() : null;
        code = isMailbox(body) ? (body.data[0]?.code ?? null) : null;
        return code;
      },
      { message: `a sign-in code for ${email} in the dev mailbox` },
    )
    .toMatch(/^\d{6}$/);
  if (code === null) throw new Error(`no sign-in code for ${email}`);
  return code;
}

/** Asks for a code on the sign-in page and waits for the code step. */
export async function requestCode(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await expect(page.getByLabel('Verification code')).toBeVisible();
}

/** The whole sign-in, through the UI, from the sign-in page. */
export async function signInThroughUi(page: Page, email: string): Promise<void> {
  await requestCode(page, email);
  await page.getByLabel('Verification code').fill(await latestCode(page.request, email));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export function accountMenu(page: Page) {
  return page.getByRole('button', { name: /Account menu/ });
}
