import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { TeamRole } from '../../../contract/account.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import { createApiKey, findDefaultKeySecret } from './api-keys.ts';
import { acceptInvitations } from './invitations.ts';

export interface PersonRow {
  id: string;
  email: string;
  display_name: string;
  avatar_url: string | null;
  created_at: Date;
}

export interface TeamMembershipRow {
  id: string;
  name: string;
  slug: string;
  personal: boolean;
  role: TeamRole;
  balance_cents: number;
}

export interface SignInResult {
  person: PersonRow;
  personalTeam: TeamMembershipRow;
  apiKey: string;
  created: boolean;
}

function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'team'
  );
}

/** Adds credits with their ledger row, in the caller's transaction. */
export async function grantCredits(
  tx: Queryable,
  teamId: string,
  cents: number,
  reason: string,
  personId: string | null,
) {
  const { rows } = await tx.query<{ balance_cents: number }>(
    'UPDATE teams SET balance_cents = balance_cents + $2 WHERE id = $1 RETURNING balance_cents',
    [teamId, cents],
  );
  await tx.query(
    `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, reason, person_id, source)
     VALUES ($1, $2, $3, 'grant', $4, $5, 'internal')`,
    [teamId, cents, rows[0]!.balance_cents, reason, personId],
  );
}

async function createPerson(tx: PoolClient, email: string, signupCredits: number, encryptionKey: Buffer) {
  const localPart = email.split('@')[0] ?? email;
  const inserted = await tx.query<PersonRow>(
    `INSERT INTO persons (email, display_name) VALUES ($1, $2)
     ON CONFLICT (email) DO NOTHING
     RETURNING id, email, display_name, avatar_url, created_at`,
    [email, localPart],
  );
  const person = inserted.rows[0];
  if (!person) return null; // another sign-in created this person at the same moment
  const slug = `${slugify(localPart)}-${randomBytes(3).toString('hex')}`;
  const team = await tx.query<{ id: string }>(
    `INSERT INTO teams (name, slug, personal, personal_person_id) VALUES ($1, $2, true, $3) RETURNING id`,
    [`${localPart}'s team`, slug, person.id],
  );
  const teamId = team.rows[0]!.id;
  await tx.query(`INSERT INTO memberships (team_id, person_id, role) VALUES ($1, $2, 'owner')`, [
    teamId,
    person.id,
  ]);
  if (signupCredits > 0) await grantCredits(tx, teamId, signupCredits, 'Sign-up credits', person.id);
  const key = await createApiKey(tx, encryptionKey, {
    teamId,
    personId: person.id,
    name: 'Default key',
    revealable: true,
    isDefault: true,
  });
  return { person, apiKey: key.secret };
}

export async function findPersonByEmail(db: Queryable, email: string): Promise<PersonRow | null> {
  const { rows } = await db.query<PersonRow>(
    'SELECT id, email, display_name, avatar_url, created_at FROM persons WHERE email = $1',
    [email],
  );
  return rows[0] ?? null;
}

export async function findPerson(db: Queryable, id: string): Promise<PersonRow | null> {
  const { rows } = await db.query<PersonRow>(
    'SELECT id, email, display_name, avatar_url, created_at FROM persons WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/** Every team of a person, their own personal team first, then in the order they joined. */
export async function listMemberships(db: Queryable, personId: string): Promise<TeamMembershipRow[]> {
  const { rows } = await db.query<TeamMembershipRow>(
    `SELECT t.id, t.name, t.slug, t.personal, m.role, t.balance_cents
       FROM memberships m JOIN teams t ON t.id = m.team_id
      WHERE m.person_id = $1
      ORDER BY (t.personal_person_id = m.person_id) IS TRUE DESC, m.created_at, t.created_at`,
    [personId],
  );
  return rows;
}

export async function findTeam(db: Queryable, teamId: string) {
  const { rows } = await db.query<{
    id: string;
    name: string;
    slug: string;
    personal: boolean;
    balance_cents: number;
  }>('SELECT id, name, slug, personal, balance_cents FROM teams WHERE id = $1', [teamId]);
  return rows[0] ?? null;
}

/**
 * Signs a person in by email after their code was accepted: creates the person, a personal team holding
 * the sign-up credits and a default API key on first sign-in; later it returns the same default key
 * (kept encrypted for this), or a new one if that key was revoked. Pending team invitations of the
 * address are accepted here: the person joins those teams.
 */
export async function signInByEmail(
  db: Db,
  email: string,
  options: { signupCredits: number; encryptionKey: Buffer },
): Promise<SignInResult> {
  return transaction(db, async (tx) => {
    let created = false;
    let person = await findPersonByEmail(tx, email);
    let apiKey: string | null = null;
    if (!person) {
      const made = await createPerson(tx, email, options.signupCredits, options.encryptionKey);
      if (made) {
        person = made.person;
        apiKey = made.apiKey;
        created = true;
      } else {
        person = (await findPersonByEmail(tx, email))!;
      }
    }
    await acceptInvitations(tx, person.id, email);
    const teams = await listMemberships(tx, person.id);
    // Their own personal team comes first (other teams they joined may be personal teams too).
    const personalTeam = teams[0]!;
    if (!apiKey) {
      apiKey = await findDefaultKeySecret(tx, options.encryptionKey, person.id, personalTeam.id);
    }
    if (!apiKey) {
      apiKey = (
        await createApiKey(tx, options.encryptionKey, {
          teamId: personalTeam.id,
          personId: person.id,
          name: 'Default key',
          revealable: true,
          isDefault: true,
        })
      ).secret;
    }
    return { person, personalTeam, apiKey, created };
  });
}
