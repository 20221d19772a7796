import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Balance, LedgerEntry } from '../../../contract/billing.ts';
import { failure, person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

// No workers: the jobs made here stay queued, holding their estimate.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '500' }, { work: false });
});
afterAll(() => t.close());

async function sketch(client: Awaited<ReturnType<typeof person>>['client']) {
  return client.createImage({ body: { model: 'local-sketch', prompt: 'ledger', options: { cache: false } } });
}

describe('the balance', () => {
  it('is what new jobs can spend, beside what unfinished jobs hold', async () => {
    const owner = await person(t);
    expect(Balance.parse(await owner.client.getBalance())).toMatchObject({
      team_id: owner.teamId,
      balance_cents: 500,
      held_cents: 0,
    });
    const job = await sketch(owner.client);
    const held = job.pricing.estimated;
    const after = await t.clientFor(owner.apiKey).getBalance();
    expect(after).toMatchObject({ balance_cents: 500 - held, held_cents: held });
    expect(Date.parse(after.as_of)).not.toBeNaN();
  });

  it('says how credits are added here: without a top-up page, the command the operator runs', async () => {
    const owner = await person(t);
    expect((await owner.client.getBalance()).top_up).toEqual({
      url: null,
      command: `npm run credits -- grant ${owner.teamId} <credits>`,
    });
  });
});

describe('the ledger', () => {
  it('lists every change of the balance newest first, with the balance after each', async () => {
    const owner = await person(t);
    const job = await sketch(owner.client);
    const { data, next_cursor } = await owner.client.listLedgerEntries({ query: {} });
    expect(next_cursor).toBeNull();
    expect(data.map((e) => LedgerEntry.parse(e).kind)).toEqual(['hold', 'grant']);
    const [hold, grant] = data as [LedgerEntry, LedgerEntry];
    expect(grant).toMatchObject({
      delta_cents: 500,
      balance_after_cents: 500,
      source: 'internal',
      job_id: null,
    });
    expect(grant.note).toBeTruthy();
    expect(hold).toMatchObject({
      team_id: owner.teamId,
      job_id: job.id,
      tool: 'image',
      model: 'local-sketch',
      delta_cents: -job.pricing.estimated,
      balance_after_cents: 500 - job.pricing.estimated,
      person_id: owner.id,
      note: null,
    });
    expect(hold.id).toMatch(/^led_/);
  });

  it('filters by kind, job, tool, source and time, and pages with a cursor', async () => {
    const owner = await person(t);
    const first = await sketch(owner.client);
    const second = await sketch(t.clientFor(owner.apiKey));
    const list = (query: Record<string, unknown>) =>
      owner.client.listLedgerEntries({ query: query as never }).then((page) => page.data);
    expect((await list({ kind: 'grant' })).map((e) => e.kind)).toEqual(['grant']);
    expect((await list({ job: first.id })).map((e) => e.job_id)).toEqual([first.id]);
    expect((await list({ source: 'api' })).map((e) => e.job_id)).toEqual([second.id]);
    expect((await list({ source: 'internal' })).map((e) => e.kind)).toEqual(['grant']);
    expect(await list({ tool: 'video' })).toEqual([]);
    expect(await list({ created_from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect(await list({ created_to: new Date(Date.now() + 60_000).toISOString() })).toHaveLength(3);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await owner.client.listLedgerEntries({ query: { limit: 1, cursor } });
      seen.push(...page.data.map((e) => e.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual((await list({})).map((e) => e.id));
    expect(new Set(seen).size).toBe(3);
  });

  it("shows only the caller's team, and refuses a cursor no page gave", async () => {
    const a = await person(t);
    const b = await person(t);
    await sketch(a.client);
    const ofB = await b.client.listLedgerEntries({ query: {} });
    expect(ofB.data.every((e) => e.team_id === b.teamId)).toBe(true);
    expect(ofB.data).toHaveLength(1);
    const bad = await failure(a.client.listLedgerEntries({ query: { cursor: 'not-a-cursor' } }));
    expect([bad.status, bad.code]).toEqual([422, 'invalid_request']);
  });
});
