import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../src/server/testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../src/server/testing/test-app.ts';
import { runCredits } from './credits-command.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '100' }, { work: false });
});
afterAll(() => t.close());

/**
 * The command in-process on the test's database (starting `tsx` per call cost seconds each); the CLI
 * around it is a thin wrapper. `out` is what it printed, answers then refusals, as a terminal shows it.
 */
async function credits(...args: string[]) {
  let out = '';
  const print = (text: string) => {
    out += text;
  };
  const code = await runCredits(t.db, args, { out: print, err: print });
  return { code, out };
}

describe('npm run credits', () => {
  it("grants credits to a person's team by email, written to the ledger with its note", async () => {
    const owner = await person(t);
    const granted = await credits('grant', owner.email.toUpperCase(), '250', 'pilot', 'top-up');
    expect(granted.code).toBe(0);
    expect(granted.out).toContain('Granted 250 credits');
    expect(granted.out).toContain('350 credits');
    expect((await owner.client.getBalance()).balance_cents).toBe(350);
    const [entry] = (await owner.client.listLedgerEntries({ query: { kind: 'grant', limit: 1 } })).data;
    expect(entry).toMatchObject({ delta_cents: 250, balance_after_cents: 350, note: 'pilot top-up' });
    const shown = await credits('balance', owner.teamId);
    expect([shown.code, shown.out]).toEqual([0, expect.stringContaining('350 credits')]);
  });

  it('refuses an unknown team and an amount that is not a positive whole number', async () => {
    const unknown = await credits('grant', 'nobody@example.com', '10');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('No team is named by nobody@example.com');
    for (const args of [
      ['grant', 'nobody@example.com', '0'],
      ['grant', 'nobody@example.com', '2.5'],
      ['grant', 'nobody@example.com', '1e3'],
      // An adjustment says which way, and why.
      ['adjust', 'nobody@example.com', '10', 'why'],
      ['adjust', 'nobody@example.com', '-10'],
      ['refund', 'job_x', 'some'],
    ]) {
      const refused = await credits(...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.out).toContain('usage: npm run credits');
    }
  });

  it('adjusts a balance either way with its reason, and refunds a job of the team', async () => {
    const owner = await person(t);
    const raised = await credits('adjust', owner.email, '+40', 'credit', 'note', '7');
    expect(raised.code).toBe(0);
    expect(raised.out).toContain('140 credits');
    const refused = await credits('adjust', owner.teamId, '-141', 'too', 'much');
    expect([refused.code, refused.out]).toEqual([1, expect.stringContaining('would leave it below zero')]);
    expect((await credits('adjust', owner.teamId, '-30', 'correction')).code).toBe(0);
    const entries = await owner.client.listLedgerEntries({ query: { kind: 'adjustment' } });
    expect(entries.data.map((e) => [e.delta_cents, e.note])).toEqual([
      [-30, 'correction'],
      [40, 'credit note 7'],
    ]);

    const jobId = 'job_refund_by_command';
    await t.db.query(
      `INSERT INTO jobs (id, team_id, source, tool, model, status, input, estimated_duration_ms,
                         estimated_cost_cents, actual_cost_cents, pricing_id, billing, provider, provider_model)
       VALUES ($1, $2, 'app', 'image', 'local-sketch', 'completed', '{}', 1000, 6, 6, 'price', 'per_image',
               'local', 'local:local-sketch')`,
      [jobId, owner.teamId],
    );
    await t.db.query(
      `INSERT INTO credit_ledger (team_id, delta_cents, balance_after_cents, kind, source, tool, model, job_id, job_status)
       VALUES ($1, -6, 104, 'settle', 'app', 'image', 'local-sketch', $2, 'completed')`,
      [owner.teamId, jobId],
    );
    await t.db.query('UPDATE teams SET balance_cents = 104 WHERE id = $1', [owner.teamId]);
    const part = await credits('refund', jobId, '2', 'blurry');
    expect([part.code, part.out]).toEqual([
      0,
      expect.stringContaining('Refunded 2 credits of job_refund_by_command'),
    ]);
    expect(part.out).toContain('4 credits of its charge left to refund');
    const rest = await credits('refund', jobId, 'all');
    expect(rest.out).toContain('Refunded 4 credits');
    expect(rest.out).toContain('110 credits');
    const again = await credits('refund', jobId, 'all');
    expect([again.code, again.out]).toEqual([1, expect.stringContaining('refunded already')]);
  });
});
