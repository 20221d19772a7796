import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TeamInvitation, TeamMember, TeamMembers } from '../../../contract/team.ts';
import { readDevMailbox } from '../../mail/mailer.ts';
import { failure, freshEmail, memberOf, person } from '../../testing/team-test-support.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(() => t.close());

describe('team members and invitations', () => {
  it('invites by email: a mail is sent, the invitation is pending, the person joins at sign-in', async () => {
    const a = await person(t);
    const email = freshEmail('invitee');
    const invitation = TeamInvitation.parse(
      await a.client.inviteTeamMember({ body: { email: email.toUpperCase(), role: 'manager' } }),
    );
    expect(invitation).toMatchObject({ email, role: 'manager', invited_by: { user_id: a.id } });
    expect(invitation.id).toMatch(/^inv_/);
    const mail = await readDevMailbox(t.db, email);
    expect(mail[0]?.text).toContain('manager');
    expect(mail[0]?.text).toContain(`${t.config.PUBLIC_URL}/sign-in`);
    const before = TeamMembers.parse(await a.client.listTeamMembers());
    expect(before.data.map((m) => m.email)).toEqual([a.email]);
    expect(before.invitations.map((i) => i.email)).toEqual([email]);

    const session = await signUp(t, email);
    const invitee = t.clientFor(session.access_token);
    const me = await invitee.getMe();
    expect(me.team.id).not.toBe(a.teamId); // their own team stays their default
    expect(me.teams.map((team) => [team.id, team.role])).toContainEqual([a.teamId, 'manager']);
    const seen = await invitee.listTeamMembers({ headers: { 'x-team-id': a.teamId } });
    expect(seen.data.map((m) => [m.email, m.role])).toEqual([
      [a.email, 'owner'],
      [email, 'manager'],
    ]);
    const after = await a.client.listTeamMembers();
    expect(after.invitations).toEqual([]);
    // A second sign-in changes nothing.
    await signUp(t, email);
    expect((await a.client.listTeamMembers()).data).toHaveLength(2);
  });

  it('renews a pending invitation, refuses members (409), and only owners and managers invite (403)', async () => {
    const a = await person(t);
    const email = freshEmail();
    const first = await a.client.inviteTeamMember({ body: { email, role: 'member' } });
    const second = await a.client.inviteTeamMember({ body: { email, role: 'manager' } });
    expect(second.id).toBe(first.id);
    expect((await a.client.listTeamMembers()).invitations.map((i) => i.role)).toEqual(['manager']);
    const member = await memberOf(t, a, 'member');
    const already = await failure(
      a.client.inviteTeamMember({ body: { email: member.email, role: 'member' } }),
    );
    expect([already.status, already.code]).toEqual([409, 'conflict']);
    const asMember = { 'x-team-id': a.teamId };
    const refused = await failure(
      member.client.inviteTeamMember({ body: { email: freshEmail(), role: 'member' }, headers: asMember }),
    );
    expect(refused.code).toBe('forbidden');
    // Members see the members, not the pending invitations.
    const seen = await member.client.listTeamMembers({ headers: asMember });
    expect(seen.invitations).toEqual([]);
    // An owner cannot be invited as such.
    const owner = await failure(
      a.client.inviteTeamMember({ body: { email: freshEmail(), role: 'owner' as 'member' } }),
    );
    expect(owner.status).toBe(422);
  });

  it('withdraws a pending invitation (owners and managers; 404 for another team or a second time)', async () => {
    const a = await person(t);
    const b = await person(t);
    const member = await memberOf(t, a, 'member');
    const email = freshEmail();
    const invitation = await a.client.inviteTeamMember({ body: { email, role: 'member' } });
    const asTeam = { 'x-team-id': a.teamId };
    const byMember = await failure(
      member.client.revokeTeamInvitation({ params: { id: invitation.id }, headers: asTeam }),
    );
    expect(byMember.code).toBe('forbidden');
    expect((await failure(b.client.revokeTeamInvitation({ params: { id: invitation.id } }))).status).toBe(
      404,
    );
    await a.client.revokeTeamInvitation({ params: { id: invitation.id } });
    expect((await a.client.listTeamMembers()).invitations).toEqual([]);
    expect((await failure(a.client.revokeTeamInvitation({ params: { id: invitation.id } }))).status).toBe(
      404,
    );
    const session = await signUp(t, email);
    const me = await t.clientFor(session.access_token).getMe();
    expect(me.teams.map((team) => team.id)).not.toContain(a.teamId);
  });

  it('is rate limited per person (30 invitations an hour)', async () => {
    const a = await person(t);
    for (let i = 0; i < 30; i++)
      await a.client.inviteTeamMember({ body: { email: freshEmail(), role: 'member' } });
    const error = await failure(a.client.inviteTeamMember({ body: { email: freshEmail(), role: 'member' } }));
    expect([error.status, error.code]).toEqual([429, 'rate_limited']);
  });

  it('does not join an expired invitation', async () => {
    const a = await person(t);
    const email = freshEmail();
    const invitation = await a.client.inviteTeamMember({ body: { email, role: 'member' } });
    await t.db.query(`UPDATE team_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      invitation.id,
    ]);
    expect((await a.client.listTeamMembers()).invitations).toEqual([]);
    const session = await signUp(t, email);
    const me = await t.clientFor(session.access_token).getMe();
    expect(me.teams.map((team) => team.id)).not.toContain(a.teamId);
  });

  it("answers another team's members as not found", async () => {
    const a = await person(t);
    const b = await person(t);
    expect((await failure(b.client.listTeamMembers({ headers: { 'x-team-id': a.teamId } }))).status).toBe(
      404,
    );
  });
});

describe('changing roles', () => {
  it('lets owners change any role and managers change members and managers, never owners', async () => {
    const a = await person(t);
    const manager = await memberOf(t, a, 'manager');
    const member = await memberOf(t, a, 'member');
    const asTeam = { 'x-team-id': a.teamId };
    const promoted = TeamMember.parse(
      await manager.client.updateTeamMember({
        params: { user_id: member.id },
        body: { role: 'manager' },
        headers: asTeam,
      }),
    );
    expect(promoted.role).toBe('manager');
    const makeOwner = await failure(
      manager.client.updateTeamMember({
        params: { user_id: member.id },
        body: { role: 'owner' },
        headers: asTeam,
      }),
    );
    expect(makeOwner.code).toBe('forbidden');
    const demoteOwner = await failure(
      manager.client.updateTeamMember({
        params: { user_id: a.id },
        body: { role: 'member' },
        headers: asTeam,
      }),
    );
    expect(demoteOwner.code).toBe('forbidden');
    await a.client.updateTeamMember({ params: { user_id: member.id }, body: { role: 'member' } });
    const byMember = await failure(
      member.client.updateTeamMember({
        params: { user_id: manager.id },
        body: { role: 'member' },
        headers: asTeam,
      }),
    );
    expect(byMember.code).toBe('forbidden');
    const stranger = await person(t);
    const unknown = await failure(
      a.client.updateTeamMember({ params: { user_id: stranger.id }, body: { role: 'member' } }),
    );
    expect(unknown.status).toBe(404);
  });

  it('never leaves the team without an owner (409)', async () => {
    const a = await person(t);
    const other = await memberOf(t, a, 'manager');
    const alone = await failure(
      a.client.updateTeamMember({ params: { user_id: a.id }, body: { role: 'manager' } }),
    );
    expect([alone.status, alone.code]).toEqual([409, 'conflict']);
    await a.client.updateTeamMember({ params: { user_id: other.id }, body: { role: 'owner' } });
    const stepDown = await a.client.updateTeamMember({
      params: { user_id: a.id },
      body: { role: 'manager' },
    });
    expect(stepDown.role).toBe('manager');
  });

  it("changes what the member's own key may do at once", async () => {
    const a = await person(t);
    const manager = await memberOf(t, a, 'manager');
    const key = await manager.client.createApiKey({
      body: { name: 'team work', revealable: false },
      headers: { 'x-team-id': a.teamId },
    } as never);
    const viaKey = t.clientFor(key.api_key);
    expect((await viaKey.getMe()).role).toBe('manager');
    await a.client.updateTeamMember({ params: { user_id: manager.id }, body: { role: 'member' } });
    expect((await viaKey.getMe()).role).toBe('member');
  });
});

describe('removing members', () => {
  it("revokes the member's keys of the team and ends the team's shares with them", async () => {
    const a = await person(t);
    const member = await memberOf(t, a, 'member');
    const asTeam = { 'x-team-id': a.teamId };
    const own = await member.client.createApiKey({
      body: { name: 'member key', revealable: true },
      headers: asTeam,
    } as never);
    expect(own.key.team_id).toBe(a.teamId);
    const teamKey = await a.client.createApiKey({ body: { name: 'shared', revealable: true } });
    await a.client.shareApiKey({ params: { id: teamKey.key.id }, body: { emails: [member.email] } });
    const viaKey = t.clientFor(own.api_key);
    await viaKey.getMe();
    await a.client.removeTeamMember({ params: { user_id: member.id } });

    expect((await failure(viaKey.getMe())).status).toBe(401);
    expect((await failure(member.client.revealApiKey({ params: { id: teamKey.key.id } }))).status).toBe(404);
    expect((await a.client.listApiKeyShares({ params: { id: teamKey.key.id } })).shares).toEqual([]);
    const keys = await member.client.listApiKeys({ query: { include_revoked: true } });
    expect(keys.data.find((k) => k.id === own.key.id)?.revoked_at).not.toBeNull();
    expect((await a.client.listTeamMembers()).data.map((m) => m.user_id)).toEqual([a.id]);
    expect((await failure(member.client.listTeamMembers({ headers: asTeam }))).status).toBe(404);
    // Their own team and default key are untouched.
    await expect(t.clientFor(member.apiKey).getMe()).resolves.toBeTruthy();
  });

  it('lets anyone leave, managers remove members but not owners, and keeps the last owner (409)', async () => {
    const a = await person(t);
    const manager = await memberOf(t, a, 'manager');
    const member = await memberOf(t, a, 'member');
    const leaver = await memberOf(t, a, 'member');
    const asTeam = { 'x-team-id': a.teamId };
    const byMember = await failure(
      member.client.removeTeamMember({ params: { user_id: leaver.id }, headers: asTeam }),
    );
    expect(byMember.code).toBe('forbidden');
    await leaver.client.removeTeamMember({ params: { user_id: leaver.id }, headers: asTeam });
    const ownerByManager = await failure(
      manager.client.removeTeamMember({ params: { user_id: a.id }, headers: asTeam }),
    );
    expect(ownerByManager.code).toBe('forbidden');
    await manager.client.removeTeamMember({ params: { user_id: member.id }, headers: asTeam });
    const last = await failure(a.client.removeTeamMember({ params: { user_id: a.id } }));
    expect([last.status, last.code]).toEqual([409, 'conflict']);
    const gone = await failure(a.client.removeTeamMember({ params: { user_id: member.id } }));
    expect(gone.status).toBe(404);
  });

  it('never removes the person whose personal team it is, even by another owner', async () => {
    const a = await person(t);
    const coOwner = await memberOf(t, a, 'manager');
    await a.client.updateTeamMember({ params: { user_id: coOwner.id }, body: { role: 'owner' } });
    const error = await failure(
      coOwner.client.removeTeamMember({ params: { user_id: a.id }, headers: { 'x-team-id': a.teamId } }),
    );
    expect([error.status, error.code]).toEqual([409, 'conflict']);
    await coOwner.client.removeTeamMember({
      params: { user_id: coOwner.id },
      headers: { 'x-team-id': a.teamId },
    });
  });
});
