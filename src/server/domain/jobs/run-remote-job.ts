import type { Services } from '../../services.ts';
import type { ModelDefinition, ProviderOffer } from '../catalog/types.ts';
import type { JobRow } from './job-row.ts';
import type { FollowedState, RemoteRunner, RunContext, RunInput } from './provider.ts';
import { ProviderError } from './provider-error.ts';
import { submitOutcomeUnknown } from './remote-follower.ts';
import type { RunJobDeps } from './run-job.ts';

/** The path a provider calls back on when a job of ours finishes (see http/routes/provider-webhooks.ts). */
export function providerWebhookUrl(publicUrl: string, provider: string, jobId: string): string {
  return `${publicUrl}/api/provider-webhooks/${encodeURIComponent(provider)}/${encodeURIComponent(jobId)}`;
}

interface Claimed {
  row: JobRow;
  token: string;
  /** The run's context: its signal stops the submit when the job is cancelled or taken over. */
  context: RunContext;
}

/**
 * The worker's part of a job at an external provider: submit it once (or find the one an earlier run
 * submitted), record the provider's id, and hand the job to this process's follower. Returns as soon as
 * the provider holds the job; the follower finishes it.
 *
 * Never two provider jobs for one of ours: the row records that the creating request was sent
 * (`provider_sent_at`) before it goes, so a run that died, or lost the database, between sending and
 * recording the answer is followed up by lookup (where the provider's API has one) instead of a resend;
 * without a lookup the job fails with `provider_submit_unknown` and its hold is returned.
 */
export async function startRemoteJob(
  s: Services,
  deps: RunJobDeps,
  { row, token, context }: Claimed,
  runner: RemoteRunner,
  model: ModelDefinition,
  offer: ProviderOffer,
): Promise<void> {
  const input: RunInput = { model, offer, body: row.input, jobId: row.id };
  const webhooks = runner.webhooks && s.config.PROVIDERS_REACH_PUBLIC_URL;
  let state: FollowedState;
  if (row.provider_job_id) {
    state = await runner.poll({ ...input, providerJobId: row.provider_job_id }, context.signal);
  } else if (row.provider_sent_at) {
    state = await findSent(runner, input, row.provider_sent_at, context.signal);
  } else {
    context.progress(0.02, `Submitting to ${row.provider}`);
    const sent: { at: Date | null } = { at: null };
    try {
      state = await runner.submit(input, {
        ...context,
        webhookUrl: webhooks ? providerWebhookUrl(s.config.PUBLIC_URL, row.provider, row.id) : null,
        beforeSend: async () => {
          sent.at = await markSent(s, row.id, token);
        },
      });
    } catch (error) {
      if (!submitOutcomeUnknown(error) || !sent.at) throw error;
      s.log.warn('a submit may have reached the provider; looking it up', {
        job_id: row.id,
        provider: row.provider,
        error: error.message,
      });
      state = await findSent(runner, input, sent.at, context.signal, error.message);
    }
  }
  const recorded = await s.db.query<JobRow>(
    `UPDATE jobs SET provider_job_id = $3, provider_status = $4, submitted_at = coalesce(submitted_at, now()),
            updated_at = now()
      WHERE id = $1 AND run_token = $2 AND status = 'running' RETURNING *`,
    [row.id, token, state.providerJobId, state.providerStatus],
  );
  const current = recorded.rows[0];
  if (!current) {
    // Cancelled (or taken over) while the provider took it: stop the work there; best effort.
    await runner.cancel({ ...input, providerJobId: state.providerJobId }).catch(() => {});
    return;
  }
  s.remoteJobs.follow(s, deps, {
    row: current,
    token,
    input: { ...input, providerJobId: state.providerJobId },
    runner,
    state,
    webhooks,
  });
}

/**
 * Marks that the creating request is about to go. A job cancelled or taken over meanwhile is not sent;
 * a database that cannot record the mark stops the send (a send it could not record could be repeated).
 */
async function markSent(s: Services, jobId: string, token: string): Promise<Date> {
  const { rows } = await s.db.query<{ provider_sent_at: Date }>(
    `UPDATE jobs SET provider_sent_at = now(), updated_at = now()
      WHERE id = $1 AND run_token = $2 AND status = 'running' RETURNING provider_sent_at`,
    [jobId, token],
  );
  if (!rows[0]) {
    throw new ProviderError(
      'provider_error',
      'The job was cancelled or taken over before it was submitted.',
      {
        retryable: false,
      },
    );
  }
  return rows[0].provider_sent_at;
}

/** The provider job a send may have created, found by the provider's lookup; a clear failure otherwise. */
async function findSent(
  runner: RemoteRunner,
  input: RunInput,
  sentAt: Date,
  signal: AbortSignal,
  reason = 'an earlier run of this job stopped while submitting it',
): Promise<FollowedState> {
  const unknown = (detail: string) =>
    new ProviderError(
      'provider_submit_unknown',
      `We could not tell whether the provider took this job (${reason}), and ${detail}. It was not submitted again, so that it cannot run or be billed twice; nothing was charged. Run it again.`,
      { retryable: false },
    );
  if (!runner.findSubmitted) throw unknown('the provider offers no way to look a job up');
  let found: FollowedState | null;
  try {
    found = await runner.findSubmitted({ ...input, jobId: input.jobId ?? '', sentAt }, signal);
  } catch (error) {
    throw unknown(`looking it up failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!found) throw unknown('the provider has no such job');
  return found;
}
