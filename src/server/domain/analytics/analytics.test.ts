import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnalyticsActivityQuery,
  AnalyticsBreakdownQuery,
  AnalyticsSummaryQuery,
  AnalyticsTimeseriesQuery,
  type AnalyticsTotals,
} from '../../../contract/analytics.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { analyticsActivity } from './activity.ts';
import { insertJob, insertLedgerRows, insertTeam, type LedgerRow } from './analytics-test-support.ts';
import { analyticsBreakdown } from './breakdown.ts';
import type { Viewer } from './filters.ts';
import { analyticsSummary } from './summary.ts';
import { analyticsTimeseries } from './timeseries.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
});
afterAll(() => t.close());

const full = (teamId: string): Viewer => ({
  teamId,
  scope: 'full',
  personId: null,
  role: 'owner',
  apiKeyIds: [],
});

describe('day buckets across daylight-saving changes (America/New_York)', () => {
  let teamId: string;
  beforeAll(async () => {
    teamId = await insertTeam(t.db);
    await insertLedgerRows(t.db, teamId, [
      // 2025-03-09 23:30 EDT (the short day) and 2025-11-02 23:30 EST (the long day).
      { at: '2025-03-10T03:30:00Z', kind: 'settle', delta: -5, jobId: 'job_m' },
      { at: '2025-03-10T04:00:00Z', kind: 'settle', delta: -7, jobId: 'job_m2' },
      { at: '2025-11-03T04:30:00Z', kind: 'settle', delta: -11, jobId: 'job_n' },
      { at: '2025-11-03T05:00:00Z', kind: 'settle', delta: -13, jobId: 'job_n2' },
    ]);
  });
  const series = (from: string, to: string, bucket = 'day') =>
    analyticsTimeseries(
      t.db,
      full(teamId),
      AnalyticsTimeseriesQuery.parse({ from, to, timezone: 'America/New_York', bucket }),
    );

  it('makes March 9 a 23-hour day and keeps empty days as zero', async () => {
    const { data } = await series('2025-03-08', '2025-03-11');
    expect(data.map((b) => [b.start, b.end, b.spend_cents])).toEqual([
      ['2025-03-08T05:00:00.000Z', '2025-03-09T05:00:00.000Z', 0],
      ['2025-03-09T05:00:00.000Z', '2025-03-10T04:00:00.000Z', 5],
      ['2025-03-10T04:00:00.000Z', '2025-03-11T04:00:00.000Z', 7],
    ]);
  });

  it('makes November 2 a 25-hour day', async () => {
    const { data } = await series('2025-11-01', '2025-11-04');
    expect(data.map((b) => [b.start, b.end, b.spend_cents])).toEqual([
      ['2025-11-01T04:00:00.000Z', '2025-11-02T04:00:00.000Z', 0],
      ['2025-11-02T04:00:00.000Z', '2025-11-03T05:00:00.000Z', 11],
      ['2025-11-03T05:00:00.000Z', '2025-11-04T05:00:00.000Z', 13],
    ]);
  });

  it('steps hours as real hours across the change and months by the calendar', async () => {
    const hours = await series('2025-11-02T00:00', '2025-11-02T03:00', 'hour');
    // 00:00 to 03:00 local on the long day is four real hours.
    expect(hours.data.map((b) => b.start)).toEqual([
      '2025-11-02T04:00:00.000Z',
      '2025-11-02T05:00:00.000Z',
      '2025-11-02T06:00:00.000Z',
      '2025-11-02T07:00:00.000Z',
    ]);
    const months = await series('2025-02-15', '2025-04-02', 'month');
    expect(months.data.map((b) => [b.start, b.end])).toEqual([
      ['2025-02-15T05:00:00.000Z', '2025-03-01T05:00:00.000Z'],
      ['2025-03-01T05:00:00.000Z', '2025-04-01T04:00:00.000Z'],
      ['2025-04-01T04:00:00.000Z', '2025-04-02T04:00:00.000Z'],
    ]);
    const weeks = await series('2025-03-05', '2025-03-20', 'week');
    // Weeks start on Monday (March 10 and 17).
    expect(weeks.data.map((b) => b.start)).toEqual([
      '2025-03-05T05:00:00.000Z',
      '2025-03-10T04:00:00.000Z',
      '2025-03-17T04:00:00.000Z',
    ]);
    expect(weeks.data.reduce((s, b) => s + b.spend_cents, 0)).toBe(12);
  });
});

describe('sums that match the ledger row by row', () => {
  let teamId: string;
  const rows: LedgerRow[] = [];
  const folder = randomUUID();
  const person = randomUUID();
  const kinds: LedgerRow['kind'][] = ['grant', 'hold', 'release', 'settle', 'settle', 'refund', 'adjustment'];
  const statuses = ['completed', 'failed', 'cancelled', null];

  beforeAll(async () => {
    teamId = await insertTeam(t.db);
    // mulberry32: a seeded generator, so a failure can be replayed.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) % n;
    };
    for (let i = 0; i < 400; i++) {
      const kind = kinds[rand(kinds.length)]!;
      const amount = 1 + rand(500);
      const credit =
        kind === 'grant' ||
        kind === 'release' ||
        kind === 'refund' ||
        (kind === 'adjustment' && rand(2) === 0);
      rows.push({
        at: new Date(Date.UTC(2025, 5, 1) + rand(40 * 86_400) * 1000 + rand(1000)).toISOString(),
        kind,
        delta: credit ? amount : kind === 'settle' && rand(10) === 0 ? 0 : -amount,
        tool: rand(5) === 0 ? null : ['image', 'video', 'speech'][rand(3)]!,
        model: ['a', 'b', 'c', 'd'][rand(4)]!,
        folderId: rand(2) ? folder : null,
        apiKeyId: rand(3) ? `key_${rand(3)}` : null,
        personId: rand(2) ? person : null,
        source: (['app', 'api', 'mcp', null] as const)[rand(4)]!,
        jobId: rand(6) ? `job_${i}` : null,
        jobStatus: kind === 'settle' ? 'completed' : statuses[rand(4)]!,
      });
    }
    await insertLedgerRows(t.db, teamId, rows);
  });

  const counted = (r: LedgerRow) => r.kind === 'settle' || r.kind === 'refund' || r.kind === 'adjustment';
  function expected(pick: (r: LedgerRow) => boolean): Omit<AnalyticsTotals, 'runs'> {
    const mine = rows.filter((r) => counted(r) && pick(r));
    const spend = (list: LedgerRow[]) => list.reduce((s, r) => s - r.delta, 0);
    return {
      spend_cents: spend(mine),
      charges: mine.filter((r) => r.delta < 0).length,
      jobs: mine.filter((r) => r.kind === 'settle' && r.delta < 0).length,
      unsuccessful_spend_cents: spend(
        mine.filter((r) => r.jobStatus === 'failed' || r.jobStatus === 'cancelled'),
      ),
      unattributed_spend_cents: spend(mine.filter((r) => !r.jobId && !r.apiKeyId && !r.personId)),
    };
  }
  const inRange = (from: string, to: string) => (r: LedgerRow) =>
    Date.parse(r.at) >= Date.parse(from) && Date.parse(r.at) < Date.parse(to);
  const FROM = '2025-06-05T00:00:00Z';
  const TO = '2025-07-03T12:00:00Z';

  it('summary, series, breakdown and activity all add up to the ledger', async () => {
    const query = { from: FROM, to: TO, compare: 'none' };
    const want = { ...expected(inRange(FROM, TO)), runs: 0 };
    const summary = await analyticsSummary(t.db, full(teamId), AnalyticsSummaryQuery.parse(query));
    expect(summary.data).toMatchObject(want);

    const series = await analyticsTimeseries(
      t.db,
      full(teamId),
      AnalyticsTimeseriesQuery.parse({ ...query, timezone: 'Europe/Paris' }),
    );
    for (const bucket of series.data)
      expect(bucket).toMatchObject(expected(inRange(bucket.start, bucket.end)));
    expect(series.data[0]!.start).toBe('2025-06-05T00:00:00.000Z');
    expect(series.data.at(-1)!.end).toBe('2025-07-03T12:00:00.000Z');

    for (const dimension of ['capability', 'model', 'folder', 'api_key', 'source', 'status'] as const) {
      const breakdown = await analyticsBreakdown(
        t.db,
        full(teamId),
        AnalyticsBreakdownQuery.parse({ ...query, dimension, limit: '100' }),
      );
      const total = breakdown.data.reduce((s, r) => s + r.spend_cents, 0);
      expect(total, dimension).toBe(want.spend_cents);
    }
    const byModel = await analyticsBreakdown(
      t.db,
      full(teamId),
      AnalyticsBreakdownQuery.parse({ ...query, dimension: 'model', limit: '2' }),
    );
    expect(byModel.data).toHaveLength(3);
    expect(byModel.data[2]).toMatchObject({ key: null, other: true, label: 'Other' });
    for (const row of byModel.data.slice(0, 2)) {
      expect(row).toMatchObject(expected((r) => inRange(FROM, TO)(r) && r.model === row.key));
    }
    expect(byModel.data[0]!.spend_cents).toBeGreaterThanOrEqual(byModel.data[1]!.spend_cents);

    let cursor: string | undefined;
    let spend = 0;
    let charges = 0;
    let items = 0;
    do {
      const page = await analyticsActivity(
        t.db,
        full(teamId),
        AnalyticsActivityQuery.parse({ ...query, limit: '37', ...(cursor ? { cursor } : {}) }),
      );
      spend += page.data.reduce((s, i) => s + i.spend_cents, 0);
      charges += page.data.reduce((s, i) => s + i.charges, 0);
      items += page.data.length;
      cursor = page.meta.next_cursor ?? undefined;
    } while (cursor);
    expect({ spend, charges, items }).toEqual({
      spend: want.spend_cents,
      charges: want.charges,
      items: rows.filter((r) => counted(r) && inRange(FROM, TO)(r)).length,
    });
  });

  it('filters exactly as the rows say', async () => {
    const summary = await analyticsSummary(
      t.db,
      full(teamId),
      AnalyticsSummaryQuery.parse({
        from: FROM,
        to: TO,
        model: 'a,b',
        folder: 'none',
        source: 'unknown,app',
      }),
    );
    expect(summary.data).toMatchObject(
      expected(
        (r) =>
          inRange(FROM, TO)(r) &&
          (r.model === 'a' || r.model === 'b') &&
          r.folderId === null &&
          (r.source === null || r.source === 'app'),
      ),
    );
    expect(summary.data.previous).toMatchObject(
      expected(
        (r) =>
          inRange(summary.meta.compare.from!, FROM)(r) &&
          (r.model === 'a' || r.model === 'b') &&
          r.folderId === null &&
          (r.source === null || r.source === 'app'),
      ),
    );
  });
});

describe('runs', () => {
  it('counts jobs started in the range, a pipeline once, charged or not', async () => {
    const teamId = await insertTeam(t.db);
    const at = '2025-04-01T10:00:00Z';
    const pipeline = await insertJob(t.db, teamId, { at, tool: 'pipeline', model: 'pipeline' });
    for (const step of ['a', 'b']) {
      const child = await insertJob(t.db, teamId, { at, tool: 'image' });
      await t.db.query(
        `INSERT INTO idempotency_keys (team_id, key, request_hash, job_id) VALUES ($1, $2, '\\x00', $3)`,
        [teamId, `pipeline:${pipeline}:${step}`, child],
      );
    }
    // A caller's own idempotency key that merely looks like a step's does not hide a run.
    const own = await insertJob(t.db, teamId, { at, tool: 'image', status: 'failed' });
    await t.db.query(
      `INSERT INTO idempotency_keys (team_id, key, request_hash, job_id) VALUES ($1, 'pipeline:mine:x', '\\x00', $2)`,
      [teamId, own],
    );
    await insertJob(t.db, teamId, { at: '2025-04-02T00:00:00Z', tool: 'image' });
    const q = { from: '2025-04-01', to: '2025-04-02', compare: 'none' };
    const summary = await analyticsSummary(t.db, full(teamId), AnalyticsSummaryQuery.parse(q));
    expect(summary.data.runs).toBe(2);
    const byStatus = await analyticsBreakdown(
      t.db,
      full(teamId),
      AnalyticsBreakdownQuery.parse({ ...q, dimension: 'status' }),
    );
    expect(byStatus.data.map((r) => [r.key, r.runs])).toEqual([
      ['completed', 1],
      ['failed', 1],
    ]);
  });
});

describe('attribution scope self (a non-member)', () => {
  it('keeps totals, shows only the caller as identities, and groups everyone else as other', async () => {
    const teamId = await insertTeam(t.db);
    const me = randomUUID();
    const colleague = randomUUID();
    const at = '2025-05-01T10:00:00Z';
    await insertLedgerRows(t.db, teamId, [
      {
        at,
        kind: 'settle',
        delta: -10,
        personId: me,
        apiKeyId: 'key_shared',
        jobId: 'job_1',
        jobStatus: 'completed',
      },
      { at, kind: 'settle', delta: -20, personId: colleague, apiKeyId: 'key_theirs', jobId: 'job_2' },
      { at, kind: 'settle', delta: -40, personId: colleague, jobId: 'job_3' },
      { at, kind: 'settle', delta: -80, personId: me, jobId: 'job_4' },
    ]);
    const viewer: Viewer = { teamId, scope: 'self', personId: me, role: null, apiKeyIds: ['key_shared'] };
    const q = { from: '2025-05-01', to: '2025-05-02', compare: 'none' };
    const summary = await analyticsSummary(t.db, viewer, AnalyticsSummaryQuery.parse(q));
    expect(summary.data.spend_cents).toBe(150);
    expect(summary.meta.attribution_scope).toBe('self');

    const breakdown = (dimension: string, extra = {}) =>
      analyticsBreakdown(t.db, viewer, AnalyticsBreakdownQuery.parse({ ...q, dimension, ...extra }));
    const byMember = await breakdown('member');
    expect(byMember.data.map((r) => [r.key, r.other, r.spend_cents])).toEqual([
      [me, false, 90],
      [null, true, 60],
    ]);
    expect(byMember.data[1]!.label).toBe('Other people and keys');
    const byKey = await breakdown('api_key');
    expect(byKey.data.map((r) => [r.key, r.other, r.spend_cents])).toEqual([
      [null, false, 120],
      ['key_shared', false, 10],
      [null, true, 20],
    ]);
    const byCreator = await breakdown('creator');
    // The group of others always comes last, whatever its spend.
    expect(byCreator.data.map((r) => [r.key, r.spend_cents])).toEqual([
      [`member:${me}`, 80],
      ['api_key:key_shared', 10],
      [null, 60],
    ]);
    expect(JSON.stringify(byCreator)).not.toContain(colleague);

    // Filtering by someone else's identity selects nothing.
    const probe = await analyticsSummary(
      t.db,
      viewer,
      AnalyticsSummaryQuery.parse({ ...q, member: colleague }),
    );
    expect(probe.data.spend_cents).toBe(0);
    const mine = await analyticsSummary(t.db, viewer, AnalyticsSummaryQuery.parse({ ...q, member: me }));
    expect(mine.data.spend_cents).toBe(90);

    const activity = await analyticsActivity(t.db, viewer, AnalyticsActivityQuery.parse(q));
    expect(JSON.stringify(activity)).not.toContain(colleague);
    expect(JSON.stringify(activity)).not.toContain('key_theirs');
    expect(activity.data.filter((i) => i.creator === 'other')).toHaveLength(2);
  });
});
