import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../db/pool.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { type ChargeAttribution, hold, release, settle } from './ledger.ts';

let t: TestApp;
let teamId: string;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '10' }, { work: false });
  teamId = (await t.clientFor((await signUp(t)).api_key).getMe()).team.id;
});
afterAll(() => t.close());

const attribution = (jobId: string): ChargeAttribution => ({
  teamId,
  personId: null,
  apiKeyId: null,
  source: 'api',
  tool: 'image',
  model: 'local-sketch',
  folderId: null,
  jobId,
  jobStatus: 'queued',
});

const balance = async () =>
  (await t.db.query<{ balance_cents: number }>('SELECT balance_cents FROM teams WHERE id = $1', [teamId]))
    .rows[0]!.balance_cents;

describe('the credit ledger', () => {
  it('holds only what is there, settles the actual cost, refunds the rest, and caps a cost at what the team has', async () => {
    expect(await transaction(t.db, (tx) => hold(tx, 11, attribution('job_a')))).toBe(false);
    expect(await balance()).toBe(10);
    expect(await transaction(t.db, (tx) => hold(tx, 4, attribution('job_b')))).toBe(true);
    expect(await balance()).toBe(6);
    // Cheaper than estimated: 4 held, 3 charged.
    expect(await transaction(t.db, (tx) => settle(tx, 4, 3, attribution('job_b')))).toBe(3);
    expect(await balance()).toBe(7);
    // Dearer than hold + balance: charged only what there is, never below zero.
    await transaction(t.db, (tx) => hold(tx, 2, attribution('job_c')));
    expect(await transaction(t.db, (tx) => settle(tx, 2, 50, attribution('job_c')))).toBe(7);
    expect(await balance()).toBe(0);
    await transaction(t.db, (tx) => release(tx, 0, attribution('job_d')));
    const { rows } = await t.db.query<{ sum: number; min: number }>(
      'SELECT sum(delta_cents)::int AS sum, min(balance_after_cents)::int AS min FROM credit_ledger WHERE team_id = $1',
      [teamId],
    );
    expect(rows[0]).toEqual({ sum: 0, min: 0 });
  });
});
