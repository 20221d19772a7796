import { describe, expect, it } from 'vitest';
import type { AnalyticsBreakdown, AnalyticsSummary } from '../../../../contract/analytics.ts';
import { analyticsMeta } from '../../../testing/analytics-meta.ts';
import { viewOf } from './analytics-search.ts';
import { breakdownCsv, buildCsv, exportFilename, seriesCsv, summaryCsv } from './csv.ts';

const META = analyticsMeta({ from: '2026-11-01T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' });
/** The same days, compared with the two days before, in New York (the days are read in the timezone). */
const COMPARED = analyticsMeta({
  from: '2026-11-01T04:00:00.000Z',
  to: '2026-11-03T05:00:00.000Z',
  timezone: 'America/New_York',
  compare: { mode: 'custom', from: '2026-10-30T04:00:00.000Z', to: '2026-11-01T04:00:00.000Z' },
});

const parse = (text: string) =>
  text
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));

function breakdownRow(key: string | null, label: string, spend: number, other = false) {
  return {
    key,
    label,
    other,
    spend_cents: spend,
    charges: 2,
    jobs: 1,
    runs: 1,
    unsuccessful_spend_cents: 0,
    unattributed_spend_cents: 0,
    share: 0.5,
    previous: {
      ...{ spend_cents: spend - 10, charges: 0, jobs: 0, runs: 0 },
      unsuccessful_spend_cents: 0,
      unattributed_spend_cents: 0,
    },
  };
}

describe('CSV of what the page shows', () => {
  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    expect(
      buildCsv(
        ['a', 'b'],
        [
          ['x, y', 'say "hi"'],
          ['=SUM(A1)', null],
          [-5, 'line\nbreak'],
        ],
      ),
    ).toBe('a,b\r\n"x, y","say ""hi"""\r\n\'=SUM(A1),\r\n-5,"line\nbreak"\r\n');
  });

  it('ends a breakdown with a total row equal to the sum of its rows (the spend card)', () => {
    const breakdown: AnalyticsBreakdown = {
      data: [breakdownRow('image', 'Image', 700), breakdownRow(null, 'Other', 300, true)],
      meta: { ...COMPARED, dimension: 'capability' },
    };
    const rows = parse(breakdownCsv(breakdown));
    expect(rows[0]).toEqual([
      'capability',
      'label',
      'spend_credits',
      'charges',
      'jobs',
      'runs',
      'share',
      'previous_spend_credits',
      'change_credits',
      'spend_dollars',
      'period',
      'previous_period',
    ]);
    const periods = ['2026-11-01 to 2026-11-02', '2026-10-30 to 2026-10-31'];
    expect(rows[1]).toEqual(['image', 'Image', '700', '2', '1', '1', '0.5', '690', '10', '7', ...periods]);
    expect(rows[2]?.[0]).toBe('other');
    expect(rows.at(-1)).toEqual([
      'total',
      'Total',
      '1000',
      '4',
      '2',
      '2',
      '1',
      '980',
      '20',
      '10',
      ...periods,
    ]);
  });

  it('writes a column per stacked series and a total per bucket and overall', () => {
    const rows = parse(
      seriesCsv({
        series: [
          { id: 'image', label: 'Image', value: 'image' },
          { id: '__other__', label: 'Other', value: null },
        ],
        buckets: [
          {
            start: '2026-11-01T00:00:00.000Z',
            end: '2026-11-02T00:00:00.000Z',
            total: 30,
            spend: { image: 20, __other__: 10 },
          },
          {
            start: '2026-11-02T00:00:00.000Z',
            end: '2026-11-03T00:00:00.000Z',
            total: 5,
            spend: { image: 5, __other__: 0 },
          },
        ],
        meta: { ...META, bucket: 'day', group_by: 'capability', groups: [] },
      }),
    );
    expect(rows[0]).toEqual(['bucket_start', 'bucket_end', 'Image', 'Other', 'total_credits']);
    expect(rows[1]).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-02T00:00:00.000Z', '20', '10', '30']);
    expect(rows.at(-1)).toEqual(['Total', '', '25', '10', '35']);
  });

  it('lists every summary figure with its previous value and change, and the balance', () => {
    const totals = {
      spend_cents: 1200,
      charges: 30,
      jobs: 20,
      runs: 22,
      unsuccessful_spend_cents: 100,
      unattributed_spend_cents: 0,
    };
    const summary: AnalyticsSummary = {
      data: {
        ...totals,
        previous: { ...totals, spend_cents: 1000 },
        change: {
          spend_cents: { delta: 200, ratio: 0.2 },
          charges: { delta: 0, ratio: 0 },
          jobs: { delta: 0, ratio: 0 },
          runs: { delta: 0, ratio: 0 },
          unsuccessful_spend_cents: { delta: 0, ratio: 0 },
          unattributed_spend_cents: { delta: 0, ratio: null },
        },
        balance: { balance_cents: 5000, held_cents: 0, as_of: '2026-11-24T12:00:00.000Z' },
      },
      meta: COMPARED,
    };
    const rows = parse(summaryCsv(summary));
    expect(rows[0]).toEqual([
      'figure',
      'current',
      'previous',
      'change',
      'change_ratio',
      'current_dollars',
      'previous_dollars',
      'change_dollars',
      'period',
      'previous_period',
    ]);
    const periods = ['2026-11-01 to 2026-11-02', '2026-10-30 to 2026-10-31'];
    expect(rows[1]).toEqual(['spend_credits', '1200', '1000', '200', '0.2', '12', '10', '2', ...periods]);
    expect(rows[2]).toEqual(['charges', '30', '30', '0', '0', '', '', '', ...periods]);
    expect(rows[6]).toEqual(['unattributed_spend_credits', '0', '0', '0', '', '0', '0', '0', ...periods]);
    expect(rows[7]).toEqual(['balance_credits', '5000', '', '', '', '50', '', '', '', '']);
  });

  it('names both periods and the timezone in the file name', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    expect(exportFilename(viewOf({ tz: 'America/New_York', range: 'last_quarter' }, now))).toBe(
      'analytics-2026-07-01-to-2026-09-30-vs-2026-04-01-to-2026-06-30-America_New_York',
    );
    expect(exportFilename(viewOf({ tz: 'UTC', range: 'last_month', compare: 'off' }, now))).toBe(
      'analytics-2026-10-01-to-2026-10-31-UTC',
    );
  });
});
