import type { AnalyticsMeta } from '../../contract/analytics.ts';

/** The `meta` of an analytics answer for tests: a 30-day UTC range with no comparison, full scope. */
export function analyticsMeta(overrides: Partial<AnalyticsMeta> = {}): AnalyticsMeta {
  return {
    definition_version: '2026-11-01',
    from: '2026-10-26T00:00:00.000Z',
    to: '2026-11-25T00:00:00.000Z',
    timezone: 'UTC',
    compare: { mode: 'none', from: null, to: null },
    filters: {},
    data_as_of: '2026-11-24T12:00:00.000Z',
    money_unit: 'cents',
    time_basis: 'ledger_posted_at',
    attribution_scope: 'full',
    ...overrides,
  };
}
