import { QueryClient, QueryClientProvider, QueryObserver } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../../contract/jobs.ts';
import { freshJob } from '../../contract/test-fixtures.ts';
import { json, stubFetch } from '../testing/fake-fetch.ts';
import { flattenPages, type JobFeedData } from './job-feed-cache.ts';
import type { JobFeedFilters } from './job-filters.ts';
import { jobKeys, jobsQueryOptions } from './jobs.ts';
import { useJobFeedLive } from './jobs-live.ts';
import { meQueryOptions } from './me.ts';

const ME = 'a0000000-0000-4000-8000-000000000001';
const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds)).toISOString();

function job(n: number, overrides: Partial<Job> = {}): Job {
  return freshJob({
    id: `job_${String(n).padStart(3, '0')}`,
    status: 'running',
    created_at: at(n),
    updated_at: at(n),
    person_id: ME,
    ...overrides,
  });
}

function Probe({ filters, onFinished }: { filters: JobFeedFilters; onFinished: (jobs: Job[]) => void }) {
  useJobFeedLive(filters, { onFinished });
  return null;
}

/** A server whose list answers `first` without updated_since, and the next of `changes` with it. */
function server(first: Job[], changes: Job[][]) {
  let next = 0;
  return stubFetch({
    'GET /v2/jobs': ({ url }) =>
      json({
        data: url.searchParams.has('updated_since') ? (changes[next++] ?? []) : first,
        next_cursor: null,
      }),
  });
}

async function mount(filters: JobFeedFilters) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await queryClient.fetchInfiniteQuery(jobsQueryOptions(filters));
  const onFinished = vi.fn();
  render(
    <QueryClientProvider client={queryClient}>
      <Probe filters={filters} onFinished={onFinished} />
    </QueryClientProvider>,
  );
  const rows = () =>
    flattenPages(queryClient.getQueryData<JobFeedData>(jobKeys.list(filters))!).map((j) => [j.id, j.status]);
  return { queryClient, onFinished, rows };
}

describe('live updates of the job feed', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'Date'] }));
  afterEach(() => vi.useRealTimers());

  it('asks for what changed since the feed was synced, without the status filter, and merges it', async () => {
    const api = server(
      [job(2), job(1)],
      [
        [],
        [job(2, { progress: 0.5, updated_at: at(30) })],
        [job(2, { status: 'completed', updated_at: at(40) })],
      ],
    );
    const { onFinished, rows } = await mount({ status: 'running', tool: 'image' });
    // The page, then at once a first request for changes: the baseline of what is news.
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(api.calls).toHaveLength(2);

    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(api.calls).toHaveLength(3);
    const delta = api.calls[2]!.url.searchParams;
    // Two seconds before the latest update seen: slow writes that began earlier are not missed.
    expect(delta.get('updated_since')).toBe(at(0));
    expect(delta.has('status')).toBe(false);
    expect(delta.get('tool')).toBe('image');
    expect(rows()).toEqual([
      ['job_002', 'running'],
      ['job_001', 'running'],
    ]);

    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(api.calls[3]!.url.searchParams.get('updated_since')).toBe(at(28));
    // Completed: it leaves a feed filtered to running jobs, and the person hears about it.
    expect(rows()).toEqual([['job_001', 'running']]);
    expect(onFinished).toHaveBeenCalledWith([
      expect.objectContaining({ id: 'job_002', status: 'completed' }),
    ]);
  });

  it('makes one request per interval however many jobs are active', async () => {
    const active = Array.from({ length: 20 }, (_, i) => job(i + 1));
    const api = server(active, []);
    await mount({});
    await act(() => vi.advanceTimersByTimeAsync(0));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    // Beyond the page and the baseline: one a second, and never one per job.
    expect(api.callsTo('GET /v2/jobs').length - 2).toBe(10);
    expect(api.calls.every((call) => call.url.pathname === '/v2/jobs')).toBe(true);
  });

  it('asks every 2 s when nothing is active, so a job made elsewhere shows up within about 2 s', async () => {
    const api = server([job(1, { status: 'completed' })], []);
    await mount({});
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    // The page, the baseline, then one request every 2 s (not one per second, not one per job).
    expect(api.calls).toHaveLength(1 + 1 + 15);
  });

  it("syncs from the server's clock when the list answer carries it, and refreshes the balance once per news", async () => {
    let changes: Job[] = [];
    const api = stubFetch({
      'GET /v2/jobs': ({ url }) =>
        json({
          data: url.searchParams.has('updated_since') ? changes : [job(1, { status: 'completed' })],
          next_cursor: null,
          server_time: at(100),
        }),
      'GET /v2/me': () => json({ balance_cents: 990 }),
    });
    const { queryClient, rows } = await mount({});
    // The header's balance, on screen.
    queryClient.setQueryData(['me'], { balance_cents: 1000 });
    new QueryObserver(queryClient, { ...meQueryOptions(), staleTime: Number.POSITIVE_INFINITY }).subscribe(
      () => {},
    );
    await act(() => vi.advanceTimersByTimeAsync(0));
    // The first page's server clock, less the 2 s a slow write may lag behind: not the old row's time.
    expect(api.calls[1]!.url.searchParams.get('updated_since')).toBe(at(98));
    expect(api.callsTo('GET /v2/me')).toHaveLength(0);

    changes = [
      job(101, { status: 'queued', updated_at: at(101) }),
      job(102, { status: 'queued', updated_at: at(101) }),
    ];
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(rows().map(([id]) => id)).toEqual(['job_102', 'job_101', 'job_001']);
    // Two new jobs held credits: the balance is asked for once, not once per job.
    expect(api.callsTo('GET /v2/me')).toHaveLength(1);
  });

  it('shows a job created elsewhere, and tells when it finishes', async () => {
    const api = server(
      [job(1, { status: 'completed' })],
      [
        [],
        [job(50, { status: 'queued', updated_at: at(50) })],
        [job(50, { status: 'failed', updated_at: at(55) })],
        [job(60, { status: 'completed', updated_at: at(61), completed_at: at(61) })],
      ],
    );
    const { rows, onFinished } = await mount({});
    await act(() => vi.advanceTimersByTimeAsync(0));
    // Nothing active after the baseline: the next request comes 2 s later.
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(rows()).toEqual([
      ['job_050', 'queued'],
      ['job_001', 'completed'],
    ]);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(rows()[0]).toEqual(['job_050', 'failed']);
    expect(onFinished).toHaveBeenCalledTimes(1);
    // Made and finished between two requests: still news.
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(onFinished).toHaveBeenLastCalledWith([expect.objectContaining({ id: 'job_060' })]);
    expect(api.calls).toHaveLength(5);
  });

  it('does not announce jobs that had finished before the feed opened', async () => {
    const old = job(5, { status: 'completed', completed_at: at(5) });
    // The status filter keeps it out of the page; the baseline brings it in, already finished.
    server([], [[old], [old]]);
    const { onFinished } = await mount({ status: 'failed' });
    await act(() => vi.advanceTimersByTimeAsync(0));
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(onFinished).not.toHaveBeenCalled();
  });
});
