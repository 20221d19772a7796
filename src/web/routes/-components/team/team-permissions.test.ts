import { describe, expect, it } from 'vitest';
import type { TeamRole } from '../../../../contract/account.ts';
import { type Actor, assignableRoles, canInvite, removal } from './team-permissions.ts';

const actor = (role: TeamRole, personalTeam = false): Actor => ({ role, userId: 'me', personalTeam });
const member = (role: TeamRole, user_id = 'other') => ({ user_id, role });

describe('team permissions', () => {
  it('lets owners and managers invite, never members', () => {
    expect(canInvite(actor('owner'))).toBe(true);
    expect(canInvite(actor('manager'))).toBe(true);
    expect(canInvite(actor('member'))).toBe(false);
  });

  it('gives owners every role, managers manager and member on non-owners, members nothing', () => {
    expect(assignableRoles(actor('owner'), member('owner'))).toEqual(['owner', 'manager', 'member']);
    expect(assignableRoles(actor('manager'), member('member'))).toEqual(['manager', 'member']);
    expect(assignableRoles(actor('manager'), member('owner'))).toEqual([]);
    expect(assignableRoles(actor('member'), member('member'))).toEqual([]);
  });

  it('never offers a change of one’s own role', () => {
    expect(assignableRoles(actor('owner'), member('owner', 'me'))).toEqual([]);
  });

  it('lets owners remove anyone, managers non-owners, members only leave', () => {
    expect(removal(actor('owner'), member('owner'))).toBe('remove');
    expect(removal(actor('manager'), member('manager'))).toBe('remove');
    expect(removal(actor('manager'), member('owner'))).toBeNull();
    expect(removal(actor('member'), member('member'))).toBeNull();
    expect(removal(actor('member'), member('member', 'me'))).toBe('leave');
  });

  it('keeps the owner of a personal team in it', () => {
    expect(removal(actor('owner', true), member('owner', 'me'))).toBeNull();
    expect(removal(actor('owner', false), member('owner', 'me'))).toBe('leave');
  });
});
