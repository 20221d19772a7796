import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Job } from '../../../../contract/jobs.ts';
import { jobKeys } from '../../../queries/jobs.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { JobDetail } from './job-detail.tsx';
import { renderJobRoutes, testJob } from './job-test-harness.tsx';

/* The drawer shows the provider's part of a job: refusals in words. */

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
