import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AnalyticsBreakdown, AnalyticsMeta, AnalyticsSummary } from '../../../../contract/analytics.ts';
import type {
  AnalyticsPerformance,
  AnalyticsPerformanceRow,
  AnalyticsPerformanceTimeseries,
} from '../../../../contract/analytics-performance.ts';
import { analyticsMeta } from '../../../testing/analytics-meta.ts';
import { apiError, type FakeRequest, json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { AnalyticsPage } from './analytics-page.tsx';
import { type AnalyticsSearch, type AnalyticsView, viewOf } from './analytics-search.ts';

const ZERO = {
  spend_cents: 0,
  charges: 0,
  jobs: 0,
  runs: 0,
  unsuccessful_spend_cents: 0,
  unattributed_spend_cents: 0,
};

function summary(
  data: Partial<AnalyticsSummary['data']>,
  meta: Partial<AnalyticsMeta> = {},
): AnalyticsSummary {
  return {
    data: { ...ZERO, previous: null, change: null, balance: null, ...data },
    meta: analyticsMeta(meta),
  };
}

/** The page at `/analytics` inside a router (its rows link to the job feed), with a fresh query cache. */
function renderAnalytics(view: AnalyticsView, onChange: (patch: Partial<AnalyticsSearch>) => void = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({ component: Outlet });
  const analytics = createRoute({
    getParentRoute: () => root,
    path: '/analytics',
    component: () => <AnalyticsPage view={view} onChange={onChange} />,
  });
  const jobs = createRoute({ getParentRoute: () => root, path: '/jobs', component: () => null });
  const router = createRouter({
    routeTree: root.addChildren([analytics, jobs]),
    history: createMemoryHistory({ initialEntries: ['/analytics'] }),
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const NOW = new Date('2026-11-24T12:00:00Z');
const VIEW = viewOf({ tz: 'UTC', compare: 'off' }, NOW);

/** `meta` that echoes the days a request asked for (UTC midnights), as the server does. */
function echoMeta(request: FakeRequest): AnalyticsMeta {
  const param = (name: string) => request.url.searchParams.get(name);
  const instant = (day: string | null) => (day ? `${day}T00:00:00.000Z` : null);
  const compared = param('compare_from') !== null;
  return analyticsMeta({
    from: instant(param('from')) ?? '',
    to: instant(param('to')) ?? '',
    compare: {
      mode: compared ? 'custom' : 'none',
      from: instant(param('compare_from')),
      to: instant(param('compare_to')),
    },
  });
}

const TOTALS = { charges: 1, jobs: 1, runs: 1, unsuccessful_spend_cents: 0, unattributed_spend_cents: 0 };

/** A breakdown row with its spend now and in the comparison period. */
function row(key: string, spend: number, previous: number) {
  return {
    key,
    label: key,
    other: false,
    spend_cents: spend,
    ...TOTALS,
    share: 0,
    previous: { spend_cents: previous, ...TOTALS },
  };
}

const CHANGE = {
  spend_cents: { delta: 500, ratio: 0.5 },
  charges: { delta: 0, ratio: 0 },
  jobs: { delta: 0, ratio: null },
  runs: { delta: 0, ratio: null },
  unsuccessful_spend_cents: { delta: 0, ratio: null },
  unattributed_spend_cents: { delta: 0, ratio: null },
};

/** A server for a compared view: the summary and every breakdown echo the days they were asked for. */
function comparedServer() {
  return stubFetch({
    'GET /v2/analytics/summary': (request) =>
      json({
        data: {
          ...ZERO,
          ...TOTALS,
          spend_cents: 1500,
          previous: { ...ZERO, ...TOTALS, spend_cents: 1000 },
          change: CHANGE,
          balance: null,
        },
        meta: echoMeta(request),
      } satisfies AnalyticsSummary),
    'GET /v2/analytics/breakdown': (request) => {
      const dimension = request.url.searchParams.get('dimension') as AnalyticsBreakdown['meta']['dimension'];
      return json({
        data: [row('flux', 900, 400), row('veo', 100, 500), row('sdxl', 500, 100)],
        meta: { ...echoMeta(request), dimension },
      } satisfies AnalyticsBreakdown);
    },
    'GET /v2/analytics/timeseries': (request) =>
      json({ data: [], meta: { ...echoMeta(request), bucket: 'week' } }),
  });
}

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
          summary(
            {
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
            },
            {
              compare: {
                mode: 'custom',
                from: '2026-09-26T00:00:00.000Z',
                to: '2026-10-26T00:00:00.000Z',
              },
            },
          ),
        ),
    });
    renderWithQuery(<AnalyticsPage view={viewOf({ tz: 'UTC' }, NOW)} onChange={vi.fn()} />);
    const spend = await screen.findByRole('article', { name: 'Spend' });
    // Money in credits and dollars; the change names the days it is against.
    expect(spend).toHaveTextContent('1,500 credits ($15.00)');
    expect(spend).toHaveTextContent('+500 credits (+50%) vs 1,000 credits in Sep 26 – Oct 25, 2026');
    expect(screen.getByRole('article', { name: 'Charges' })).toHaveTextContent(
      'No change vs 3 in Sep 26 – Oct 25, 2026',
    );
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

  it('compares last quarter with the quarter before, and names both periods', async () => {
    const server = comparedServer();
    const view = viewOf({ tz: 'UTC', range: 'last_quarter' }, NOW);
    renderAnalytics(view);
    const spend = await screen.findByRole('article', { name: 'Spend' });
    // Jul 1–Sep 30 against Apr 1–Jun 30, not the equal-length Mar 31–Jun 30 the API's default gives.
    expect(screen.getByText('Jul 1 – Sep 30, 2026 compared with Apr 1 – Jun 30, 2026')).toBeVisible();
    expect(spend).toHaveTextContent('vs 1,000 credits in Apr 1 – Jun 30, 2026');
    const [request] = server.callsTo('GET /v2/analytics/summary');
    expect(Object.fromEntries(request?.url.searchParams ?? [])).toMatchObject({
      from: '2026-07-01',
      to: '2026-10-01',
      compare_from: '2026-04-01',
      compare_to: '2026-07-01',
    });
    expect(request?.url.searchParams.has('compare')).toBe(false);
  });

  it('ranks what changed in one dimension, with one request, leaving out the filtered dimension', async () => {
    const server = comparedServer();
    const view = viewOf({ tz: 'UTC', range: 'last_quarter', capability: 'video' }, NOW);
    const onChange = vi.fn();
    renderAnalytics(view, onChange);
    const panel = await screen.findByRole('region', { name: 'What changed' });
    const items = await within(panel).findAllByRole('listitem');
    // By model (the page is filtered to one tool, whose row would be "100%"): shares of all movement.
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^flux\+500 credits\s*38\.5% of the movement/),
      expect.stringMatching(/^veo−400 credits\s*30\.8% of the movement/),
      expect.stringMatching(/^sdxl\+400 credits\s*30\.8% of the movement/),
    ]);
    expect(panel).toHaveTextContent('Jul 1 – Sep 30, 2026 against Apr 1 – Jun 30, 2026, by model.');
    const changesBy = within(panel).getByLabelText('Changes by');
    expect(changesBy).toHaveValue('model');
    expect(within(changesBy).queryByRole('option', { name: 'Tool' })).toBeNull();
    await userEvent.setup().selectOptions(changesBy, 'source');
    expect(onChange).toHaveBeenCalledWith({ change: 'source' });

    // One breakdown of the comparison per dimension shown; never a request for the earlier period alone.
    const breakdowns = server.callsTo('GET /v2/analytics/breakdown').map((r) => r.url.searchParams);
    expect(breakdowns.filter((p) => p.get('dimension') === 'model')).toHaveLength(1);
    expect(breakdowns.find((p) => p.get('dimension') === 'model')?.get('compare_from')).toBe('2026-04-01');
    expect(breakdowns.filter((p) => p.get('from') === '2026-04-01')).toHaveLength(0);
  });
});

const PERCENTILES = (p50: number, p90: number, p99: number, samples = 10) => ({
  samples,
  p50_ms: p50,
  p90_ms: p90,
  p99_ms: p99,
});

function performanceRow(overrides: Partial<AnalyticsPerformance['data'][number]> = {}) {
  return {
    model: 'flux-dev',
    provider: 'fal',
    jobs: 12,
    completed: 9,
    failed: 3,
    cancelled: 0,
    failure_rate: 0.25,
    total: PERCENTILES(18_000, 25_000, 41_000),
    phases: {
      queued: PERCENTILES(400, 900, 1_500),
      provider_queue: PERCENTILES(2_000, 4_000, 6_000),
      provider_run: PERCENTILES(14_000, 19_000, 30_000),
      downloading: null,
    },
    top_errors: [
      { code: 'provider_timeout', count: 2 },
      { code: 'provider_error', count: 1 },
    ],
    ...overrides,
  } satisfies AnalyticsPerformance['data'][number];
}

describe('the Performance tab', () => {
  it('shows each model’s percentiles and failure rate, and links its errors to the failed jobs', async () => {
    const server = stubFetch({
      'GET /v2/analytics/summary': (request) => json({ ...summary({}), meta: echoMeta(request) }),
      'GET /v2/analytics/performance': (request) =>
        json({
          data: [performanceRow()],
          meta: { ...echoMeta(request), percentiles: 'exact' },
        } satisfies AnalyticsPerformance),
    });
    renderAnalytics(viewOf({ tz: 'UTC', compare: 'off', tab: 'performance', capability: 'image' }, NOW));
    const panel = await screen.findByRole('tabpanel', { name: 'Performance' });
    const row = await within(panel).findByRole('row', { name: /flux-dev/ });
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells.slice(0, 5)).toEqual([
      '12',
      '25%',
      '18 s · 25 s · 41 s',
      '400 ms · 900 ms · 1.5 s',
      '2.0 s · 4.0 s · 6.0 s',
    ]);
    expect(screen.queryByRole('heading', { name: 'No spend in this range' })).toBeNull();

    const timeout = within(row).getByRole('link', { name: 'The provider took too long' });
    const target = new URL(timeout.getAttribute('href') ?? '', 'http://x');
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      model: 'flux-dev',
      status: 'failed',
      tool: 'image',
      error: 'provider_timeout',
    });
    expect(row).toHaveTextContent('(2 runs)');
    // The page's range and filters went to the API as they go to the spend endpoints.
    const [request] = server.callsTo('GET /v2/analytics/performance');
    expect(request?.url.searchParams.get('capability')).toBe('image');
    expect(request?.url.searchParams.get('timezone')).toBe('UTC');
  });

  it('says when no run finished, and switches tabs with the arrow keys', async () => {
    stubFetch({
      'GET /v2/analytics/summary': (request) => json({ ...summary({}), meta: echoMeta(request) }),
      'GET /v2/analytics/performance': (request) =>
        json({ data: [], meta: { ...echoMeta(request), percentiles: 'exact' } }),
    });
    const onChange = vi.fn();
    renderAnalytics(viewOf({ tz: 'UTC', compare: 'off', tab: 'performance' }, NOW), onChange);
    expect(await screen.findByRole('heading', { name: 'No finished runs in this range' })).toBeVisible();
    const tab = screen.getByRole('tab', { name: 'Performance' });
    expect(tab).toHaveAttribute('aria-selected', 'true');
    tab.focus();
    await userEvent.setup().keyboard('{ArrowLeft}');
    expect(onChange).toHaveBeenCalledWith({ tab: 'spend' });
  });
});

function performanceBucket(start: string, end: string, models: AnalyticsPerformanceRow[]) {
  const jobs = models.reduce((sum, model) => sum + model.jobs, 0);
  const failed = models.reduce((sum, model) => sum + model.failed, 0);
  const completed = models.reduce((sum, model) => sum + model.completed, 0);
  return {
    start,
    end,
    jobs,
    completed,
    failed,
    cancelled: 0,
    failure_rate: completed + failed === 0 ? null : failed / (completed + failed),
    total: null,
    phases: { queued: null, provider_queue: null, provider_run: null, downloading: null },
    models: models.map(({ top_errors: _, ...figures }) => figures),
  } satisfies AnalyticsPerformanceTimeseries['data'][number];
}

describe('speed and failures over time', () => {
  it('asks for the page’s bucket and filters, and tables each model’s chosen percentile per bucket', async () => {
    const server = stubFetch({
      'GET /v2/analytics/summary': (request) => json({ ...summary({}), meta: echoMeta(request) }),
      'GET /v2/analytics/performance': (request) =>
        json({ data: [], meta: { ...echoMeta(request), percentiles: 'exact' } }),
      'GET /v2/analytics/performance/timeseries': (request) =>
        json({
          data: [
            performanceBucket('2026-11-23T00:00:00.000Z', '2026-11-24T00:00:00.000Z', [
              performanceRow(),
              performanceRow({
                model: 'sdxl',
                jobs: 4,
                completed: 4,
                failed: 0,
                failure_rate: 0,
                total: PERCENTILES(3_000, 5_000, 8_000),
              }),
            ]),
            performanceBucket('2026-11-24T00:00:00.000Z', '2026-11-25T00:00:00.000Z', []),
          ],
          meta: { ...echoMeta(request), percentiles: 'exact', bucket: 'day' },
        } satisfies AnalyticsPerformanceTimeseries),
    });
    const user = userEvent.setup();
    renderAnalytics(viewOf({ tz: 'UTC', compare: 'off', tab: 'performance', model: 'flux-dev,sdxl' }, NOW));
    const panel = await screen.findByRole('region', { name: 'Speed and failures over time' });
    await user.click(within(panel).getByRole('button', { name: 'Show speed over time as table' }));
    const table = await within(panel).findByRole('table');
    const headings = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headings).toEqual(['Period', 'Runs', 'Failure rate', 'flux-dev', 'sdxl']);
    const cellsOf = (name: string) =>
      within(within(table).getByRole('row', { name: new RegExp(name) }))
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    // 3 failed of 16 completed and failed; the busiest model first; a bucket without runs shows dashes.
    expect(cellsOf('Nov 23')).toEqual(['16', '18.8%', '18 s', '3.0 s']);
    expect(cellsOf('Nov 24')).toEqual(['0', '—', '—', '—']);

    await user.click(within(panel).getByRole('radio', { name: '90th percentile' }));
    expect(cellsOf('Nov 23')).toEqual(['16', '18.8%', '25 s', '5.0 s']);

    const [request] = server.callsTo('GET /v2/analytics/performance/timeseries');
    expect(request?.url.searchParams.get('bucket')).toBe('day');
    expect(request?.url.searchParams.get('model')).toBe('flux-dev,sdxl');
  });

  it('says when no run finished in any bucket, and what failed with a retry', async () => {
    let fail = true;
    stubFetch({
      'GET /v2/analytics/summary': (request) => json({ ...summary({}), meta: echoMeta(request) }),
      'GET /v2/analytics/performance': (request) =>
        json({ data: [], meta: { ...echoMeta(request), percentiles: 'exact' } }),
      'GET /v2/analytics/performance/timeseries': (request) =>
        fail
          ? apiError(500, 'internal_error', 'The database did not answer')
          : json({
              data: [performanceBucket('2026-11-23T00:00:00.000Z', '2026-11-24T00:00:00.000Z', [])],
              meta: { ...echoMeta(request), percentiles: 'exact', bucket: 'day' },
            } satisfies AnalyticsPerformanceTimeseries),
    });
    renderAnalytics(viewOf({ tz: 'UTC', compare: 'off', tab: 'performance' }, NOW));
    const panel = await screen.findByRole('region', { name: 'Speed and failures over time' });
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Could not load speed over time.');
    fail = false;
    await userEvent.setup().click(within(panel).getByRole('button', { name: 'Retry now' }));
    expect(await within(panel).findByRole('heading', { name: 'No finished runs over time' })).toBeVisible();
  });
});
