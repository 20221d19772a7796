import { randomBytes } from 'node:crypto';
import type { ApiError } from '../../client/api-error.ts';
import { signUp, type TestApp } from './test-app.ts';

export const freshEmail = (label = 'p') => `${label}-${randomBytes(5).toString('hex')}@example.com`;

/** A signed-in person: their session client, person id, own team id and default key. */
export async function person(t: TestApp, email = freshEmail()) {
  const session = await signUp(t, email);
  const client = t.clientFor(session.access_token);
  const me = await client.getMe();
  return {
    email,
    token: session.access_token,
    apiKey: session.api_key,
    client,
    id: me.person!.id,
    teamId: me.team.id,
  };
}
export type Person = Awaited<ReturnType<typeof person>>;

/** A new person who joined `owner`'s team with `role`, through a real invitation and sign-in. */
export async function memberOf(t: TestApp, owner: Person, role: 'manager' | 'member') {
  const email = freshEmail(role);
  await owner.client.inviteTeamMember({ body: { email, role } });
  return person(t, email);
}

/** Adds people straight into the database (for limits that need many accounts); returns their emails. */
export async function insertPeople(t: TestApp, count: number): Promise<string[]> {
  const emails = Array.from({ length: count }, () => freshEmail('bulk'));
  await t.db.query(
    `INSERT INTO persons (email, display_name) SELECT e, split_part(e, '@', 1) FROM unnest($1::text[]) e`,
    [emails],
  );
  return emails;
}

/** The ApiError a call fails with (fails the test when the call succeeds). */
export async function failure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}
