import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../../../../contract/jobs.ts';
import { jobKeys } from '../../../queries/jobs.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { JobDetail } from './job-detail.tsx';
import { renderJobRoutes, testJob } from './job-test-harness.tsx';

/* The drawer shows the provider's part of a job: where its time went, the provider's log, and refusals in words. */

function renderDetail(job: Job) {
  stubFetch({
    [`GET /v2/jobs/${job.id}/webhook-deliveries`]: () => json({ data: [] }),
    [`GET /v2/jobs/${job.id}`]: () => json(job),
  });
  return renderJobRoutes({
    url: `/jobs/${job.id}`,
    jobs: () => null,
    job: (id, filters) => <JobDetail id={id} filters={filters} />,
    seed: (queryClient) => queryClient.setQueryData(jobKeys.detail(job.id), job),
  });
}

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString();
const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();

/** The timeline's phases as read: "label duration" per line. */
async function phases(): Promise<string[]> {
  const section = await screen.findByRole('region', { name: 'Where the time went' });
  return within(section)
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('where the time went', () => {
  it('splits a finished remote job into its five phases, each with its duration in words', async () => {
    const job = testJob(20, {
      provider: 'fal',
      provider_model: 'fal:fal-ai/flux/schnell',
      status: 'completed',
      created_at: at(0),
      started_at: at(1.5),
      completed_at: at(75),
      timeline: {
        created_at: at(0),
        started_at: at(1.5),
        submitted_at: at(2),
        provider_started_at: at(14),
        provider_finished_at: at(74),
        completed_at: at(75),
      },
    });
    renderDetail(job);
    expect(await phases()).toEqual([
      'Queued here1.5 s',
      'Submitting500 ms',
      'Queued at the provider12 s',
      'Running at the provider1 min 00 s',
      'Downloading the result1.0 s',
    ]);
    const section = screen.getByRole('region', { name: 'Where the time went' });
    expect(section).toHaveTextContent('In all1 min 15 s');
    // The bar is a picture of the list: hidden from assistive technology, one segment per phase.
    expect(section.querySelectorAll('[data-phase]')).toHaveLength(5);
    expect(section.querySelector('[aria-hidden="true"]')).toContainElement(
      section.querySelector('[data-phase="provider_run"]') as HTMLElement,
    );
  });

  it('shows a local job as queued, then running', async () => {
    const job = testJob(21, {
      status: 'completed',
      started_at: at(21.25),
      completed_at: at(24),
      timeline: {
        created_at: at(21),
        started_at: at(21.25),
        submitted_at: null,
        provider_started_at: null,
        provider_finished_at: null,
        completed_at: at(24),
      },
    });
    renderDetail(job);
    expect(await phases()).toEqual(['Queued250 ms', 'Running2.8 s']);
  });

  it('grows the phase under way while the job runs at the provider', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval', 'Date'] });
    const job = testJob(22, {
      provider: 'fal',
      status: 'running',
      created_at: ago(20),
      started_at: ago(19),
      timeline: {
        created_at: ago(20),
        started_at: ago(19),
        submitted_at: ago(18),
        provider_started_at: ago(10),
        provider_finished_at: null,
        completed_at: null,
      },
    });
    renderDetail(job);
    const list = await phases();
    expect(list).toHaveLength(4);
    expect(list[3]).toMatch(/^Running at the provider \(now\)10 s so far$/);
    act(() => vi.advanceTimersByTime(5_000));
    expect((await phases())[3]).toMatch(/^Running at the provider \(now\)15 s so far$/);
    expect(screen.getByRole('region', { name: 'Where the time went' })).toHaveTextContent(
      'Under way for25 s',
    );
  });
});

describe('the provider log', () => {
  const running = (logs: string | null) =>
    testJob(30, {
      provider: 'replicate',
      status: 'running',
      created_at: ago(5),
      started_at: ago(4),
      timeline: {
        created_at: ago(5),
        started_at: ago(4),
        submitted_at: ago(3),
        provider_started_at: ago(2),
        provider_finished_at: null,
        completed_at: null,
      },
      provider_logs: logs,
    });

  it('is absent when the provider keeps no log', async () => {
    renderDetail(running(null));
    await screen.findByRole('region', { name: 'Where the time went' });
    expect(screen.queryByText('Provider log')).not.toBeInTheDocument();
  });

  it('shows the log as text, follows its tail, and stays where the person scrolled to', async () => {
    const { queryClient } = renderDetail(
      running('Using seed 42\n<b>step</b> 1/20 <img src=x onerror=alert(1)>'),
    );
    const log = await screen.findByRole('region', { name: 'Provider log (replicate)' });
    // Text, never markup: the tags show as typed and make no elements.
    expect(log).toHaveTextContent('<b>step</b> 1/20 <img src=x onerror=alert(1)>');
    expect(log.querySelector('b, img')).toBeNull();
    expect(log.closest('details')).toHaveAttribute('open');

    // jsdom lays nothing out: give the log a height and a scroll position to follow.
    let scrollTop = 0;
    let scrollHeight = 400;
    Object.defineProperty(log, 'clientHeight', { configurable: true, get: () => 100 });
    Object.defineProperty(log, 'scrollHeight', { configurable: true, get: () => scrollHeight });
    Object.defineProperty(log, 'scrollTop', {
      configurable: true,
      get: () => scrollTop,
      set: (value: number) => {
        scrollTop = value;
      },
    });
    const focused = document.activeElement;

    scrollHeight = 600;
    act(() => queryClient.setQueryData(jobKeys.detail('job_00030'), running('Using seed 42\nstep 2/20')));
    await waitFor(() => expect(log).toHaveTextContent('step 2/20'));
    expect(scrollTop).toBe(600);

    // Scrolled up to read: new lines arrive without moving the view.
    scrollTop = 150;
    fireEvent.scroll(log);
    scrollHeight = 800;
    act(() => queryClient.setQueryData(jobKeys.detail('job_00030'), running('Using seed 42\nstep 3/20')));
    await waitFor(() => expect(log).toHaveTextContent('step 3/20'));
    expect(scrollTop).toBe(150);

    // Back at the bottom: it follows again.
    scrollTop = 700;
    fireEvent.scroll(log);
    scrollHeight = 900;
    act(() => queryClient.setQueryData(jobKeys.detail('job_00030'), running('Using seed 42\nstep 4/20')));
    await waitFor(() => expect(log).toHaveTextContent('step 4/20'));
    expect(scrollTop).toBe(900);
    // Updates never take focus.
    expect(document.activeElement).toBe(focused);
  });
});

describe('refusals in words', () => {
  it('says the provider refused the prompt, with its message as the detail', async () => {
    renderDetail(
      testJob(40, {
        status: 'failed',
        provider: 'fal',
        error: { code: 'content_policy_violation', message: 'Prompt flagged by the safety checker' },
      }),
    );
    const alert = (await screen.findByText('The provider refused this prompt')).closest('[role="alert"]');
    expect(alert).toHaveTextContent('Prompt flagged by the safety checker.');
    expect(alert).toHaveTextContent('Code content_policy_violation');
  });

  it('says an unknown submit charged nothing and can be run again', async () => {
    renderDetail(
      testJob(41, {
        status: 'failed',
        provider: 'replicate',
        error: { code: 'provider_submit_unknown', message: 'create timed out after 30000 ms' },
      }),
    );
    const alert = (
      await screen.findByText('We could not tell whether the provider received this job')
    ).closest('[role="alert"]');
    expect(alert).toHaveTextContent('nothing was charged. Run it again.');
    expect(alert).not.toHaveTextContent('30000 ms');
  });
});
