import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsSummary } from '../../../../contract/analytics.ts';
import { analyticsMeta } from '../../../testing/analytics-meta.ts';
import { apiError, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { AnalyticsPage } from './analytics-page.tsx';
import { viewOf } from './analytics-search.ts';

const ZERO = {
  spend_cents: 0,
  charges: 0,
  jobs: 0,
  runs: 0,
  unsuccessful_spend_cents: 0,
  unattributed_spend_cents: 0,
};

function summary(data: Partial<AnalyticsSummary['data']>): AnalyticsSummary {
  return {
    data: { ...ZERO, previous: null, change: null, balance: null, ...data },
    meta: analyticsMeta(),
  };
}

const VIEW = viewOf({ tz: 'UTC', compare: 'off' }, new Date('2026-11-24T12:00:00Z'));

describe('the analytics page', () => {
  it('asks for the range of the view in its timezone, and says when nothing was spent', async () => {
    const server = stubFetch({
      'GET /v2/analytics/summary': () =>
        json(summary({ balance: { balance_cents: 1000, held_cents: 0, as_of: '2026-11-24T12:00:00.000Z' } })),
    });
    renderWithQuery(<AnalyticsPage view={VIEW} onChange={vi.fn()} />);
    expect(await screen.findByRole('heading', { name: 'No spend in this range' })).toBeVisible();
    expect(screen.getByRole('article', { name: 'Balance' })).toHaveTextContent('1,000 credits ($10.00)');
    const [request] = server.callsTo('GET /v2/analytics/summary');
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toEqual({
      from: '2026-10-26',
      to: '2026-11-25',
      timezone: 'UTC',
      compare: 'none',
      include_balance: 'true',
    });
    // Nothing to chart: no series or breakdown is asked for.
    expect(server.callsTo('GET /v2/analytics/timeseries')).toHaveLength(0);
  });

  it('shows each figure with its change against the previous period', async () => {
    stubFetch({
      'GET /v2/analytics/summary': () =>
        json(
          summary({
            spend_cents: 1500,
            charges: 3,
            previous: { ...ZERO, spend_cents: 1000, charges: 3 },
            change: {
              spend_cents: { delta: 500, ratio: 0.5 },
              charges: { delta: 0, ratio: 0 },
              jobs: { delta: 0, ratio: null },
              runs: { delta: 0, ratio: null },
              unsuccessful_spend_cents: { delta: 0, ratio: null },
              unattributed_spend_cents: { delta: 0, ratio: null },
            },
          }),
        ),
    });
    renderWithQuery(<AnalyticsPage view={{ ...VIEW, compare: true }} onChange={vi.fn()} />);
    const spend = await screen.findByRole('article', { name: 'Spend' });
    expect(spend).toHaveTextContent('1,500 credits');
    expect(spend).toHaveTextContent('+500 credits (+50%) vs 1,000 credits before');
    expect(screen.getByRole('article', { name: 'Charges' })).toHaveTextContent('No change vs 3 before');
  });

  it('says what failed, with the request id, and tries again on request', async () => {
    let fail = true;
    stubFetch({
      'GET /v2/analytics/summary': () =>
        fail ? apiError(422, 'invalid_request', 'Unknown timezone Mars/Base') : json(summary({})),
    });
    renderWithQuery(<AnalyticsPage view={VIEW} onChange={vi.fn()} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the summary.');
    expect(alert).toHaveTextContent('Unknown timezone Mars/Base');
    expect(alert).toHaveTextContent('req_test');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry now' }));
    expect(await screen.findByRole('heading', { name: 'No spend in this range' })).toBeVisible();
  });
});
