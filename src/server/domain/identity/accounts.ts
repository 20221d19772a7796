import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { TeamRole } from '../../../contract/account.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import {
  type AuditEventInput,
  type AuditOrigin,
  type AuditRequestInfo,
  recordAuditEvent,
  SYSTEM,
} from '../audit/record-audit-event.ts';
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

/**
 * Adds credits with their ledger row, in the caller's transaction, and records who granted them
 * (`origin`: the operator's command, or the server at sign-up) in the team's audit log.
 */
export async function grantCredits(
  tx: Queryable,
  teamId: string,
  cents: number,
  reason: string,
  personId: string | null,
  origin: AuditOrigin,
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
  await recordAuditEvent(tx, {
    teamId,
    action: 'credits.granted',
    origin,
    target: { type: 'team', id: teamId },
    details: { credits: cents, reason, balance_after: rows[0]!.balance_cents },
  });
}

/**
 * Creates the person, their personal team and its default key; the audit events (sign-up credits, the key)
 * are added to `events`, recorded by the caller with the sign-in's others.
 */
async function createPerson(
  tx: PoolClient,
  email: string,
  signupCredits: number,
  encryptionKey: Buffer,
  request: AuditRequestInfo | null,
  events: AuditEventInput[],
) {
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
  const key = await createApiKey(tx, encryptionKey, {
    teamId,
    personId: person.id,
    name: 'Default key',
    revealable: true,
    isDefault: true,
  });
  events.push(defaultKeyEvent(teamId, person.id, key.id, request));
  // The grant's entry comes first in the new team's chain: it is the team's first event.
  if (signupCredits > 0) await grantCredits(tx, teamId, signupCredits, 'Sign-up credits', person.id, SYSTEM);
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
  options: { signupCredits: number; encryptionKey: Buffer; request: AuditRequestInfo | null },
): Promise<SignInResult> {
  return transaction(db, async (tx) => {
    let created = false;
    let person = await findPersonByEmail(tx, email);
    let apiKey: string | null = null;
    const events: AuditEventInput[] = [];
    if (!person) {
      const made = await createPerson(
        tx,
        email,
        options.signupCredits,
        options.encryptionKey,
        options.request,
        events,
      );
      if (made) {
        person = made.person;
        apiKey = made.apiKey;
        created = true;
      } else {
        person = (await findPersonByEmail(tx, email))!;
      }
    }
    const personId = person.id;
    const origin: AuditOrigin = {
      actor: { type: 'person', personId, apiKeyId: null },
      request: options.request,
    };
    events.push(...(await acceptInvitations(tx, personId, email, origin)));
    const teams = await listMemberships(tx, person.id);
    // Their own personal team comes first (other teams they joined may be personal teams too).
    const personalTeam = teams[0]!;
    if (!apiKey) {
      apiKey = await findDefaultKeySecret(tx, options.encryptionKey, person.id, personalTeam.id);
    }
    if (!apiKey) {
      const key = await createApiKey(tx, options.encryptionKey, {
        teamId: personalTeam.id,
        personId: person.id,
        name: 'Default key',
        revealable: true,
        isDefault: true,
      });
      events.push(defaultKeyEvent(personalTeam.id, personId, key.id, options.request));
      apiKey = key.secret;
    }
    // Every team the person is a member of sees them sign in.
    for (const team of teams) {
      events.push({
        teamId: team.id,
        action: 'auth.sign_in',
        origin,
        target: { type: 'person', id: personId },
        details: { email: person.email, method: 'email_code', first: created },
      });
    }
    await recordInTeamOrder(tx, events);
    return { person, personalTeam, apiKey, created };
  });
}

function defaultKeyEvent(
  teamId: string,
  personId: string,
  keyId: string,
  request: AuditRequestInfo | null,
): AuditEventInput {
  return {
    teamId,
    action: 'api_key.created',
    origin: { actor: { type: 'person', personId, apiKeyId: null }, request },
    target: { type: 'api_key', id: keyId },
    details: { name: 'Default key', revealable: true, default: true },
  };
}

/**
 * Records events of several teams, each team's in the order given, teams in id order: every transaction
 * that appends to more than one chain takes their locks in that one order, so no two wait on each other.
 */
async function recordInTeamOrder(tx: Queryable, events: AuditEventInput[]): Promise<void> {
  const ordered = events
    .map((event, index) => ({ event, index }))
    .sort((a, b) =>
      a.event.teamId === b.event.teamId ? a.index - b.index : a.event.teamId < b.event.teamId ? -1 : 1,
    );
  for (const { event } of ordered) await recordAuditEvent(tx, event);
}
