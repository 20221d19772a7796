import { describe, expect, it } from 'vitest';
import {
  AnalyticsActivityQuery,
  AnalyticsBound,
  AnalyticsBreakdownQuery,
  AnalyticsSummary,
  AnalyticsSummaryQuery,
  AnalyticsTimeseriesQuery,
  AnalyticsTimeZone,
  parseBound,
  rangeProblem,
  resolveBound,
} from './analytics.ts';
import { issuesOf, parseOk } from './test-fixtures.ts';

const Q = AnalyticsSummaryQuery;
const KEY = 'key_abc';
const USER = '0b9a7f8e-1111-4222-8333-944455556666';

describe('range bounds: forms and 40 characters', () => {
  it('accepts a date, a local date-time and an instant with offset', () => {
    for (const bound of [
      '2025-03-01',
      '2025-03-01T10:00',
      '2025-03-01T10:00:30',
      '2025-03-01T10:00:30.250',
      '2025-03-01T10:00:00Z',
      '2025-03-01T10:00:00.5+05:30',
      '2025-03-01T10:00:00-08:00',
    ]) {
      expect(issuesOf(AnalyticsBound, bound), bound).toEqual([]);
    }
  });

  it('refuses other forms and impossible calendar times', () => {
    for (const bound of [
      '2025-3-1',
      '03/01/2025',
      '2025-02-30',
      '2025-13-01',
      '2025-03-01T24:00',
      '2025-03-01T10:60',
      '2025-03-01Z',
      '2025-03-01T10:00:00+5',
      'yesterday',
      '',
    ]) {
      expect(issuesOf(AnalyticsBound, bound), bound).toEqual([': custom']);
    }
    expect(issuesOf(AnalyticsBound, '2024-02-29')).toEqual([]);
    expect(issuesOf(AnalyticsBound, '2025-02-29')).toEqual([': custom']);
  });

  it('takes 40 characters and refuses 41', () => {
    const instant = (length: number) => `2025-03-01T10:00:00.${'1'.repeat(length - 21)}Z`;
    expect(instant(40)).toHaveLength(40);
    expect(issuesOf(Q, { from: instant(40) })).toEqual([]);
    expect(issuesOf(Q, { from: instant(41) })).toEqual(['from: too_big']);
    expect(issuesOf(Q, { to: instant(41) })).toEqual(['to: too_big']);
    expect(issuesOf(Q, { compare_from: instant(41), compare_to: instant(40) })).toEqual([
      'compare_from: too_big',
    ]);
    expect(issuesOf(Q, { compare_from: instant(40), compare_to: instant(41) })).toEqual([
      'compare_to: too_big',
    ]);
  });
});

describe('timezone: IANA, 64 characters', () => {
  it('defaults to UTC and accepts IANA names', () => {
    expect(parseOk(Q, {}).timezone).toBe('UTC');
    expect(issuesOf(AnalyticsTimeZone, 'Europe/Paris')).toEqual([]);
    expect(issuesOf(AnalyticsTimeZone, 'America/Argentina/Buenos_Aires')).toEqual([]);
  });

  it('refuses names the runtime does not know, and offsets', () => {
    expect(issuesOf(AnalyticsTimeZone, 'Mars/Olympus')).toEqual([': custom']);
    expect(issuesOf(AnalyticsTimeZone, '+05:00')).toEqual([': custom']);
  });

  it('checks the length at 64/65 before the name', () => {
    expect(issuesOf(Q, { timezone: `Europe/${'x'.repeat(57)}` })).toEqual(['timezone: custom']);
    expect(issuesOf(Q, { timezone: `Europe/${'x'.repeat(58)}` })).toEqual(['timezone: too_big']);
  });
});

describe('range of at most 366 days', () => {
  it('counts date-only bounds as local midnights: 366 days pass, 367 fail', () => {
    expect(issuesOf(Q, { from: '2024-01-01', to: '2025-01-01' })).toEqual([]); // 366 days (leap year)
    expect(issuesOf(Q, { from: '2024-01-01', to: '2025-01-02' })).toEqual(['to: custom']);
    expect(issuesOf(Q, { from: '2025-01-01', to: '2026-01-02' })).toEqual([]); // 366 days
    expect(issuesOf(Q, { from: '2025-01-01', to: '2026-01-03' })).toEqual(['to: custom']);
  });

  it('counts instants to the millisecond', () => {
    expect(issuesOf(Q, { from: '2025-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' })).toEqual([]);
    expect(issuesOf(Q, { from: '2025-01-01T00:00:00Z', to: '2026-01-02T00:00:00.001Z' })).toEqual([
      'to: custom',
    ]);
  });

  it('counts calendar days across daylight-saving changes', () => {
    const ny = { timezone: 'America/New_York' };
    expect(issuesOf(Q, { ...ny, from: '2023-11-01', to: '2024-11-01' })).toEqual([]); // 366 days
    expect(issuesOf(Q, { ...ny, from: '2023-11-01', to: '2024-11-02' })).toEqual(['to: custom']);
  });

  it('needs the end after the start', () => {
    expect(issuesOf(Q, { from: '2025-02-01', to: '2025-02-01' })).toEqual(['to: custom']);
    expect(issuesOf(Q, { from: '2025-02-02', to: '2025-02-01' })).toEqual(['to: custom']);
  });

  it('leaves a range with a defaulted bound to the server (rangeProblem after defaults)', () => {
    expect(issuesOf(Q, { from: '2000-01-01' })).toEqual([]);
    expect(rangeProblem('2000-01-01', '2025-01-01T00:00:00Z', 'UTC')).toBe('a range is at most 366 days');
    expect(rangeProblem('2024-12-02', '2025-01-01', 'UTC')).toBeNull();
  });

  it('applies the same rule to the comparison range', () => {
    expect(issuesOf(Q, { compare_from: '2024-01-01', compare_to: '2025-01-01' })).toEqual([]);
    expect(issuesOf(Q, { compare_from: '2024-01-01', compare_to: '2025-01-02' })).toEqual([
      'compare_to: custom',
    ]);
  });
});

describe('explicit comparison bounds go together', () => {
  it('refuses one without the other', () => {
    expect(issuesOf(Q, { compare_from: '2025-01-01' })).toEqual(['compare_to: custom']);
    expect(issuesOf(Q, { compare_to: '2025-01-01' })).toEqual(['compare_from: custom']);
    expect(issuesOf(Q, { compare_from: '2025-01-01', compare_to: '2025-02-01' })).toEqual([]);
  });
});

describe('comparison mode and balance', () => {
  it('defaults to previous_period on the summary and none elsewhere', () => {
    expect(parseOk(Q, {}).compare).toBe('previous_period');
    expect(parseOk(AnalyticsTimeseriesQuery, {}).compare).toBe('none');
    expect(parseOk(AnalyticsBreakdownQuery, { dimension: 'model' }).compare).toBe('none');
    expect(parseOk(AnalyticsActivityQuery, {}).compare).toBe('none');
    expect(issuesOf(Q, { compare: 'last_year' })).toEqual(['compare: invalid_value']);
  });

  it('includes the balance unless include_balance=false', () => {
    expect(parseOk(Q, {}).include_balance).toBe(true);
    expect(parseOk(Q, { include_balance: 'false' }).include_balance).toBe(false);
    expect(parseOk(Q, { include_balance: 'true' }).include_balance).toBe(true);
    expect(issuesOf(Q, { include_balance: 'yes' })).toEqual(['include_balance: invalid_union']);
  });
});

describe('filters: comma lists of at most 50 values and 4000 characters, or none', () => {
  const many = (value: string, n: number) => Array.from({ length: n }, () => value).join(',');
  const cases: Array<[string, string]> = [
    ['capability', 'image'],
    ['model', 'flux-schnell'],
    ['folder', '3f1c9a52-8a53-4b4e-9d56-0f5b0b3c2a11'],
    ['api_key', KEY],
    ['member', USER],
    ['creator', `member:${USER}`],
    ['source', 'mcp'],
    ['status', 'awaiting_confirmation'],
  ];

  for (const [name, value] of cases) {
    it(`${name}: 50 values pass, 51 fail; none passes`, () => {
      expect(issuesOf(Q, { [name]: many(value, 50) })).toEqual([]);
      expect(issuesOf(Q, { [name]: many(value, 51) })).toEqual([`${name}: too_big`]);
      expect(parseOk(Q, { [name]: 'none' })[name as 'model']).toBe('none');
    });

    it(`${name}: 4000 characters pass, 4001 fail`, () => {
      const padded = (length: number) => value + ' '.repeat(length - value.length);
      expect(issuesOf(Q, { [name]: padded(4000) })).toEqual([]);
      expect(issuesOf(Q, { [name]: padded(4001) })).toEqual([`${name}: too_big`]);
    });
  }

  it('names a bad value by its position', () => {
    expect(issuesOf(Q, { capability: 'image,upscale' })).toEqual(['capability.1: invalid_value']);
    expect(issuesOf(Q, { source: 'app,web' })).toEqual(['source.1: invalid_value']);
    expect(issuesOf(Q, { status: 'running,done' })).toEqual(['status.1: invalid_value']);
    expect(issuesOf(Q, { member: 'bob' })).toEqual(['member.0: invalid_format']);
    expect(issuesOf(Q, { api_key: 'abc' })).toEqual(['api_key.0: invalid_format']);
    expect(issuesOf(Q, { folder: 'none,3f1c9a52-8a53-4b4e-9d56-0f5b0b3c2a11' })).toEqual([
      'folder.0: invalid_format',
    ]);
  });

  it('parses creators as api_key:<id> or member:<id>', () => {
    expect(parseOk(Q, { creator: `api_key:${KEY},member:${USER}` }).creator).toEqual([
      { kind: 'api_key', id: KEY },
      { kind: 'member', id: USER },
    ]);
    expect(issuesOf(Q, { creator: `team:${USER}` })).toEqual(['creator.0: invalid_format']);
    expect(issuesOf(Q, { creator: 'member:bob' })).toEqual(['creator.0: invalid_format']);
  });

  it('knows all eight statuses and the five sources', () => {
    const statuses = 'completed,failed,cancelled,awaiting_confirmation,running,submitting,queued,unknown';
    expect(parseOk(Q, { status: statuses }).status).toHaveLength(8);
    expect(parseOk(Q, { source: 'app,api,mcp,internal,unknown' }).source).toHaveLength(5);
  });
});

describe('other analytics queries', () => {
  it('buckets the time series by hour, day, week or month (default day)', () => {
    expect(parseOk(AnalyticsTimeseriesQuery, {}).bucket).toBe('day');
    expect(issuesOf(AnalyticsTimeseriesQuery, { bucket: 'week' })).toEqual([]);
    expect(issuesOf(AnalyticsTimeseriesQuery, { bucket: 'year' })).toEqual(['bucket: invalid_value']);
    expect(issuesOf(AnalyticsTimeseriesQuery, { from: '2024-01-01', to: '2025-01-02' })).toEqual([
      'to: custom',
    ]);
  });

  it('breaks down by exactly one dimension', () => {
    expect(issuesOf(AnalyticsBreakdownQuery, {})).toEqual(['dimension: invalid_value']);
    expect(issuesOf(AnalyticsBreakdownQuery, { dimension: 'creator', limit: '100' })).toEqual([]);
    expect(issuesOf(AnalyticsBreakdownQuery, { dimension: 'creator', limit: '101' })).toEqual([
      'limit: too_big',
    ]);
  });

  it('pages the activity', () => {
    expect(parseOk(AnalyticsActivityQuery, {}).limit).toBe(50);
    expect(issuesOf(AnalyticsActivityQuery, { compare_from: '2025-01-01' })).toEqual(['compare_to: custom']);
  });
});

describe('bound resolution', () => {
  it('reads date-only bounds as local midnight in the time zone', () => {
    const bound = parseBound('2025-07-01');
    expect(bound?.kind).toBe('date');
    expect(new Date(resolveBound(bound!, 'Europe/Paris')).toISOString()).toBe('2025-06-30T22:00:00.000Z');
    expect(new Date(resolveBound(bound!, 'UTC')).toISOString()).toBe('2025-07-01T00:00:00.000Z');
  });

  it('keeps the offset of an instant whatever the time zone', () => {
    const bound = parseBound('2025-07-01T12:00:00+02:00');
    expect(bound?.kind).toBe('instant');
    expect(new Date(resolveBound(bound!, 'America/New_York')).toISOString()).toBe('2025-07-01T10:00:00.000Z');
  });

  it('reads local date-times in the time zone', () => {
    const bound = parseBound('2025-01-15T09:30');
    expect(bound?.kind).toBe('local');
    expect(new Date(resolveBound(bound!, 'America/New_York')).toISOString()).toBe('2025-01-15T14:30:00.000Z');
  });
});

describe('summary response (spec 2.10)', () => {
  const totals = {
    spend_cents: 120,
    charges: 4,
    jobs: 4,
    runs: 5,
    unsuccessful_spend_cents: 0,
    unattributed_spend_cents: 0,
  };
  const meta = {
    definition_version: '2025-01-01',
    from: '2025-01-01T00:00:00Z',
    to: '2025-01-31T00:00:00Z',
    timezone: 'UTC',
    compare: { mode: 'previous_period', from: '2024-12-02T00:00:00Z', to: '2025-01-01T00:00:00Z' },
    filters: { capability: ['image'], folder: 'none' },
    data_as_of: '2025-01-31T00:00:00Z',
    money_unit: 'cents',
    time_basis: 'ledger_posted_at',
    attribution_scope: 'full',
  };

  it('parses data with previous, change and balance, or nulls', () => {
    const change = Object.fromEntries(Object.keys(totals).map((k) => [k, { delta: 0, ratio: null }]));
    const full = {
      data: {
        ...totals,
        previous: totals,
        change,
        balance: { balance_cents: 500, held_cents: 0, as_of: '2025-01-31T00:00:00Z' },
      },
      meta,
    };
    expect(issuesOf(AnalyticsSummary, full)).toEqual([]);
    const bare = { data: { ...totals, previous: null, change: null, balance: null }, meta };
    expect(issuesOf(AnalyticsSummary, bare)).toEqual([]);
  });

  it('holds meta to the spec: date version, UTC instants, scope full or self', () => {
    const bare = { ...totals, previous: null, change: null, balance: null };
    expect(issuesOf(AnalyticsSummary, { data: bare, meta: { ...meta, attribution_scope: 'self' } })).toEqual(
      [],
    );
    expect(issuesOf(AnalyticsSummary, { data: bare, meta: { ...meta, attribution_scope: 'team' } })).toEqual([
      'meta.attribution_scope: invalid_value',
    ]);
    expect(issuesOf(AnalyticsSummary, { data: bare, meta: { ...meta, definition_version: 'v2' } })).toEqual([
      'meta.definition_version: invalid_format',
    ]);
    expect(
      issuesOf(AnalyticsSummary, { data: bare, meta: { ...meta, from: '2025-01-01T01:00:00+01:00' } }),
    ).toEqual(['meta.from: invalid_format']);
    const { money_unit: _, ...withoutUnit } = meta;
    expect(issuesOf(AnalyticsSummary, { data: bare, meta: withoutUnit })).toEqual([
      'meta.money_unit: invalid_type',
    ]);
  });
});
