import type { TeamRole } from '../../../contract/account.ts';
import type { TeamMember } from '../../../contract/team.ts';
import { type Db, type Queryable, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AuditOrigin, recordAuditEvent } from '../audit/record-audit-event.ts';
import type { ApiKeyResolver } from './api-keys.ts';
import { evictKeys, markMemberKeysChanged, revokeMemberKeys } from './key-revocation.ts';
import { type PersonEntryRow, toPersonEntry } from './person-entry.ts';

const MANAGES: readonly TeamRole[] = ['owner', 'manager'];
export const isManagerRole = (role: TeamRole | null): boolean => role !== null && MANAGES.includes(role);

type MemberRow = PersonEntryRow & { role: TeamRole; joined_at: Date };

function toMember(row: MemberRow): TeamMember {
  return { ...toPersonEntry(row), role: row.role, joined_at: row.joined_at.toISOString() };
}

/** Members of a team: owners, then managers, then members, each in the order they joined. */
export async function listMembers(db: Queryable, teamId: string): Promise<TeamMember[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT p.id, p.email, p.display_name, p.avatar_url, m.role, m.created_at AS joined_at
       FROM memberships m JOIN persons p ON p.id = m.person_id
      WHERE m.team_id = $1
      ORDER BY array_position(ARRAY['owner', 'manager', 'member'], m.role), m.created_at, p.email`,
    [teamId],
  );
  return rows.map(toMember);
}

interface LockedTeam {
  roles: Map<string, TeamRole>;
  owners: number;
  personalPersonId: string | null;
}

/** Locks the team's memberships for the transaction, so two changes cannot both remove the last owner. */
async function lockTeam(tx: Queryable, teamId: string): Promise<LockedTeam> {
  const team = await tx.query<{ personal_person_id: string | null }>(
    'SELECT personal_person_id FROM teams WHERE id = $1 FOR UPDATE',
    [teamId],
  );
  const { rows } = await tx.query<{ person_id: string; role: TeamRole }>(
    'SELECT person_id, role FROM memberships WHERE team_id = $1 FOR UPDATE',
    [teamId],
  );
  return {
    roles: new Map(rows.map((r) => [r.person_id, r.role])),
    owners: rows.filter((r) => r.role === 'owner').length,
    personalPersonId: team.rows[0]?.personal_person_id ?? null,
  };
}

function targetRole(team: LockedTeam, userId: string): TeamRole {
  const role = team.roles.get(userId);
  if (!role) throw new AppError('not_found', 'No such member in this team.');
  return role;
}

export interface TeamActor {
  teamId: string;
  personId: string;
  /** Who and from where, for the audit log. */
  origin: AuditOrigin;
}

/**
 * Owners change any role; managers change members and managers (and never make owners); members change
 * nothing. 409 when the team would be left without an owner.
 */
export async function changeRole(
  db: Db,
  resolver: ApiKeyResolver,
  actor: TeamActor,
  userId: string,
  role: TeamRole,
): Promise<TeamMember> {
  const changedKeys = await transaction(db, async (tx) => {
    const team = await lockTeam(tx, actor.teamId);
    const actorRole = team.roles.get(actor.personId) ?? null;
    const current = targetRole(team, userId);
    if (!isManagerRole(actorRole)) throw new AppError('forbidden', 'Only owners and managers change roles.');
    if (actorRole === 'manager' && (current === 'owner' || role === 'owner')) {
      throw new AppError('forbidden', 'Only owners make owners or change an owner’s role.');
    }
    if (current === 'owner' && role !== 'owner' && team.owners === 1) {
      throw new AppError('conflict', 'This is the team’s only owner: make someone else owner first.');
    }
    if (current === role) return [];
    await tx.query('UPDATE memberships SET role = $3 WHERE team_id = $1 AND person_id = $2', [
      actor.teamId,
      userId,
      role,
    ]);
    const changed = await markMemberKeysChanged(tx, actor.teamId, userId);
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: 'member.role_changed',
      origin: actor.origin,
      target: { type: 'person', id: userId },
      details: { from: current, to: role },
    });
    return changed;
  });
  evictKeys(resolver, changedKeys);
  const member = (await listMembers(db, actor.teamId)).find((m) => m.user_id === userId);
  if (!member) throw new AppError('not_found', 'No such member in this team.');
  return member;
}

/**
 * Owners and managers remove others (managers not owners); anyone may leave. The removed person's keys
 * of the team are revoked and the team's keys stop being shared with them. 409 for the last owner, and
 * for the person whose personal team it is.
 */
export async function removeMember(db: Db, resolver: ApiKeyResolver, actor: TeamActor, userId: string) {
  const revoked = await transaction(db, async (tx) => {
    const team = await lockTeam(tx, actor.teamId);
    const actorRole = team.roles.get(actor.personId) ?? null;
    const current = targetRole(team, userId);
    if (userId !== actor.personId) {
      if (!isManagerRole(actorRole))
        throw new AppError('forbidden', 'Only owners and managers remove members.');
      if (actorRole === 'manager' && current === 'owner') {
        throw new AppError('forbidden', 'Only owners remove an owner.');
      }
    }
    if (team.personalPersonId === userId) {
      throw new AppError('conflict', 'This is their personal team: it cannot lose its owner.');
    }
    if (current === 'owner' && team.owners === 1) {
      throw new AppError('conflict', 'This is the team’s only owner: make someone else owner first.');
    }
    await tx.query('DELETE FROM memberships WHERE team_id = $1 AND person_id = $2', [actor.teamId, userId]);
    await tx.query(
      `DELETE FROM api_key_shares s USING api_keys k
        WHERE s.api_key_id = k.id AND k.team_id = $1 AND s.person_id = $2`,
      [actor.teamId, userId],
    );
    const revokedKeys = await revokeMemberKeys(tx, actor.teamId, userId);
    await recordAuditEvent(tx, {
      teamId: actor.teamId,
      action: 'member.removed',
      origin: actor.origin,
      target: { type: 'person', id: userId },
      details: { role: current, left: userId === actor.personId, revoked_keys: revokedKeys },
    });
    return revokedKeys;
  });
  evictKeys(resolver, revoked);
}
