import { createHash, randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { freshEmail, signInThroughUi } from './support/sign-in.ts';

/*
 * Connecting an MCP client that speaks only OAuth: it registers itself and opens the authorization URL;
 * the person (signed out) signs in with the emailed code, lands on the consent page, picks the team and
 * allows it; the browser goes back to the client with a code, which the client exchanges (with its PKCE
 * verifier) for a token that works on the API and shows on the Keys page.
 */

const CALLBACK = 'http://127.0.0.1:9/callback';

test('an MCP client is connected through sign-in and consent, and its token works', async ({ page }) => {
  test.setTimeout(90_000);
  const registered = await page.request.post('/oauth/register', {
    data: { client_name: 'E2E Agent', redirect_uris: [CALLBACK] },
  });
  expect(registered.status()).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: CALLBACK,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'e2e-state',
  });
  // The client's own callback: nothing listens there in the test, the browser just has to arrive.
  await page.route(`${CALLBACK}**`, (route) => route.fulfill({ status: 200, body: 'Connected.' }));

  await page.goto(`/oauth/authorize?${query}`);
  await expect(page).toHaveURL(/\/sign-in/);
  await signInThroughUi(page, freshEmail());

  await expect(page.getByRole('heading', { name: 'Connect E2E Agent', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Connect an application/);
  await expect(page.getByRole('radio', { name: /personal/ })).toBeChecked();
  const violations = (await new AxeBuilder({ page }).analyze()).violations.filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
  expect(violations.map((v) => v.id)).toEqual([]);
  await page.getByRole('button', { name: 'Allow' }).click();

  await page.waitForURL(`${CALLBACK}**`);
  const back = new URL(page.url());
  expect(back.searchParams.get('state')).toBe('e2e-state');
  const code = back.searchParams.get('code')!;
  expect(code).toBeTruthy();

  const token = await page.request.post('/oauth/token', {
    form: {
      grant_type: 'authorization_code',
      code,
      client_id,
      redirect_uri: CALLBACK,
      code_verifier: verifier,
    },
  });
  expect(token.status()).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const me = await page.request.get('/v2/me', { headers: { authorization: `Bearer ${access_token}` } });
  expect(me.status()).toBe(200);
});
