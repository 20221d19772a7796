import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { renderWithQuery } from '../../../testing/render-with-query.tsx';
import { ResultPanel } from './result-panel.tsx';

const RUNNING = {
  id: 'job_1',
  tool: 'video',
  model: 'local-motion',
  provider: 'local',
  status: 'running',
  created_at: new Date().toISOString(),
  estimated_cost_cents: 2,
  actual_cost_cents: null,
};

function statusAt(progress: number, message: string) {
  return {
    id: 'job_1',
    status: 'running',
    terminal: false,
    progress,
    progress_message: message,
    provider_status: null,
    output: null,
    error: null,
    updated_at: new Date().toISOString(),
    started_at: new Date().toISOString(),
    completed_at: null,
  };
}

describe('the result panel', () => {
  it('does not say "Done" beside a running job: at 100% it is still saving the result', async () => {
    stubFetch({
      'GET /v2/jobs/job_1': () => json(RUNNING),
      'GET /v2/jobs/job_1/status': () => json(statusAt(1, 'Done')),
    });
    renderWithQuery(<ResultPanel jobId="job_1" />);
    expect(await screen.findByText('Saving the result…')).toBeInTheDocument();
    expect(screen.getByText('Running')).toBeInTheDocument();
    expect(screen.queryByText(/Done/)).toBeNull();
  });

  it('shows the engine’s own words while it works', async () => {
    stubFetch({
      'GET /v2/jobs/job_1': () => json(RUNNING),
      'GET /v2/jobs/job_1/status': () => json(statusAt(0.4, 'Encoding frames')),
    });
    renderWithQuery(<ResultPanel jobId="job_1" />);
    expect(await screen.findByText('Encoding frames')).toBeInTheDocument();
  });

  it('says the provider refused the prompt, with its message, when a job fails on content policy', async () => {
    const refusal = { code: 'content_policy_violation', message: 'NSFW content detected in the prompt' };
    stubFetch({
      'GET /v2/jobs/job_1': () => json({ ...RUNNING, status: 'failed', error: refusal }),
      'GET /v2/jobs/job_1/status': () =>
        json({ ...statusAt(0, ''), status: 'failed', terminal: true, progress: null, error: refusal }),
    });
    renderWithQuery(<ResultPanel jobId="job_1" />);
    const title = await screen.findByText('The provider refused this prompt');
    const alert = title.closest('[role="alert"]');
    expect(alert).toHaveTextContent('NSFW content detected in the prompt.');
    expect(alert).toHaveTextContent('Code content_policy_violation');
  });

  it('counts queue time and run time apart while the job runs, from when the polled status says it started', async () => {
    const now = Date.now();
    // The job was read while it still waited; only the status poll knows a worker took it.
    const queuedJob = {
      ...RUNNING,
      status: 'queued',
      created_at: new Date(now - 15_000).toISOString(),
      started_at: null,
      updated_at: new Date(now - 15_000).toISOString(),
    };
    stubFetch({
      'GET /v2/jobs/job_1': () => json(queuedJob),
      'GET /v2/jobs/job_1/status': () =>
        json({ ...statusAt(0.2, 'Encoding frames'), started_at: new Date(now - 12_000).toISOString() }),
    });
    renderWithQuery(<ResultPanel jobId="job_1" />);
    // 3 s in the queue exactly; the run's seconds may have ticked on while the test rendered.
    expect(await screen.findByText(/^· Queued 3 s · Running 1[2-4] s$/)).toBeInTheDocument();
  });

  it('counts only queue time while no worker has taken the job', async () => {
    const created = new Date(Date.now() - 15_000).toISOString();
    stubFetch({
      'GET /v2/jobs/job_1': () =>
        json({ ...RUNNING, status: 'queued', created_at: created, started_at: null }),
      'GET /v2/jobs/job_1/status': () =>
        json({ ...statusAt(0, 'Waiting'), status: 'queued', progress: null, started_at: null }),
    });
    renderWithQuery(<ResultPanel jobId="job_1" />);
    expect(await screen.findByText(/^· Queued 1[5-7] s$/)).toBeInTheDocument();
    expect(screen.queryByText(/Running \d/)).toBeNull();
  });

  it('counts down to the run the job was estimated when made, measured here or said as typical', async () => {
    const now = Date.now();
    const estimate = { basis: 'measured', p50_ms: 40_000, p90_ms: 55_000, runs: 20, scaled_to_seconds: 20 };
    stubFetch({
      'GET /v2/jobs/job_1': () =>
        json({ ...RUNNING, created_at: new Date(now - 15_000).toISOString(), estimated_run: estimate }),
      'GET /v2/jobs/job_1/status': () =>
        json({ ...statusAt(0.2, 'Encoding frames'), started_at: new Date(now - 12_000).toISOString() }),
    });
    renderWithQuery(<ResultPanel jobId="job_1" />);
    // 28 s left of the p50, give or take the seconds the test took to render.
    expect(await screen.findByTestId('run-eta')).toHaveTextContent(
      /^About 2[5-8] s left · usually 40–55 s here$/,
    );
  });

  it('says a waiting job’s expected run as the catalog’s, when nothing is measured yet', async () => {
    stubFetch({
      'GET /v2/jobs/job_1': () =>
        json({
          ...RUNNING,
          status: 'queued',
          started_at: null,
          estimated_run: { basis: 'typical', p50_ms: 6_000, p90_ms: 6_000, runs: 0, scaled_to_seconds: null },
        }),
      'GET /v2/jobs/job_1/status': () =>
        json({ ...statusAt(0, 'Waiting'), status: 'queued', progress: null, started_at: null }),
    });
    renderWithQuery(<ResultPanel jobId="job_1" />);
    expect(await screen.findByTestId('run-eta')).toHaveTextContent(
      'Expected run: about 6 s (typical for this model)',
    );
  });
});
