import type { TeamRole } from '../../../../contract/account.ts';

/*
 * What the caller's role lets them do on the Team page, so no button is shown for what the server would
 * refuse (the server decides; these only mirror its rules from the contract):
 * - owners and managers invite, change roles and remove others;
 * - managers do not touch owners, and cannot make anyone an owner;
 * - anyone may leave a team, except the owner of a personal team.
 */

export interface Actor {
  role: TeamRole;
  userId: string | null;
  personalTeam: boolean;
}

export interface Target {
  user_id: string;
  role: TeamRole;
}

export function canInvite(actor: Actor): boolean {
  return actor.role === 'owner' || actor.role === 'manager';
}

/** The roles the actor may give this member (empty: no role control at all). Never one's own role. */
export function assignableRoles(actor: Actor, target: Target): TeamRole[] {
  if (target.user_id === actor.userId) return [];
  if (actor.role === 'owner') return ['owner', 'manager', 'member'];
  if (actor.role === 'manager' && target.role !== 'owner') return ['manager', 'member'];
  return [];
}

export type Removal = 'remove' | 'leave' | null;

/** Whether the actor may remove this member ("leave" when it is themselves). */
export function removal(actor: Actor, target: Target): Removal {
  if (target.user_id === actor.userId) {
    return actor.personalTeam && actor.role === 'owner' ? null : 'leave';
  }
  if (actor.role === 'owner') return 'remove';
  if (actor.role === 'manager' && target.role !== 'owner') return 'remove';
  return null;
}

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  manager: 'Manager',
  member: 'Member',
};

export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: 'Everything, including making other owners.',
  manager: 'Invites and removes members, manages every key of the team and reads reveal logs.',
  member: 'Uses the team: runs jobs, creates and shares their own keys.',
};
