import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transaction } from '../../db/pool.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { adjustCredits, CorrectionRefused, refundJob } from './corrections.ts';
import { type ChargeAttribution, hold, settle } from './ledger.ts';

let t: TestApp;
let key: string;
let teamId: string;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '100' }, { work: false });
  key = (await signUp(t)).api_key;
  teamId = (await t.clientFor(key).getMe()).team.id;
});
afterAll(() => t.close());

const balance = async () =>
  Number((await t.db.query('SELECT balance_cents FROM teams WHERE id = $1', [teamId])).rows[0].balance_cents);

/** A job of the team's that ran through the ledger as the engine runs one: held, then settled at `cost`. */
async function chargedJob(id: string, cost: number, tool = 'image'): Promise<string> {
  await t.db.query(
    `INSERT INTO jobs (id, team_id, api_key_id, source, tool, model, status, input, estimated_duration_ms,
                       estimated_cost_cents, actual_cost_cents, pricing_id, billing, provider, provider_model)
     VALUES ($1, $2, 'key_refund', 'api', $3, 'local-sketch', 'completed', '{}', 1000, $4, $4, 'price', 'per_image',
             'local', 'local:local-sketch')`,
    [id, teamId, tool, cost],
  );
  const attribution: ChargeAttribution = {
    teamId,
    personId: null,
    apiKeyId: 'key_refund',
    source: 'api',
    tool,
    model: 'local-sketch',
    folderId: null,
    jobId: id,
    jobStatus: 'queued',
  };
  await transaction(t.db, async (tx) => {
    await hold(tx, cost, attribution);
    await settle(tx, cost, cost, { ...attribution, jobStatus: 'completed' });
  });
  return id;
}

const refund = (jobId: string, credits: number | null, note = 'bad output') =>
  transaction(t.db, (tx) => refundJob(tx, jobId, credits, note));
const adjust = (delta: number, note: string) =>
  transaction(t.db, (tx) => adjustCredits(tx, teamId, delta, note));

async function refusal(call: Promise<unknown>): Promise<string> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CorrectionRefused);
  return (error as Error).message;
}

async function spend(): Promise<{ spend_cents: number; unattributed_spend_cents: number; charges: number }> {
  const today = new Date().toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const response = await t.request(`/v2/analytics/summary?from=${today}&to=${tomorrow}&compare=none`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return (await response.json()).data;
}

describe('refunds', () => {
  it('give back a charge in parts, with the charge’s attribution, and never more than it cost', async () => {
    const jobId = await chargedJob('job_refund_parts', 7);
    const before = await balance();
    const spentBefore = (await spend()).spend_cents;

    expect(await refund(jobId, 3)).toMatchObject({ teamId, refunded: 3, refundable: 4, balance: before + 3 });
    expect(await refusal(refund(jobId, 5))).toBe(`Job ${jobId} has 4 credits left to refund, not 5.`);
    expect(await refund(jobId, null, 'the rest')).toMatchObject({ refunded: 4, refundable: 0 });
    expect(await refusal(refund(jobId, 1))).toContain('its charge was refunded already');
    expect(await balance()).toBe(before + 7);

    const { rows } = await t.db.query(
      `SELECT delta_cents, kind, reason, api_key_id, source, tool, model, job_status, balance_after_cents
         FROM credit_ledger WHERE job_id = $1 AND kind = 'refund' ORDER BY id`,
      [jobId],
    );
    expect(rows).toEqual([
      expect.objectContaining({
        delta_cents: 3,
        reason: 'bad output',
        api_key_id: 'key_refund',
        tool: 'image',
      }),
      expect.objectContaining({ delta_cents: 4, reason: 'the rest', source: 'api', job_status: 'completed' }),
    ]);
    expect(Number(rows[1].balance_after_cents)).toBe(before + 7);
    // Spend is net of refunds, in the figures the charge was counted in (not as unattributed).
    const spent = await spend();
    expect(spent.spend_cents).toBe(spentBefore - 7);
    expect(spent.unattributed_spend_cents).toBe(0);
    const page = await t.clientFor(key).listLedgerEntries({ query: { job: jobId, kind: 'refund' } });
    expect(page.data.map((entry) => [entry.delta_cents, entry.note])).toEqual([
      [4, 'the rest'],
      [3, 'bad output'],
    ]);
  });

  it('taken twice at once give back the charge once', async () => {
    const jobId = await chargedJob('job_refund_race', 5);
    const before = await balance();
    const outcomes = await Promise.allSettled([refund(jobId, null), refund(jobId, null)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await balance()).toBe(before + 5);
  });

  it('say why a job has nothing to refund', async () => {
    expect(await refusal(refund('job_unknown', null))).toBe('No job job_unknown.');
    const free = await chargedJob('job_refund_free', 0);
    expect(await refusal(refund(free, null))).toBe(
      `Job ${free} has nothing to refund: it was not charged (completed).`,
    );
    const pipeline = await chargedJob('job_refund_pipeline', 0, 'pipeline');
    expect(await refusal(refund(pipeline, null))).toContain('a pipeline is charged through its steps');
  });
});

describe('adjustments', () => {
  it('correct the balance either way with their reason, and never below zero', async () => {
    const before = await balance();
    const unattributedBefore = (await spend()).unattributed_spend_cents;
    expect(await adjust(25, 'invoice 118 paid twice')).toEqual({ balance: before + 25 });
    expect(await refusal(adjust(-(before + 26), 'too much'))).toBe(
      `The balance is ${before + 25} credits: taking ${before + 26} would leave it below zero.`,
    );
    expect(await adjust(-(before + 25), 'account closed')).toEqual({ balance: 0 });
    const { rows } = await t.db.query(
      `SELECT delta_cents, reason, source, job_id FROM credit_ledger
        WHERE team_id = $1 AND kind = 'adjustment' ORDER BY id`,
      [teamId],
    );
    expect(rows).toEqual([
      { delta_cents: 25, reason: 'invoice 118 paid twice', source: 'internal', job_id: null },
      { delta_cents: -(before + 25), reason: 'account closed', source: 'internal', job_id: null },
    ]);
    // Spend no job, key or member is behind: 25 given back, then before + 25 taken.
    expect((await spend()).unattributed_spend_cents - unattributedBefore).toBe(before);
  });
});
