import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../client/create-client.ts';
import type { AuditEntry } from '../../../contract/audit-log.ts';
import { auditLogOf } from '../../testing/audit-test-support.ts';
import { failure, freshEmail, memberOf, person } from '../../testing/team-test-support.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';

const OPERATOR_EMAIL = 'audit-operator@example.com';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '100', ADMIN_EMAILS: OPERATOR_EMAIL }, { work: false });
});
afterAll(() => t.close());

/** Our SDK with a token, from `address`, sending `agent` as its User-Agent. */
function clientWith(token: string, address: string, agent: string) {
  return createClient({
    baseUrl: `${TEST_PUBLIC_URL}/v2`,
    token,
    fetch: (input, init) =>
      Promise.resolve(
        t.app.request(input, {
          ...init,
          headers: {
            ...(init?.headers as Record<string, string>),
            'x-forwarded-for': address,
            'user-agent': agent,
          },
        }),
      ),
  });
}

const logOf = auditLogOf;

const actions = (entries: AuditEntry[]) => entries.map((e) => e.action);

describe('the audit log records each event with its actor, target, address and agent', () => {
  it('records sign-up: the grant by the server, the default key and the sign-in', async () => {
    const email = freshEmail('signup');
    await signUp(t, email, '203.0.113.77');
    const owner = await person(t, email); // a second sign-in
    const log = (await logOf(owner)).reverse();
    expect(actions(log)).toEqual(['credits.granted', 'api_key.created', 'auth.sign_in', 'auth.sign_in']);
    expect(log[0]).toMatchObject({
      seq: 1,
      prev_hash: null,
      actor: { type: 'system', person: null, api_key: null },
      target: { type: 'team', id: owner.teamId },
      details: { credits: 100, reason: 'Sign-up credits' },
    });
    expect(log[1]).toMatchObject({
      actor: { type: 'person', person: { user_id: owner.id, email } },
      target: { type: 'api_key', label: 'Default key' },
      client_address: '203.0.113.77',
    });
    expect(log[2]).toMatchObject({
      target: { type: 'person', id: owner.id, label: email },
      client_address: '203.0.113.77',
      details: { email, first: true },
    });
    expect(log[3]?.details).toMatchObject({ first: false });
    // Each entry names the previous one's hash.
    for (let i = 1; i < log.length; i++) expect(log[i]?.prev_hash).toBe(log[i - 1]?.hash);
  });

  it('records a refused sign-in code in the person’s own team', async () => {
    const owner = await person(t);
    await t.clientFor(null, '192.0.2.200').sendOtp({ body: { email: owner.email } });
    const wrong = await failure(
      t.clientFor(null, '192.0.2.200').verifyOtp({ body: { email: owner.email, code: '000000' } }),
    );
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    const [entry] = await logOf(owner, { action: 'auth.sign_in_failed' });
    expect(entry).toMatchObject({
      actor: { type: 'anonymous', person: null },
      target: { type: 'person', id: owner.id },
      client_address: '192.0.2.200',
      details: { email: owner.email },
    });
  });

  it('records key create, reveal, share, unshare and revoke with the request’s address and user agent', async () => {
    const owner = await person(t);
    const friend = await person(t);
    const browser = clientWith(owner.token, '198.51.100.23', 'AuditTest/1.0 (console)');
    const created = await browser.createApiKey({ body: { name: 'CI deploys', revealable: true } });
    const keyId = created.key.id;
    await browser.revealApiKey({ params: { id: keyId } });
    await browser.shareApiKey({ params: { id: keyId }, body: { emails: [friend.email] } });
    await browser.removeApiKeyShare({ params: { id: keyId, user_id: friend.id } });
    await browser.revokeApiKey({ params: { id: keyId } });
    await browser.revokeApiKey({ params: { id: keyId } }); // a second revoke changes nothing

    const log = (await logOf(owner, { target: keyId })).reverse();
    expect(actions(log)).toEqual([
      'api_key.created',
      'api_key.revealed',
      'api_key.shared',
      'api_key.unshared',
      'api_key.revoked',
    ]);
    for (const entry of log) {
      expect(entry).toMatchObject({
        team_id: owner.teamId,
        actor: { type: 'person', person: { user_id: owner.id }, api_key: null },
        target: { type: 'api_key', id: keyId, label: 'CI deploys' },
        client_address: '198.51.100.23',
        user_agent: 'AuditTest/1.0 (console)',
      });
    }
    expect(log[2]?.details).toEqual({
      name: 'CI deploys',
      shared_with: [{ user_id: friend.id, email: friend.email }],
    });
    // The secret is never in the log.
    expect(JSON.stringify(log)).not.toContain(created.api_key);
  });

  it('records key edits (what changed, from and to), rotation, and budget changes, never a secret or a webhook URL', async () => {
    const owner = await person(t);
    const browser = clientWith(owner.token, '198.51.100.31', 'AuditTest/1.1');
    const created = await browser.createApiKey({
      body: { name: 'Limited', spend_limit: { credits: 5, period: 'day' } },
    });
    const keyId = created.key.id;
    await browser.updateApiKey({
      params: { id: keyId },
      body: { allowed_tools: ['image'], spend_limit: { credits: 9, period: 'week' } },
    });
    const rotated = await browser.rotateApiKey({ params: { id: keyId }, body: { grace_seconds: 3600 } });
    const keyLog = (await logOf(owner, { target: keyId })).reverse();
    expect(actions(keyLog)).toEqual(['api_key.created', 'api_key.edited', 'api_key.rotated']);
    expect(keyLog[0]?.details).toMatchObject({ spend_limit: { credits: 5, period: 'day' } });
    expect(keyLog[1]?.details).toEqual({
      name: 'Limited',
      changes: {
        allowed_tools: { from: null, to: ['image'] },
        spend_limit: { from: { credits: 5, period: 'day' }, to: { credits: 9, period: 'week' } },
      },
    });
    expect(keyLog[2]).toMatchObject({
      client_address: '198.51.100.31',
      user_agent: 'AuditTest/1.1',
      details: { grace_seconds: 3600, grace_until: rotated.key.previous_secret_expires_at },
    });
    expect(JSON.stringify(keyLog)).not.toContain(created.api_key);
    expect(JSON.stringify(keyLog)).not.toContain(rotated.api_key);

    // A public address literal: the URL check needs no DNS for it.
    const hook = 'https://93.184.215.14/alerts?token=very-secret';
    const budget = await browser.createBudget({
      body: {
        scope: { type: 'team', id: owner.teamId },
        credits: 50,
        period: 'month',
        mode: 'cap',
        alert_webhook_url: hook,
      },
    });
    await browser.updateBudget({ params: { id: budget.id }, body: { credits: 80 } });
    await browser.deleteBudget({ params: { id: budget.id } });
    const budgetLog = (await logOf(owner, { target: budget.id })).reverse();
    expect(actions(budgetLog)).toEqual(['budget.created', 'budget.edited', 'budget.deleted']);
    expect(budgetLog[1]?.details).toMatchObject({
      before: { credits: 50 },
      after: { credits: 80, mode: 'cap' },
    });
    expect(JSON.stringify(budgetLog)).not.toContain('very-secret');
  });

  it('records invitations, joining, role changes and removal, each in the team’s log', async () => {
    const owner = await person(t);
    const email = freshEmail('joiner');
    const browser = clientWith(owner.token, '198.51.100.40', 'AuditTest/2.0');
    const invitation = await browser.inviteTeamMember({ body: { email, role: 'member' } });
    const joined = await person(t, email);
    await browser.updateTeamMember({ params: { user_id: joined.id }, body: { role: 'manager' } });
    await browser.removeTeamMember({ params: { user_id: joined.id } });
    const withdrawn = await browser.inviteTeamMember({ body: { email: freshEmail(), role: 'manager' } });
    await browser.revokeTeamInvitation({ params: { id: withdrawn.id } });

    const log = (await logOf(owner, { action: 'member.' })).reverse();
    expect(actions(log)).toEqual([
      'member.invited',
      'member.joined',
      'member.role_changed',
      'member.removed',
      'member.invited',
      'member.invitation_withdrawn',
    ]);
    expect(log[0]).toMatchObject({
      actor: { person: { user_id: owner.id } },
      target: { type: 'invitation', id: invitation.id, label: email },
      client_address: '198.51.100.40',
      user_agent: 'AuditTest/2.0',
      details: { email, role: 'member' },
    });
    expect(log[1]).toMatchObject({
      actor: { person: { user_id: joined.id } },
      target: { type: 'person', id: joined.id },
      details: { role: 'member', invitation_id: invitation.id },
    });
    expect(log[2]?.details).toEqual({ from: 'member', to: 'manager' });
    expect(log[3]).toMatchObject({ target: { id: joined.id }, details: { role: 'manager', left: false } });
    // The joiner's sign-in is in the team's log too, while they were a member.
    expect(actions(await logOf(owner, { actor: joined.id }))).toContain('auth.sign_in');
  });

  it('records folder visibility changes (not renames) and template reviews', async () => {
    const owner = await person(t);
    const { workspace } = await owner.client.createFolder({ body: { name: 'Launch' } });
    await owner.client.updateFolder({ params: { id_or_slug: workspace.id }, body: { name: 'Launch 2' } });
    await owner.client.updateFolder({
      params: { id_or_slug: workspace.id },
      body: { visibility: 'private' },
    });
    const [change, ...others] = await logOf(owner, { action: 'folder.' });
    expect(others).toEqual([]);
    expect(change).toMatchObject({
      target: { type: 'folder', id: workspace.id, label: 'Launch 2' },
      details: { from: 'team', to: 'private' },
    });

    const tpl = await owner.client.publishTemplate({
      body: {
        name: 'Audit card',
        description: 'A card',
        tags: ['audit'],
        tool: 'render',
        request: { duration: 1, format: 'png', layers: [{ type: 'text', text: '{{headline}}' }] },
        variables: [{ name: 'headline', label: 'Headline', type: 'text' }],
      },
    });
    const operator = await person(t, OPERATOR_EMAIL);
    await operator.client.reviewTemplate({ params: { id: tpl.id }, body: { decision: 'approve' } });
    const [review] = await logOf(owner, { action: 'template.reviewed' });
    expect(review).toMatchObject({
      actor: { type: 'person', person: { user_id: operator.id } },
      target: { type: 'template', id: tpl.id, label: 'Audit card' },
      details: { decision: 'approve', status: 'approved' },
    });
  });
});

describe('GET /v2/audit-log', () => {
  it('filters by actor (person or key), action, target and time, and pages newest first', async () => {
    const owner = await person(t);
    for (let i = 0; i < 5; i++) await owner.client.createApiKey({ body: { name: `k${i}` } });
    const all = await logOf(owner);
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => b - a));

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await owner.client.listAuditLog({
        query: { action: 'api_key.created', limit: 2, ...(cursor ? { cursor } : {}) },
      });
      pages.push(page.data.map((e) => e.action));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 2]); // 5 keys and the default key
    expect(new Set(pages.flat())).toEqual(new Set(['api_key.created']));

    expect(await logOf(owner, { actor: owner.id })).toHaveLength(
      all.filter((e) => e.actor.person?.user_id === owner.id).length,
    );
    const target = all.find((e) => e.action === 'api_key.created')!.target!.id;
    expect((await logOf(owner, { target })).map((e) => e.target?.id)).toEqual([target]);
    const middle = all[3]!.occurred_at;
    const before = await logOf(owner, { to: middle });
    const after = await logOf(owner, { from: middle });
    expect(before.length + after.length).toBe(all.length);
    expect(after.at(-1)?.occurred_at).toBe(middle);

    // An owner's key reads the log too.
    const withKey = await t.clientFor(owner.apiKey).listAuditLog({ query: { limit: 100 } });
    expect(withKey.data.map((e) => e.id)).toEqual(all.slice(0, 100).map((e) => e.id));
  });

  it('refuses a bad filter or cursor with 422 naming the field', async () => {
    const owner = await person(t);
    for (const [query, field] of [
      [{ action: 'API_KEY' }, 'query.action'],
      [{ actor: 'someone' }, 'query.actor'],
      [{ from: 'yesterday' }, 'query.from'],
      [{ cursor: 'bm90IGpzb24' }, 'query.cursor'],
    ] as const) {
      const refused = await failure(owner.client.listAuditLog({ query }));
      expect([refused.status, refused.code]).toEqual([422, 'invalid_request']);
      expect(JSON.stringify(refused.details)).toContain(field);
    }
  });

  it('answers CSV with format=csv or Accept: text/csv, the next cursor in a header', async () => {
    const owner = await person(t);
    const csv = await t.request('/v2/audit-log?format=csv&limit=2', {
      headers: { authorization: `Bearer ${owner.token}`, 'x-forwarded-for': '198.51.100.9' },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(
      /^attachment; filename="audit-log-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect(csv.headers.get('x-next-cursor')).toBeTruthy();
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toBe(
      'occurred_at,action,action_label,actor_type,actor_email,actor_api_key_id,actor_api_key_name,target_type,target_id,target_label,client_address,user_agent,details,id,seq,prev_hash,hash',
    );
    expect(lines[1]).toContain(',auth.sign_in,Signed in,person,');
    expect(lines).toHaveLength(4); // two rows and the final CRLF
    const accepted = await t.request('/v2/audit-log', {
      headers: { authorization: `Bearer ${owner.token}`, accept: 'text/csv' },
    });
    expect(accepted.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });

  it('is for owners and managers: a member gets 403 forbidden, another team’s log is not reachable', async () => {
    const owner = await person(t);
    const manager = await memberOf(t, owner, 'manager');
    const member = await memberOf(t, owner, 'member');
    const asTeam = { 'x-team-id': owner.teamId };
    const seen = await manager.client.listAuditLog({ headers: asTeam });
    expect(seen.data.every((e) => e.team_id === owner.teamId)).toBe(true);
    const refused = await failure(member.client.listAuditLog({ headers: asTeam }));
    expect([refused.status, refused.code]).toEqual([403, 'forbidden']);
    const stranger = await person(t);
    const other = await failure(stranger.client.listAuditLog({ headers: asTeam }));
    expect(other.status).toBe(404);
    // Unauthenticated: 401.
    expect((await t.request('/v2/audit-log')).status).toBe(401);
  });
});
