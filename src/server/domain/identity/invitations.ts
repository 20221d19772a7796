import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { InvitableRole, TeamInvitation as TeamInvitationSchema } from '../../../contract/team.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { type AuditEventInput, type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import { bucketName, hit, type RateLimitRule } from '../rate-limit.ts';
import { toPersonEntry } from './person-entry.ts';
import { isManagerRole, type TeamActor } from './team.ts';

type TeamInvitation = z.infer<typeof TeamInvitationSchema>;

/** Invitations sent per person: each one is a mail to an address they choose. */
export const INVITE_RATE_LIMIT: RateLimitRule = { label: 'invitations', limit: 30, windowSeconds: 3600 };
export const INVITATION_DAYS = 7;

interface InvitationRow {
  id: string;
  email: string;
  role: z.infer<typeof InvitableRole>;
  created_at: Date;
  expires_at: Date;
  inviter_id: string | null;
  inviter_email: string | null;
  inviter_display_name: string | null;
  inviter_avatar_url: string | null;
}

const INVITATION_SELECT = `
SELECT i.id, i.email, i.role, i.created_at, i.expires_at, p.id AS inviter_id, p.email AS inviter_email,
       p.display_name AS inviter_display_name, p.avatar_url AS inviter_avatar_url
  FROM team_invitations i LEFT JOIN persons p ON p.id = i.invited_by`;

function toInvitation(row: InvitationRow): TeamInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by:
      row.inviter_id && row.inviter_email
        ? toPersonEntry({
            id: row.inviter_id,
            email: row.inviter_email,
            display_name: row.inviter_display_name ?? row.inviter_email,
            avatar_url: row.inviter_avatar_url,
          })
        : null,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  };
}

/** Invitations of a team not yet accepted nor expired, newest first. */
export async function listPendingInvitations(db: Queryable, teamId: string): Promise<TeamInvitation[]> {
  const { rows } = await db.query<InvitationRow>(
    `${INVITATION_SELECT} WHERE i.team_id = $1 AND i.accepted_at IS NULL AND i.expires_at > now()
      ORDER BY i.created_at DESC, i.id`,
    [teamId],
  );
  return rows.map(toInvitation);
}

/**
 * Invites an address (owners and managers only; 409 when it is a member already). Inviting an address
 * with a pending invitation renews that one (new role, new expiry) and mails again.
 */
export async function invite(
  db: Db,
  mailer: Mailer,
  actor: TeamActor,
  input: { email: string; role: z.infer<typeof InvitableRole>; appUrl: string },
): Promise<TeamInvitation> {
  await hit(db, bucketName('team-invite', actor.personId), INVITE_RATE_LIMIT);
  const { invitation, teamName, inviter } = await transaction(db, async (tx) => {
    const { rows: actorRows } = await tx.query<{
      role: 'owner' | 'manager' | 'member';
      email: string;
      display_name: string;
      team_name: string;
    }>(
      `SELECT m.role, p.email, p.display_name, t.name AS team_name
         FROM memberships m JOIN persons p ON p.id = m.person_id JOIN teams t ON t.id = m.team_id
        WHERE m.team_id = $1 AND m.person_id = $2`,
      [actor.teamId, actor.personId],
    );
    const me = actorRows[0];
    if (!me || !isManagerRole(me.role))
      throw new AppError('forbidden', 'Only owners and managers invite people.');
    const member = await tx.query(
      `SELECT 1 FROM memberships m JOIN persons p ON p.id = m.person_id WHERE m.team_id = $1 AND p.email = $2`,
      [actor.teamId, input.email],
    );
    if (member.rowCount) throw new AppError('conflict', 'This person is a member of the team already.');
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO team_invitations (id, team_id, email, role, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6))
       ON CONFLICT (team_id, email) WHERE accepted_at IS NULL
       DO UPDATE SET role = EXCLUDED.role, invited_by = EXCLUDED.invited_by, created_at = now(),
                     expires_at = EXCLUDED.expires_at
       RETURNING id`,
      [
        `inv_${randomBytes(8).toString('hex')}`,
        actor.teamId,
        input.email,
        input.role,
        actor.personId,
        INVITATION_DAYS,
      ],
    );
    const saved = await tx.query<InvitationRow>(`${INVITATION_SELECT} WHERE i.id = $1`, [rows[0]!.id]);
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: 'member.invited',
      origin: actor.origin,
      target: { type: 'invitation', id: rows[0]!.id },
      details: { email: input.email, role: input.role },
    });
    return { invitation: toInvitation(saved.rows[0]!), teamName: me.team_name, inviter: me };
  });
  try {
    await mailer.send({
      to: input.email,
      subject: `${inviter.display_name} invited you to ${teamName} on Media Console`,
      text: [
        `${inviter.display_name} (${inviter.email}) invited you to join the team "${teamName}" on Media Console as ${input.role}.`,
        '',
        `Sign in with this address at ${input.appUrl}/sign-in to join. The invitation expires on ${invitation.expires_at.slice(0, 10)}.`,
        '',
        'If you did not expect this, ignore this mail.',
      ].join('\n'),
    });
  } catch {
    throw new AppError(
      'service_unavailable',
      'The invitation is saved but its mail could not be sent; invite again later.',
    );
  }
  return invitation;
}

/**
 * Makes a person a member of every team that invited their address (pending, not expired), in the
 * sign-in's transaction. A membership they already have keeps its role. Answers the `member.joined` audit
 * events, which the sign-in records with its own, in team order.
 */
export async function acceptInvitations(
  tx: Queryable,
  personId: string,
  email: string,
  origin: AuditOrigin,
): Promise<AuditEventInput[]> {
  const { rows } = await tx.query<{ id: string; team_id: string; role: string }>(
    `UPDATE team_invitations SET accepted_at = now()
      WHERE email = $1 AND accepted_at IS NULL AND expires_at > now()
      RETURNING id, team_id, role`,
    [email],
  );
  const events: AuditEventInput[] = [];
  for (const row of rows) {
    const joined = await tx.query(
      `INSERT INTO memberships (team_id, person_id, role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
      [row.team_id, personId, row.role],
    );
    if (!joined.rowCount) continue;
    events.push({
      teamId: row.team_id,
      action: 'member.joined',
      origin,
      target: { type: 'person', id: personId },
      details: { email, role: row.role, invitation_id: row.id },
    });
  }
  return events;
}

/** Withdraws a pending invitation of the actor's team (owners and managers; 404 when none is pending). */
export async function withdrawInvitation(db: Db, actor: TeamActor, invitationId: string): Promise<void> {
  const { rows } = await db.query<{ role: 'owner' | 'manager' | 'member' }>(
    'SELECT role FROM memberships WHERE team_id = $1 AND person_id = $2',
    [actor.teamId, actor.personId],
  );
  if (!isManagerRole(rows[0]?.role ?? null)) {
    throw new AppError('forbidden', 'Only owners and managers withdraw invitations.');
  }
  await transaction(db, async (tx) => {
    const deleted = await tx.query<{ email: string; role: string }>(
      'DELETE FROM team_invitations WHERE id = $1 AND team_id = $2 AND accepted_at IS NULL RETURNING email, role',
      [invitationId, actor.teamId],
    );
    const invitation = deleted.rows[0];
    if (!invitation) throw new AppError('not_found', 'No such pending invitation.');
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: 'member.invitation_withdrawn',
      origin: actor.origin,
      target: { type: 'invitation', id: invitationId },
      details: { email: invitation.email, role: invitation.role },
    });
  });
}
