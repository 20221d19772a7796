import { receiveProviderWebhook } from '../../../contract/jobs.ts';
import type { JobRow } from '../../domain/jobs/job-row.ts';
import { WebhookRejected } from '../../domain/jobs/provider.ts';
import { REMOTE_JOB_CHANNEL } from '../../domain/jobs/queue-names.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute, reply } from '../define-route.ts';

/** A callback that came before we recorded the provider's id (it answered the submit very fast). */
const RETRY_AFTER_SECONDS = 5;

/**
 * Providers' webhooks (fal, Replicate): verified by the provider's own signature, matched to the job named
 * in the path and to the provider's id recorded for it, then handed to the follower of that job (this
 * process's, or another's through a notification). The delivery is taken as a nudge with, where it says
 * enough, the job's state; the follower finishes the job under its lease as after a poll.
 */
export function providerWebhookRoutes(s: Services) {
  return [
    defineRoute(receiveProviderWebhook, async ({ params, c }) => {
      const runner = s.providers.get(params.provider)?.remote;
      if (!runner?.verifyWebhook) {
        throw new AppError('not_found', `${params.provider} does not call back here.`);
      }
      const delivery = { headers: c.req.raw.headers, body: Buffer.from(await c.req.arrayBuffer()) };
      let providerJobId: string;
      try {
        ({ providerJobId } = await runner.verifyWebhook(delivery, AbortSignal.timeout(10_000)));
      } catch (error) {
        if (error instanceof WebhookRejected) {
          s.log.warn('provider webhook refused', { provider: params.provider, reason: error.message });
          throw new AppError('unauthorized', `The delivery's signature does not hold: ${error.message}`);
        }
        // The provider's keys could not be read: the provider tries the delivery again later.
        throw new AppError('service_unavailable', 'The delivery cannot be verified now.', {
          headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
        });
      }
      const { rows } = await s.db.query<JobRow>('SELECT * FROM jobs WHERE id = $1', [params.job_id]);
      const row = rows[0];
      const active = row?.status === 'submitting' || row?.status === 'running';
      if (!row || row.provider !== params.provider) throw new AppError('not_found', 'No such job.');
      if (row.provider_job_id !== providerJobId) {
        if (active && row.provider_job_id === null) {
          throw new AppError('service_unavailable', 'The job is still being submitted.', {
            headers: { 'retry-after': String(RETRY_AFTER_SECONDS) },
          });
        }
        throw new AppError('not_found', 'The delivery is about another job.');
      }
      if (!active) return reply(204, undefined);
      const resolved = s.catalog.resolve(row.model);
      const offer = resolved?.model.offers.find((o) => o.provider === row.provider);
      const state =
        resolved && offer && runner.stateFromWebhook
          ? runner.stateFromWebhook(
              { model: resolved.model, offer, body: row.input, providerJobId },
              delivery,
            )
          : null;
      if (!s.remoteJobs.deliver(row.id, state)) {
        await s.db.query('SELECT pg_notify($1, $2)', [REMOTE_JOB_CHANNEL, row.id]);
      }
      return reply(204, undefined);
    }),
  ];
}
