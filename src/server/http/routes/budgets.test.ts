import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { CreatedApiKey } from '../../../contract/api-keys.ts';
import { budgetPeriod } from '../../../contract/budget-period.ts';
import { Budget, BudgetAlertEvent, SpendLimitExceededDetails } from '../../../contract/budgets.ts';
import { ErrorEnvelope } from '../../../contract/errors.ts';
import { type InstancePresence, startPresence } from '../../db/instance-presence.ts';
import { claimJob, completeJob } from '../../domain/jobs/job-lifecycle.ts';
import { startReceiver } from '../../domain/webhooks/webhook-test-support.ts';
import { failure, memberOf, type Person, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { until } from '../../testing/until.ts';

let t: TestApp;
beforeAll(async () => {
  // Jobs stay queued (no workers), so their holds stay as taken; alert receivers run on 127.0.0.1.
  t = await createTestApp({ ALLOW_PRIVATE_NETWORK: 'true' }, { work: false });
});
afterAll(() => t?.close());

let n = 0;
/** A 1-credit job (local-sketch), a new prompt each time so no cache hit makes it free. */
const sketch = (client: ReturnType<TestApp['clientFor']>, headers: Record<string, string> = {}) =>
  client.createImage({ body: { model: 'local-sketch', prompt: `budget job ${++n}` }, headers });

async function keyOf(owner: Person, spendLimit?: { credits: number; period: 'day' | 'week' | 'month' }) {
  const created = CreatedApiKey.parse(
    await owner.client.createApiKey({ body: { name: 'limited', spend_limit: spendLimit ?? null } }),
  );
  return { ...created, client: t.clientFor(created.api_key) };
}

const teamBudget = (owner: Person, fields: Record<string, unknown>) =>
  owner.client.createBudget({
    body: {
      scope: { type: 'team', id: owner.teamId },
      period: 'day',
      mode: 'cap',
      credits: 10,
      ...fields,
    } as never,
  });

describe('budgets: create, read, edit, delete and who may', () => {
  it('owners and managers change budgets, members read them; bad scopes and reset days are refused', async () => {
    const owner = await person(t);
    const manager = await memberOf(t, owner, 'manager');
    const member = await memberOf(t, owner, 'member');
    const hook = 'http://127.0.0.1:9/hooks/token-abc';
    const created = Budget.parse(
      await teamBudget(owner, { credits: 500, period: 'week', reset_day: 3, alert_webhook_url: hook }),
    );
    expect(created.alert_webhook_url).toBe(hook);
    expect(created).toMatchObject({
      scope: { type: 'team', id: owner.teamId },
      credits: 500,
      period: 'week',
      reset_day: 3,
      mode: 'cap',
      thresholds: [50, 80, 100],
      spent: 0,
      remaining: 500,
      timezone: 'UTC',
      forecast: { runs_out_at: null, credits_per_day: 0 },
    });
    expect(new Date(created.period_start).getUTCDay()).toBe(3);
    expect(Date.parse(created.resets_at) - Date.parse(created.period_start)).toBe(7 * 86_400_000);

    // Members read (acting for the owner's team) …
    const team = { 'x-team-id': owner.teamId };
    expect((await member.client.listBudgets({ headers: team })).data.map((b) => b.id)).toEqual([created.id]);
    const seen = await member.client.getBudget({ params: { id: created.id }, headers: team });
    expect(seen.id).toBe(created.id);
    // … without the receiver's URL, which may carry its own secret.
    expect(seen.alert_webhook_url).toBeNull();
    // … and change nothing.
    for (const call of [
      () =>
        member.client.createBudget({
          body: { scope: { type: 'team', id: owner.teamId }, period: 'day', mode: 'cap', credits: 5 },
          headers: team,
        }),
      () => member.client.updateBudget({ params: { id: created.id }, body: { credits: 1 }, headers: team }),
      () => member.client.deleteBudget({ params: { id: created.id }, headers: team }),
      () => member.client.updateTeamSettings({ body: { timezone: 'Europe/Paris' }, headers: team }),
    ]) {
      expect(await failure(call())).toMatchObject({ status: 403, code: 'forbidden' });
    }

    // A manager edits: a month from the 15th, alert only.
    const edited = await manager.client.updateBudget({
      params: { id: created.id },
      body: { period: 'month', reset_day: 15, mode: 'alert', thresholds: [90, 25] },
      headers: team,
    });
    expect(edited).toMatchObject({
      period: 'month',
      reset_day: 15,
      mode: 'alert',
      thresholds: [25, 90],
      credits: 500,
    });
    expect(new Date(edited.period_start).getUTCDate()).toBe(15);

    // Refused input: 422 naming the field, 404 for a scope of no one here.
    const bad = await failure(teamBudget(owner, { period: 'week', reset_day: 9 }));
    expect(bad).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(bad.message).toContain('reset_day');
    expect(await failure(teamBudget(owner, { thresholds: [50, 50] }))).toMatchObject({ status: 422 });
    expect(await failure(teamBudget(owner, { credits: 0 }))).toMatchObject({ status: 422 });
    const stranger = await person(t);
    const foreignKey = await keyOf(stranger);
    for (const scope of [
      { type: 'team', id: stranger.teamId },
      { type: 'member', id: stranger.id },
      { type: 'key', id: foreignKey.key.id },
      { type: 'folder', id: '00000000-0000-4000-8000-000000000000' },
    ]) {
      const refused = await failure(teamBudget(owner, { scope }));
      expect(refused).toMatchObject({ status: 404, code: 'not_found' });
    }
    // Another team's budget does not exist for them.
    expect(await failure(stranger.client.getBudget({ params: { id: created.id } }))).toMatchObject({
      status: 404,
    });

    await manager.client.deleteBudget({ params: { id: created.id }, headers: team });
    expect((await owner.client.listBudgets()).data).toEqual([]);
    expect(await failure(owner.client.getBudget({ params: { id: created.id } }))).toMatchObject({
      status: 404,
    });
  });

  it('a daily budget in a daylight-saving zone counts its period in the team time zone', async () => {
    const owner = await person(t);
    await owner.client.updateTeamSettings({ body: { timezone: 'America/New_York' } });
    expect(await owner.client.getTeamSettings()).toEqual({ timezone: 'America/New_York' });
    expect(
      await failure(owner.client.updateTeamSettings({ body: { timezone: 'Mars/Olympus' } })),
    ).toMatchObject({
      status: 422,
    });
    for (const [period, reset_day] of [
      ['day', undefined],
      ['week', 7],
      ['month', 28],
    ] as const) {
      const budget = Budget.parse(await teamBudget(owner, { period, reset_day, credits: 100 }));
      const now = Date.now();
      const expected = budgetPeriod(period, reset_day ?? 1, 'America/New_York', now);
      expect([budget.period_start, budget.resets_at]).toEqual([
        expected.start.toISOString(),
        expected.end.toISOString(),
      ]);
      expect(budget.timezone).toBe('America/New_York');
    }
  });
});

describe('hard caps', () => {
  it('accepts exactly 10 of 50 parallel 1-credit jobs under a cap of 10 and refuses 40 with 402 spend_limit_exceeded', async () => {
    const owner = await person(t);
    const budget = Budget.parse(await teamBudget(owner, { credits: 10, thresholds: [] }));
    const client = t.clientFor(owner.apiKey);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => sketch(client)));
    const accepted = results.filter((r) => r.status === 'fulfilled');
    const refused = results
      .filter((r) => r.status === 'rejected')
      .map((r) => (r as PromiseRejectedResult).reason as ApiError);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const error of refused) {
      expect(error).toMatchObject({ status: 402, code: 'spend_limit_exceeded' });
      expect(SpendLimitExceededDetails.parse(error.details)).toMatchObject({
        remaining: 0,
        limit: 10,
        period: 'day',
        required: 1,
        budget_id: budget.id,
        scope: { type: 'team', id: owner.teamId },
        resets_at: budget.resets_at,
      });
    }
    expect(await owner.client.getBudget({ params: { id: budget.id } })).toMatchObject({
      spent: 10,
      remaining: 0,
    });
  });

  it('gives a cancelled job its share back, and counts a pipeline as the sum of its steps', async () => {
    const owner = await person(t);
    const budget = await teamBudget(owner, { credits: 2, thresholds: [] });
    const client = t.clientFor(owner.apiKey);
    const first = await sketch(client);
    await sketch(client);
    expect(await failure(sketch(client))).toMatchObject({ status: 402, code: 'spend_limit_exceeded' });
    await client.cancelJob({ params: { id: first.id } });
    expect(await owner.client.getBudget({ params: { id: budget.id } })).toMatchObject({
      spent: 1,
      remaining: 1,
    });
    // One credit left: a two-step pipeline (2 credits) is refused before any step starts …
    const pipeline = await failure(
      client.runPipeline({
        body: {
          steps: [
            { id: 'a', tool: 'image', input: { model: 'local-sketch', prompt: 'pipe a' } },
            { id: 'b', tool: 'image', input: { model: 'local-sketch', prompt: 'pipe b' } },
          ],
        } as never,
      }),
    );
    expect(pipeline).toMatchObject({ status: 402, code: 'spend_limit_exceeded' });
    expect(pipeline.details).toMatchObject({ remaining: 1, required: 2 });
    // … and the cancelled job's credit is there for a new job.
    await sketch(client);
  });

  it('a job counts in the period its hold fell in: moved back a period, the cap has room again (the reset)', async () => {
    const owner = await person(t);
    const budget = await teamBudget(owner, { credits: 1, thresholds: [] });
    const client = t.clientFor(owner.apiKey);
    const job = await sketch(client);
    expect(await failure(sketch(client))).toMatchObject({ status: 402 });
    // As if the job had been made yesterday: its ledger rows move back a day.
    await t.db.query(
      `UPDATE credit_ledger SET created_at = created_at - interval '1 day' WHERE job_id = $1`,
      [job.id],
    );
    expect(await owner.client.getBudget({ params: { id: budget.id } })).toMatchObject({
      spent: 0,
      remaining: 1,
    });
    await sketch(client);
  });

  it("caps a member's, a folder's and a key's jobs and leaves others alone", async () => {
    const owner = await person(t);
    const member = await memberOf(t, owner, 'member');
    const folder = (await owner.client.createFolder({ body: { name: 'Campaign' } })).workspace;
    // The member's session, acting for the owner's team.
    const asMember = t.clientFor(member.token);
    const memberJob = () => sketch(asMember, { 'x-team-id': owner.teamId });
    await teamBudget(owner, { scope: { type: 'member', id: member.id }, credits: 1, thresholds: [] });
    await teamBudget(owner, { scope: { type: 'folder', id: folder.id }, credits: 1, thresholds: [] });
    await memberJob();
    expect(await failure(memberJob())).toMatchObject({ status: 402, details: { scope: { type: 'member' } } });
    const ownerKey = t.clientFor(owner.apiKey);
    await sketch(ownerKey);
    await sketch(ownerKey, { 'x-workspace-id': folder.id });
    expect(await failure(sketch(ownerKey, { 'x-workspace-id': folder.id }))).toMatchObject({
      status: 402,
      details: { scope: { type: 'folder', id: folder.id } },
    });
    const key = await keyOf(owner);
    await teamBudget(owner, { scope: { type: 'key', id: key.key.id }, credits: 1, thresholds: [] });
    await sketch(key.client);
    expect(await failure(sketch(key.client))).toMatchObject({
      status: 402,
      details: { scope: { type: 'key' } },
    });
    await sketch(ownerKey);
  });
});

describe('key spend limits', () => {
  it('a key created with spend_limit shows it, and a job past it answers 402 saying what is left and when it resets', async () => {
    const owner = await person(t);
    const key = await keyOf(owner, { credits: 2, period: 'day' });
    expect(key.key.spend_limit).toEqual({ credits: 2, period: 'day' });
    expect((await owner.client.listApiKeys()).data.find((k) => k.id === key.key.id)?.spend_limit).toEqual({
      credits: 2,
      period: 'day',
    });
    await sketch(key.client);
    await sketch(key.client);
    const response = await t.request('/v2/image', {
      method: 'POST',
      headers: { authorization: `Bearer ${key.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local-sketch', prompt: 'one too many' }),
    });
    expect(response.status).toBe(402);
    const { error } = ErrorEnvelope.parse(await response.json());
    const resetsAt = budgetPeriod('day', 1, 'UTC', Date.now()).end.toISOString();
    expect(error.code).toBe('spend_limit_exceeded');
    expect(error.details).toEqual({
      remaining: 0,
      resets_at: resetsAt,
      limit: 2,
      period: 'day',
      required: 1,
      budget_id: null,
      scope: { type: 'key', id: key.key.id },
    });
    expect(error.message).toBe(
      `This API key's spend limit is 2 credits a day: 0 credits are left until it resets at ${resetsAt}, and this job needs 1.`,
    );
    // Other keys of the team are not limited by it, and the limit is not a budget of the list.
    await sketch(t.clientFor(owner.apiKey));
    expect((await owner.client.listBudgets()).data).toEqual([]);
    expect(
      await failure(
        owner.client.createApiKey({ body: { name: 'x', spend_limit: { credits: 0, period: 'day' } } }),
      ),
    ).toMatchObject({
      status: 422,
    });
  });
});

describe('alerts', () => {
  it('sends each threshold once per period, by mail and as a signed webhook, even when jobs cross it together', async () => {
    const receiver = await startReceiver(() => 204);
    try {
      const owner = await person(t);
      const budget = await teamBudget(owner, {
        credits: 4,
        mode: 'alert',
        thresholds: [50, 100],
        alert_emails: ['finance@example.com', owner.email],
        alert_webhook_url: receiver.url,
      });
      // The team's webhook endpoints subscribed to budget alerts get each alert queued too.
      const endpoint = await owner.client.createWebhookEndpoint({
        body: { url: receiver.url, events: ['budget.threshold_reached'] },
      });
      const client = t.clientFor(owner.apiKey);
      // Alert only: six jobs run past the four credits, three at a time.
      for (let round = 0; round < 2; round++) {
        await Promise.all(Array.from({ length: 3 }, () => sketch(client)));
      }
      await until(() => receiver.received.length >= 2);
      const { secret } = await owner.client.getWebhookSecret();
      const events = receiver.received.map((r) =>
        BudgetAlertEvent.parse(new Webhook(secret).verify(r.body, r.headers)),
      );
      expect(events.map((e) => e.data.threshold).sort()).toEqual([100, 50]);
      expect(events[0]!.data).toMatchObject({
        budget_id: budget.id,
        team_id: owner.teamId,
        credits: 4,
        mode: 'alert',
      });
      expect(events.every((e) => e.type === 'budget.threshold_reached')).toBe(true);

      const mails = async () => (await t.local.devMailbox({ query: { to: 'finance@example.com' } })).data;
      await until(
        async () =>
          (await mails()).filter((m) => m.subject.includes(budget.id) || m.text.includes(budget.id)).length >=
          2,
      );
      const mine = (await mails()).filter((m) => m.text.includes(budget.id));
      expect(mine.map((m) => m.subject).sort()).toEqual([
        expect.stringContaining('Budget 100% reached'),
        expect.stringContaining('Budget 50% reached'),
      ]);
      // More spend in the same period sends nothing again.
      await sketch(client);
      expect((await owner.client.getBudget({ params: { id: budget.id } })).alerts_sent).toEqual([50, 100]);
      const { rows } = await t.db.query('SELECT threshold FROM budget_alerts WHERE budget_id = $1', [
        budget.id,
      ]);
      expect(rows).toHaveLength(2);
      expect(receiver.received).toHaveLength(2);
      const queued = await t.db.query<{ payload: { data: { threshold: number } } }>(
        `SELECT payload FROM webhook_deliveries WHERE endpoint_id = $1 AND event_type = 'budget.threshold_reached'`,
        [endpoint.id],
      );
      expect(queued.rows.map((r) => r.payload.data.threshold).sort()).toEqual([100, 50]);
    } finally {
      await receiver.close();
    }
  });

  it('a charge above the hold alerts when the job settles, not at the next job', async () => {
    const receiver = await startReceiver(() => 204);
    let presence: InstancePresence | undefined;
    try {
      const owner = await person(t);
      await teamBudget(owner, {
        credits: 3,
        mode: 'alert',
        thresholds: [100],
        alert_webhook_url: receiver.url,
      });
      // One credit held at creation: a third of the budget, no alert.
      const job = await sketch(t.clientFor(owner.apiKey));
      expect(job.estimated_cost_cents).toBe(1);
      // The worker's own path: claimed, then completed with a charge of three credits (a provider that
      // billed more than estimated), then the terminal hook every finished job goes through.
      presence = await startPresence(t.db, t.services.log);
      const lease = await claimJob(t.db, job.id, presence.key, 60, { start: true });
      const done = await completeJob(
        t.db,
        job.id,
        {
          output: { version: 'v1', outputs: [] },
          billedUnits: {},
          actualCents: 3,
          cached: false,
          providerStatus: 'succeeded',
        },
        lease!.token,
      );
      expect(done?.actual_cost_cents).toBe(3);
      await t.services.onJobTerminal(done!);
      await until(() => receiver.received.length === 1);
      const { secret } = await owner.client.getWebhookSecret();
      const event = BudgetAlertEvent.parse(
        new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers),
      );
      expect(event.data).toMatchObject({ threshold: 100, spent: 3, credits: 3 });
    } finally {
      await presence?.stop();
      await receiver.close();
    }
  });

  it('a webhook that fails or a bad address never fails the job', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const owner = await person(t);
      await teamBudget(owner, {
        credits: 1,
        mode: 'alert',
        thresholds: [100],
        alert_webhook_url: receiver.url,
      });
      const job = await sketch(t.clientFor(owner.apiKey));
      expect(job.status).toBe('queued');
      await until(() => receiver.received.length === 1);
    } finally {
      await receiver.close();
    }
  });
});
