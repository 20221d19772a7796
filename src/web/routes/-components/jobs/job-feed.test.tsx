import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../../../../contract/jobs.ts';
import { jobKeys } from '../../../queries/jobs.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { JobFeed } from './job-feed.tsx';
import { JobFeedFilterBar } from './job-filter-bar.tsx';
import { testJob as job, ME, renderJobRoutes } from './job-test-harness.tsx';

/** The feed at `url` with `jobs` as its one loaded page. */
function renderFeed(jobs: Job[], url = '/jobs') {
  return renderJobRoutes({
    url,
    jobs: (filters) => (
      <>
        <JobFeedFilterBar />
        <JobFeed key={JSON.stringify(filters)} filters={filters} openId={undefined} />
      </>
    ),
    seed: (queryClient, filters) =>
      queryClient.setQueryData(jobKeys.list(filters), {
        pages: [{ data: jobs, next_cursor: null }],
        pageParams: [null],
      }),
  });
}

describe('job feed', () => {
  beforeEach(() => {
    // jsdom lays nothing out: give the scroll container a viewport's height so rows are virtualised into it.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(720);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(1024);
  });

  it('renders only the rows in view of 10,000 jobs', async () => {
    stubFetch({ 'GET /v2/jobs': () => json({ data: [], next_cursor: null }) });
    const jobs = Array.from({ length: 10_000 }, (_, i) => job(10_000 - i));
    renderFeed(jobs);
    const table = await screen.findByRole('table');
    expect(table).toHaveAttribute('aria-rowcount', '10001');
    const rows = within(table).getAllByRole('row');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(60);
    expect(within(table).getByRole('link', { name: /prompt number 10000/ })).toHaveAttribute(
      'href',
      '/jobs/job_10000',
    );
    expect(screen.getByText('All 10,000 jobs shown')).toBeInTheDocument();
  });

  it('asks once, then cancels the selected jobs with one request each and says so', async () => {
    const running = [job(3, { status: 'running' }), job(2, { status: 'queued' }), job(1)];
    const api = stubFetch({
      'GET /v2/jobs': () => json({ data: [], next_cursor: null }),
      'POST /v2/jobs/job_00003/cancel': () =>
        json({ ...running[0], status: 'cancelled', updated_at: new Date().toISOString() }),
      'POST /v2/jobs/job_00002/cancel': () =>
        json({ ...running[1], status: 'cancelled', updated_at: new Date().toISOString() }),
      'GET /v2/me': () => json(ME),
    });
    const user = userEvent.setup();
    renderFeed(running);
    await user.click(await screen.findByLabelText('Select all loaded jobs'));
    const toolbar = screen.getByRole('toolbar', { name: 'Actions on selected jobs' });
    expect(within(toolbar).getByText('3 selected')).toBeInTheDocument();
    // The completed job cannot be cancelled: the button counts the two that can.
    await user.click(within(toolbar).getByRole('button', { name: 'Cancel (2)' }));
    // Asked once, with the number that will be cancelled; nothing is sent before the answer.
    const confirm = await screen.findByRole('dialog', { name: 'Cancel 2 jobs?' });
    expect(confirm).toHaveTextContent('The other 1 selected job has already finished');
    expect(api.calls.filter((c) => c.method === 'POST')).toEqual([]);
    // The way out does not read like the action ("Cancel" beside "Cancel 2 jobs").
    expect(
      within(confirm)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual([expect.stringMatching(/Close/), 'Keep them running', 'Cancel 2 jobs']);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel 2 jobs' }));

    expect(await screen.findByText('Cancelled 2 jobs')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST').map((c) => c.url.pathname)).toEqual([
      '/v2/jobs/job_00003/cancel',
      '/v2/jobs/job_00002/cancel',
    ]);
    const table = screen.getByRole('table');
    expect(within(table).getAllByText('Cancelled')).toHaveLength(2);
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  });

  it('counts a job that finished before its cancel arrived as done, not as a failure', async () => {
    const running = [job(3, { status: 'running' }), job(2, { status: 'running' })];
    stubFetch({
      'GET /v2/jobs': () => json({ data: [], next_cursor: null }),
      'POST /v2/jobs/job_00003/cancel': () =>
        json({ ...running[0], status: 'cancelled', updated_at: new Date().toISOString() }),
      'POST /v2/jobs/job_00002/cancel': () =>
        json(
          {
            error: {
              code: 'conflict',
              message: 'Job job_00002 is already completed and cannot be cancelled.',
              details: { status: 'completed' },
            },
          },
          { status: 409 },
        ),
      'GET /v2/me': () => json(ME),
      'GET /v2/jobs/job_00002': () => json({ ...running[1], status: 'completed' }),
    });
    const user = userEvent.setup();
    renderFeed(running);
    await user.click(await screen.findByLabelText('Select all loaded jobs'));
    await user.click(screen.getByRole('button', { name: 'Cancel (2)' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Cancel 2 jobs?' })).getByRole('button', {
        name: 'Cancel 2 jobs',
      }),
    );
    const said = await screen.findByText('Cancelled the job; 1 had already finished');
    expect(said.closest('[role="status"]')).not.toBeNull();
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
  });

  it('keeps the question it asked while the live feed moves the jobs on', async () => {
    const running = [job(3, { status: 'running' }), job(2, { status: 'running' })];
    stubFetch({ 'GET /v2/jobs': () => json({ data: [], next_cursor: null }), 'GET /v2/me': () => json(ME) });
    const user = userEvent.setup();
    const { queryClient } = renderFeed(running);
    await user.click(await screen.findByLabelText('Select all loaded jobs'));
    await user.click(screen.getByRole('button', { name: 'Cancel (2)' }));
    await screen.findByRole('dialog', { name: 'Cancel 2 jobs?' });
    // One of them completes while the question is open.
    act(() =>
      queryClient.setQueryData(jobKeys.list({}), {
        pages: [{ data: [running[0], { ...running[1], status: 'completed' }], next_cursor: null }],
        pageParams: [null],
      }),
    );
    expect(await screen.findByRole('button', { name: 'Cancel (1)' })).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Cancel 2 jobs?' })).toBeInTheDocument();
  });

  it('keeps its filters in the URL', async () => {
    stubFetch({ 'GET /v2/jobs': () => json({ data: [], next_cursor: null }) });
    const user = userEvent.setup();
    const { router } = renderFeed([job(1)]);
    await user.selectOptions(await screen.findByLabelText('Tool'), 'video');
    await waitFor(() => expect(router.state.location.search).toEqual({ tool: 'video' }));
    await user.click(screen.getByLabelText('Failed'));
    await waitFor(() => expect(router.state.location.search).toEqual({ tool: 'video', status: 'failed' }));
    // A new filter is a new feed (loaded, then shown).
    await screen.findByRole('heading', { name: 'No jobs match these filters' });
    await user.selectOptions(screen.getByLabelText('Folder'), 'No folder');
    await waitFor(() =>
      expect(router.state.location.search).toEqual({ tool: 'video', status: 'failed', folder: 'none' }),
    );
  });

  it('says when there are no jobs, and when none match', async () => {
    stubFetch({ 'GET /v2/jobs': () => json({ data: [], next_cursor: null }) });
    renderFeed([]);
    expect(await screen.findByRole('heading', { name: 'No jobs yet' })).toBeInTheDocument();
  });

  it('offers to clear filters that match nothing', async () => {
    stubFetch({ 'GET /v2/jobs': () => json({ data: [], next_cursor: null }) });
    renderFeed([], '/jobs?status=failed');
    expect(await screen.findByRole('heading', { name: 'No jobs match these filters' })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Clear filters' }).length).toBeGreaterThan(0);
  });

  it('says why a failed job failed in its row, in words', async () => {
    stubFetch({ 'GET /v2/jobs': () => json({ data: [], next_cursor: null }) });
    renderFeed([
      job(2, {
        status: 'failed',
        error: { code: 'content_policy_violation', message: 'Flagged by the safety checker' },
      }),
      job(1, { status: 'failed', error: { code: 'provider_timeout', message: 'deadline 600 s passed' } }),
    ]);
    const table = await screen.findByRole('table');
    const refused = within(table).getByText('The provider refused this prompt');
    expect(refused.closest('tr')).toHaveTextContent('prompt number 2');
    expect(refused).toHaveAttribute('title', 'Flagged by the safety checker.');
    expect(within(table).getByText('The provider took too long').closest('tr')).toHaveTextContent(
      'prompt number 1',
    );
  });

  it('shows how long a job ran, with its wait in the queue apart: one cancelled while queued did not run', async () => {
    stubFetch({ 'GET /v2/jobs': () => json({ data: [], next_cursor: null }) });
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 12) + seconds * 1000).toISOString();
    renderFeed([
      job(2, {
        status: 'cancelled',
        created_at: at(0),
        started_at: null,
        completed_at: null,
        updated_at: at(56),
      }),
      job(1, {
        status: 'completed',
        created_at: at(0),
        started_at: at(36),
        completed_at: at(56),
        updated_at: at(56),
      }),
    ]);
    const table = await screen.findByRole('table');
    const runTime = (prompt: RegExp) => {
      const row = within(table).getByRole('link', { name: prompt }).closest('tr')!;
      return within(row).getAllByRole('cell').at(-1)!.textContent;
    };
    expect(runTime(/prompt number 2/)).toBe('Did not run56 s in queue');
    expect(runTime(/prompt number 1/)).toBe('20 s36 s in queue');
    expect(within(table).getByRole('columnheader', { name: 'Run time' })).toBeInTheDocument();
  });
});
