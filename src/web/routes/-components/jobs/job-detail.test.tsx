import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LedgerEntry } from '../../../../contract/billing.ts';
import type { Job, WebhookDelivery } from '../../../../contract/jobs.ts';
import { jobKeys } from '../../../queries/jobs.ts';
import { json, stubFetch } from '../../../testing/fake-fetch.ts';
import { JobDetail } from './job-detail.tsx';
import { renderJobRoutes, testJob } from './job-test-harness.tsx';

function renderDetail(job: Job) {
  return renderJobRoutes({
    url: `/jobs/${job.id}`,
    jobs: () => null,
    job: (id, filters) => <JobDetail id={id} filters={filters} />,
    seed: (queryClient) => queryClient.setQueryData(jobKeys.detail(job.id), job),
  });
}

const completed = testJob(7, {
  status: 'completed',
  input: { model: 'local-sketch', prompt: 'a red fox', options: { webhook_url: 'https://example.com/hook' } },
  started_at: '2026-01-01T00:00:08.000Z',
  completed_at: '2026-01-01T00:00:10.500Z',
  actual_cost_cents: 1,
  pricing: {
    estimated: 1,
    actual: 1,
    billing: 'per_image',
    cached: false,
    billed_units: { images: 1 },
    pricing_id: 'local:sketch:image',
  },
  provider_status: 'succeeded',
  output: {
    version: 'v1',
    outputs: [
      {
        url: 'http://localhost/media/file_1/out.png',
        file_id: 'file_1',
        media_type: 'image/png',
        size_bytes: 2048,
        thumbnail_url: null,
      },
    ],
  },
});

const refund = (credits: number, note: string): LedgerEntry => ({
  id: `led_${credits}`,
  team_id: 'c0399080-8c70-427a-bb3b-897719ec946b',
  delta_cents: credits,
  kind: 'refund',
  balance_after_cents: 100,
  job_id: completed.id,
  tool: 'image',
  model: 'local-sketch',
  folder_id: null,
  api_key_id: null,
  person_id: null,
  source: 'app',
  note,
  created_at: '2026-01-02T00:00:00.000Z',
});

const delivery = (attempt: number, overrides: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: `del_${attempt}`,
  webhook_id: 'msg_1',
  job_id: completed.id,
  event_type: 'job.completed',
  url: 'https://example.com/hook',
  attempt,
  status: 'succeeded',
  response_status: 200,
  error: null,
  duration_ms: 40,
  created_at: '2026-01-01T00:00:11.000Z',
  next_attempt_at: null,
  ...overrides,
});

describe('job details', () => {
  it("opens a try's request and answer, and redelivers: the new try shows when it arrives", async () => {
    const logged = delivery(1, {
      status: 'failed',
      response_status: 503,
      error: 'receiver answered HTTP 503',
      request: {
        url: 'https://example.com/hook',
        headers: { 'webhook-id': 'msg_1', 'webhook-signature': 'v1,c2ln' },
        body: '{"type":"job.completed"}',
        body_truncated: false,
      },
      response: { status: 503, headers: { 'retry-after': '30' }, body: 'busy', body_truncated: false },
    });
    let tries = [logged];
    const server = stubFetch({
      [`GET /v2/jobs/${completed.id}/webhook-deliveries`]: () => json({ data: tries }),
      [`POST /v2/jobs/${completed.id}/webhook-deliveries/redeliver`]: () => {
        tries = [delivery(2, { created_at: '2026-01-01T00:01:00.000Z' }), logged];
        return json({ webhook_id: 'msg_1', attempt: 2 }, { status: 202 });
      },
    });
    renderDetail(completed);
    const user = userEvent.setup();
    const deliveries = await screen.findByRole('region', { name: 'Webhook deliveries' });
    await user.click(await within(deliveries).findByRole('button', { name: 'Show the log of attempt 1' }));
    expect(within(deliveries).getByText(/webhook-signature: v1,c2ln/)).toBeVisible();
    expect(within(deliveries).getByText('{"type":"job.completed"}')).toBeVisible();
    expect(within(deliveries).getByText(/retry-after: 30/)).toBeVisible();
    expect(within(deliveries).getByText('busy')).toBeVisible();

    await user.click(within(deliveries).getByRole('button', { name: 'Redeliver' }));
    expect(server.callsTo(`POST /v2/jobs/${completed.id}/webhook-deliveries/redeliver`)).toHaveLength(1);
    expect(await within(deliveries).findByText('Attempt 2 sent: succeeded.')).toBeVisible();
  });

  it('shows the output, pricing, timings, provider and webhook deliveries', async () => {
    stubFetch({
      [`GET /v2/jobs/${completed.id}/webhook-deliveries`]: () =>
        json({
          data: [
            delivery(2, {}),
            delivery(1, { status: 'failed', response_status: 500, error: 'HTTP 500 from the receiver' }),
          ],
        }),
    });
    renderDetail(completed);

    expect(await screen.findByRole('img', { name: 'Output 1' })).toHaveAttribute(
      'src',
      'http://localhost/media/file_1/out.png',
    );
    expect(screen.getByRole('link', { name: 'Lineage' })).toHaveAttribute('href', '/files/file_1');
    const pricing = screen.getByRole('region', { name: 'Pricing' });
    expect(within(pricing).getByText('1 image')).toBeInTheDocument();
    expect(within(pricing).getByText('per image')).toBeInTheDocument();
    expect(within(pricing).getByText('No')).toBeInTheDocument();
    // One account of time: the phases, their moments and the expected run, in one place.
    expect(screen.queryByRole('region', { name: 'Timings' })).not.toBeInTheDocument();
    const time = screen.getByRole('region', { name: 'Where the time went' });
    expect(within(time).getByText('Created')).toBeInTheDocument();
    expect(within(time).getByText('Completed')).toBeInTheDocument();
    expect(within(time).getByText('Expected run')).toBeInTheDocument();
    // The estimate the job was given, said as what it is: here the catalog's, nothing measured yet.
    expect(within(time).getByText('about 4 s (typical for this model)')).toBeInTheDocument();
    expect(screen.queryAllByText(/^(Waited in queue|Ran for|Estimated run)$/)).toHaveLength(0);
    expect(
      within(screen.getByRole('region', { name: 'Provider' })).getByText('succeeded'),
    ).toBeInTheDocument();

    // No refund of its charge: no row for one.
    expect(within(pricing).queryByText('Refunded')).not.toBeInTheDocument();
    const deliveries = screen.getByRole('region', { name: 'Webhook deliveries' });
    expect(await within(deliveries).findByText('HTTP 500 from the receiver')).toBeInTheDocument();
    expect(within(deliveries).getAllByRole('row')).toHaveLength(3);
    // Nothing to cancel or retry on a completed job; refresh stays.
    expect(screen.queryByRole('button', { name: 'Cancel job' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
  });

  it('shows what was refunded of a charge, with the reasons', async () => {
    const charged = { ...completed, actual_cost_cents: 5, pricing: { ...completed.pricing, actual: 5 } };
    const api = stubFetch({
      [`GET /v2/jobs/${completed.id}/webhook-deliveries`]: () => json({ data: [] }),
      'GET /v2/billing/ledger': () =>
        json({
          data: [refund(2, 'the rest'), refund(3, 'blurry output')],
          next_cursor: null,
        }),
    });
    renderDetail(charged);
    const pricing = await screen.findByRole('region', { name: 'Pricing' });
    expect(await within(pricing).findByText('5 credits: the rest; blurry output')).toBeInTheDocument();
    const [asked] = api.callsTo('GET /v2/billing/ledger');
    expect(Object.fromEntries(asked!.url.searchParams)).toMatchObject({ job: completed.id, kind: 'refund' });
  });

  it('shows why a job failed, and a retry opens the new job', async () => {
    const failed = testJob(8, {
      status: 'failed',
      error: { code: 'provider_error', message: 'The engine gave up.' },
    });
    const retried = testJob(9, { status: 'queued', retry_of: failed.id });
    const api = stubFetch({
      [`GET /v2/jobs/${failed.id}/webhook-deliveries`]: () => json({ data: [] }),
      [`POST /v2/jobs/${failed.id}/retry`]: () => json(retried, { status: 202 }),
      'GET /v2/me': () => json({}),
    });
    const user = userEvent.setup();
    const { router } = renderDetail(failed);

    const reason = await screen.findByText('The engine gave up.');
    expect(reason.closest('[role="alert"]')).toHaveTextContent('Provider error');
    // Failed: what it held was given back, and the drawer says so instead of "not settled".
    expect(
      within(screen.getByRole('region', { name: 'Pricing' })).getByText('0 credits (not charged)'),
    ).toBeInTheDocument();
    expect(await screen.findByText('This job has no webhook (options.webhook_url).')).toBeInTheDocument();
    // Not charged, so nothing to refund: the ledger is not asked.
    expect(api.callsTo('GET /v2/billing/ledger')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/jobs/${retried.id}`));
    expect(api.callsTo(`POST /v2/jobs/${failed.id}/retry`)).toHaveLength(1);
    expect(await screen.findByText('Retried the job: a new job is queued')).toBeInTheDocument();
  });

  it('cancels a running job that just started at once', async () => {
    const running = testJob(10, {
      status: 'running',
      progress: 0.4,
      progress_message: 'Rendering',
      created_at: new Date(Date.now() - 3_000).toISOString(),
      started_at: new Date(Date.now() - 2_000).toISOString(),
    });
    stubFetch({
      [`GET /v2/jobs/${running.id}/webhook-deliveries`]: () => json({ data: [] }),
      [`POST /v2/jobs/${running.id}/cancel`]: () =>
        json({ ...running, status: 'cancelled', updated_at: '2026-01-01T01:00:00.000Z' }),
      'GET /v2/me': () => json({}),
      [`GET /v2/jobs/${running.id}`]: () => json(running),
    });
    const user = userEvent.setup();
    renderDetail(running);

    expect(await screen.findByRole('progressbar', { name: 'Rendering' })).toHaveAttribute('value', '0.4');
    await user.click(screen.getByRole('button', { name: 'Cancel job' }));
    expect(await screen.findByText('Cancelled', { selector: 'span' })).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });

  it('asks before cancelling a job that has run for a long time', async () => {
    const long = testJob(11, {
      status: 'running',
      progress: 0.8,
      progress_message: 'Rendering',
      started_at: new Date(Date.now() - 125_000).toISOString(),
    });
    const api = stubFetch({
      [`GET /v2/jobs/${long.id}/webhook-deliveries`]: () => json({ data: [] }),
      [`POST /v2/jobs/${long.id}/cancel`]: () =>
        json({ ...long, status: 'cancelled', updated_at: new Date().toISOString() }),
      'GET /v2/me': () => json({}),
      [`GET /v2/jobs/${long.id}`]: () => json(long),
    });
    const user = userEvent.setup();
    renderDetail(long);

    await user.click(await screen.findByRole('button', { name: 'Cancel job' }));
    const confirm = await screen.findByRole('dialog', { name: 'Cancel this job?' });
    expect(confirm).toHaveTextContent(/under way for 2 min \d+ s/);
    expect(api.callsTo(`POST /v2/jobs/${long.id}/cancel`)).toHaveLength(0);
    // Keeping it is one click (the way out has focus first), and it does not read like the action: nothing is sent.
    expect(within(confirm).queryByRole('button', { name: 'Cancel' })).toBeNull();
    await user.click(within(confirm).getByRole('button', { name: 'Keep it running' }));
    expect(api.callsTo(`POST /v2/jobs/${long.id}/cancel`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel job' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Cancel this job?' })).getByRole('button', {
        name: 'Cancel job',
      }),
    );
    expect(await screen.findByText('Cancelled', { selector: 'span' })).toBeInTheDocument();
    expect(api.callsTo(`POST /v2/jobs/${long.id}/cancel`)).toHaveLength(1);
  });

  it('names the API key and folder a job came with, the ids beside them', async () => {
    const folder = 'c0000000-0000-4000-8000-000000000001';
    const filed = testJob(12, { api_key_id: 'key_ci', folder_id: folder });
    stubFetch({
      [`GET /v2/jobs/${filed.id}/webhook-deliveries`]: () => json({ data: [] }),
      'GET /v2/api-keys': () => json({ data: [{ id: 'key_ci', name: 'CI pipeline' }], next_cursor: null }),
      'GET /v2/workspaces': () => json({ data: [{ id: folder, name: 'Holiday shots' }], next_cursor: null }),
    });
    renderDetail(filed);
    const origin = await screen.findByRole('region', { name: 'Origin' });
    expect(await within(origin).findByRole('link', { name: /CI pipeline/ })).toHaveTextContent('key_ci');
    expect(within(origin).getByRole('button', { name: 'Copy id' })).toBeInTheDocument();
    expect(await within(origin).findByRole('link', { name: /Holiday shots/ })).toHaveAttribute(
      'href',
      `/jobs?folder=${folder}`,
    );
  });
});
