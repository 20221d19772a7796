import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditEvent } from '../src/server/domain/audit/record-audit-event.ts';
import { auditLogOf as logOf } from '../src/server/testing/audit-test-support.ts';
import { operatorCommand } from '../src/server/testing/operator-command.ts';
import { person } from '../src/server/testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../src/server/testing/test-app.ts';
import { runAudit } from './audit-command.ts';
import { runCredits } from './credits-command.ts';

/** The operator's commands and the audit chain they verify (the routes' own events: audit-log.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '100' }, { work: false });
});
afterAll(() => t.close());

/** A command in-process on the test's database; `out` is what it printed. */
async function run(command: typeof runAudit, args: string[]) {
  let out = '';
  const print = (text: string) => {
    out += text;
  };
  return { code: await command(t.db, args, { out: print, err: print }), out };
}
const credits = (...args: string[]) => run(runCredits, args);
const audit = (...args: string[]) => run(runAudit, args);

describe('operator commands in the audit log', () => {
  it('records the operator’s grants and adjustments with no person or address', async () => {
    const owner = await person(t);
    expect((await credits('grant', owner.teamId, '250', 'pilot')).code).toBe(0);
    expect((await credits('adjust', owner.teamId, '-50', 'correction')).code).toBe(0);
    const log = await logOf(owner, { action: 'credits.' });
    expect(log.map((e) => [e.action, e.actor.type, e.client_address, e.details.credits])).toEqual([
      ['credits.adjusted', 'operator', null, -50],
      ['credits.granted', 'operator', null, 250],
      ['credits.granted', 'system', null, 100],
    ]);
    expect(log[0]?.details).toMatchObject({ reason: 'correction', balance_after: 300 });
  });
});

describe('the chain', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of entries, and moving a chain head back', async () => {
    const owner = await person(t);
    const [entry] = await logOf(owner);
    for (const sql of [
      `UPDATE audit_events SET action = 'auth.sign_in' WHERE id = '${entry!.id}'`,
      `DELETE FROM audit_events WHERE id = '${entry!.id}'`,
      'TRUNCATE audit_events',
      `UPDATE audit_chain_heads SET seq = seq - 1 WHERE team_id = '${owner.teamId}'`,
      `DELETE FROM audit_chain_heads WHERE team_id = '${owner.teamId}'`,
      'TRUNCATE audit_chain_heads',
    ]) {
      await expect(t.db.query(sql), sql).rejects.toThrow(/audit/);
    }
    expect((await logOf(owner))[0]).toEqual(entry);
  });

  it('keeps one chain when many events of a team are appended at once', async () => {
    const owner = await person(t);
    const origin = { actor: { type: 'operator' as const, personId: null, apiKeyId: null }, request: null };
    const before = (await logOf(owner)).length;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        recordAuditEvent(t.db, {
          teamId: owner.teamId,
          action: 'credits.adjusted',
          origin,
          details: { i },
        }),
      ),
    );
    const log = (await logOf(owner)).reverse();
    expect(log.map((e) => e.seq)).toEqual(Array.from({ length: before + 40 }, (_, i) => i + 1));
    for (let i = 1; i < log.length; i++) expect(log[i]?.prev_hash).toBe(log[i - 1]?.hash);
    expect(new Set(log.map((e) => e.details.i).filter((i) => i !== undefined)).size).toBe(40);
    const verified = await audit('verify', '--team', owner.teamId);
    expect([verified.code, verified.out]).toEqual([
      0,
      expect.stringContaining(`Checked ${log.length} audit entries in 1 team.`),
    ]);
  });

  it('verify finds a changed entry, a removed one and a cut-off end (as a superuser with the triggers off)', async () => {
    const changed = await person(t);
    const removed = await person(t);
    const cut = await person(t);
    const healthy = await person(t);
    expect((await audit('verify')).code).toBe(0);
    const [changedEntry] = (await logOf(changed)).reverse();
    const [, removedEntry] = (await logOf(removed)).reverse();
    const cutLast = (await logOf(cut))[0]!;
    const client = await t.db.connect();
    try {
      await client.query('ALTER TABLE audit_events DISABLE TRIGGER USER');
      await client.query(`UPDATE audit_events SET details = '{"credits": 1000000}' WHERE id = $1`, [
        changedEntry!.id,
      ]);
      await client.query('DELETE FROM audit_events WHERE id = $1', [removedEntry!.id]);
      await client.query('DELETE FROM audit_events WHERE id = $1', [cutLast.id]);
    } finally {
      await client.query('ALTER TABLE audit_events ENABLE TRIGGER USER');
      client.release();
    }
    const one = await audit('verify', '--team', changed.teamId);
    expect(one.code).toBe(1);
    expect(one.out).toContain(`BROKEN: team ${changed.teamId}, at entry 1 (${changedEntry!.id})`);
    expect(one.out).toContain('do not match its hash');
    const all = await audit('verify');
    expect(all.code).toBe(1);
    expect(all.out).toContain(`team ${removed.teamId}, at entry 3`);
    expect(all.out).toContain('entry 2 is missing');
    expect(all.out).toContain(
      `team ${cut.teamId}, at entry ${cutLast.seq}: the chain ends at entry ${cutLast.seq - 1}`,
    );
    expect(all.out).not.toContain(healthy.teamId);
    expect((await audit('verify', '--team', healthy.teamId)).code).toBe(0);
    expect((await audit('verify', '--team', 'nope')).code).toBe(2);
  });

  it('runs as `npm run audit -- verify` from the server bundle, with its exit codes', async () => {
    const owner = await person(t);
    const npmRunAudit = operatorCommand(t, 'audit');
    const held = await npmRunAudit('verify', '--team', owner.teamId);
    expect(held).toEqual({ code: 0, out: expect.stringContaining('Every chain holds.') });
    const usage = await npmRunAudit('check');
    expect([usage.code, usage.out]).toEqual([2, expect.stringContaining('usage: npm run audit -- verify')]);
  }, 180_000);
});
