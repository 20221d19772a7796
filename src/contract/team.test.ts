import { describe, expect, it } from 'vitest';
import { inviteTeamMember, removeTeamMember, TeamMember, updateTeamMember } from './team.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const USER = '0b9a7f8e-1111-4222-8333-944455556666';

describe('team members', () => {
  it('carry the person entry and a role', () => {
    const member = {
      user_id: USER,
      email: 'ada@example.com',
      display_name: 'Ada',
      avatar_url: null,
      role: 'manager',
      joined_at: '2025-01-01T00:00:00Z',
    };
    expect(issuesOf(TeamMember, member)).toEqual([]);
    expect(issuesOf(TeamMember, { ...member, role: 'admin' })).toEqual(['role: invalid_value']);
  });

  it('are invited by email as member (default) or manager, never owner', () => {
    expect(parseOk(inviteTeamMember.body, { email: 'Bob@Example.com' })).toEqual({
      email: 'bob@example.com',
      role: 'member',
    });
    expect(issuesOf(inviteTeamMember.body, { email: 'bob@example.com', role: 'owner' })).toEqual([
      'role: invalid_value',
    ]);
    expect(issuesOf(inviteTeamMember.body, { email: 'bob' })).toEqual(['email: invalid_format']);
  });

  it('change role and are removed by user id', () => {
    expect(issuesOf(updateTeamMember.body, { role: 'owner' })).toEqual([]);
    expect(issuesOf(updateTeamMember.params, { user_id: 'bob' })).toEqual(['user_id: invalid_format']);
    expect(Object.keys(removeTeamMember.responses)).toEqual(['204']);
  });
});
