import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnalyticsBreakdownQuery, AnalyticsSummaryQuery } from '../../../contract/analytics.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { analyticsBreakdown } from './breakdown.ts';
import { seedDemo } from './demo-seed.ts';
import { analyticsSummary } from './summary.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(() => t.close());

describe('the demo history', () => {
  it('spans 13 months with every dimension, and a second run replaces the first', async () => {
    const now = new Date('2026-11-20T12:00:00Z');
    const first = await seedDemo(t.db, { charges: 6000, now, slug: 'demo-test' });
    const again = await seedDemo(t.db, { charges: 6000, now, slug: 'demo-test' });
    expect(again.charges).toBe(first.charges);
    expect(again.ledgerRows).toBe(first.ledgerRows);
    expect(first.charges).toBeGreaterThan(5500);
    const teams = await t.db.query("SELECT count(*)::int AS n FROM teams WHERE slug = 'demo-test'");
    expect(teams.rows[0].n).toBe(1);

    const viewer = {
      teamId: again.teamId,
      scope: 'full' as const,
      personId: null,
      role: 'owner' as const,
      apiKeyIds: [],
    };
    const year = { from: '2025-11-20', to: '2026-11-20', compare: 'none' };
    const summary = await analyticsSummary(t.db, viewer, AnalyticsSummaryQuery.parse(year));
    expect(summary.data.charges).toBeGreaterThan(5000);
    // The ledger balances: the team's balance is every top-up minus every charge, net of refunds.
    const { rows } = await t.db.query<{ balance: number; grants: number; spend: number }>(
      `SELECT (SELECT balance_cents FROM teams WHERE id = $1)::int AS balance,
              (SELECT sum(delta_cents) FROM credit_ledger WHERE team_id = $1 AND kind = 'grant')::int AS grants,
              (SELECT -sum(delta_cents) FROM credit_ledger WHERE team_id = $1 AND kind IN ('settle', 'refund'))::int AS spend`,
      [again.teamId],
    );
    expect(rows[0]!.balance).toBe(rows[0]!.grants - rows[0]!.spend);

    const keys = (dimension: string) =>
      analyticsBreakdown(t.db, viewer, AnalyticsBreakdownQuery.parse({ ...year, dimension })).then((b) =>
        b.data.map((r) => r.key),
      );
    expect(await keys('source')).toEqual(expect.arrayContaining(['api', 'app', 'mcp', 'internal']));
    expect((await keys('capability')).length).toBeGreaterThanOrEqual(7);
    expect((await keys('api_key')).length).toBeGreaterThanOrEqual(5);
    expect((await keys('member')).length).toBe(6); // five people and the internal runs without one
    expect(await keys('folder')).toContain(null);
    const statuses = await analyticsBreakdown(
      t.db,
      viewer,
      AnalyticsBreakdownQuery.parse({ ...year, dimension: 'status' }),
    );
    expect(statuses.data.map((r) => r.key).sort()).toEqual(['cancelled', 'completed', 'failed']);

    // A quiet month (7 months back) and a busy one (3 months back).
    const month = async (from: string, to: string) =>
      (await analyticsSummary(t.db, viewer, AnalyticsSummaryQuery.parse({ from, to, compare: 'none' }))).data
        .charges;
    const quiet = await month('2026-04-01', '2026-05-01');
    const busy = await month('2026-08-01', '2026-09-01');
    const usual = await month('2026-06-01', '2026-07-01');
    expect(quiet).toBeLessThan(usual / 2);
    expect(busy).toBeGreaterThan(usual * 2);

    // The price change: flux-schnell's unit price falls from 3 to 2 cents.
    const prices = await t.db.query<{ before: number; after: number }>(
      `SELECT min(estimated_cost_cents) FILTER (WHERE created_at < $2::timestamptz - interval '150 days')::int AS before,
              min(estimated_cost_cents) FILTER (WHERE created_at >= $2::timestamptz - interval '150 days')::int AS after
         FROM jobs WHERE team_id = $1 AND model = 'flux-schnell'`,
      [again.teamId, now],
    );
    expect(prices.rows[0]).toEqual({ before: 3, after: 2 });
  });

  it('lets two demo teams (two slugs) live side by side: job ids carry the slug', async () => {
    const a = await seedDemo(t.db, { charges: 50, slug: 'demo-side-a', email: 'side-a@example.com' });
    const b = await seedDemo(t.db, { charges: 50, slug: 'demo-side-b', email: 'side-b@example.com' });
    const { rows } = await t.db.query<{ team_id: string; n: number }>(
      'SELECT team_id, count(*)::int AS n FROM jobs WHERE team_id = ANY($1) GROUP BY team_id',
      [[a.teamId, b.teamId]],
    );
    expect(Object.fromEntries(rows.map((row) => [row.team_id, row.n]))).toEqual({
      [a.teamId]: a.jobs,
      [b.teamId]: b.jobs,
    });
  });
});
