import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { Job } from '../../../../contract/jobs.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { jobDeliveriesQueryOptions, jobKeys } from '../../../queries/jobs.ts';
import { useRedeliverJobWebhook } from '../../../queries/webhooks.ts';
import { DeliveryTries } from '../webhooks/delivery-tries.tsx';

/**
 * Attempts to call the job's webhook (and the team's endpoints), each opening to what it sent and got
 * back. Loaded with the drawer but on its own (a slow answer does not hold the details), reloaded when the
 * job finishes (that is when deliveries start) and while a try is queued or a retry is due. Redeliver
 * sends the job's own webhook again; its try shows here as pending, then its outcome.
 */
export function JobWebhookDeliveries({ job }: { job: Job }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    ...jobDeliveriesQueryOptions(job.id),
    refetchInterval: (query) =>
      query.state.data?.some((d) => d.status === 'pending' || d.next_attempt_at) ? 2_000 : false,
  });
  const redeliver = useRedeliverJobWebhook(job.id);
  const seenStatus = useRef(job.status);
  useEffect(() => {
    if (seenStatus.current === job.status) return;
    seenStatus.current = job.status;
    void queryClient.invalidateQueries({ queryKey: jobKeys.deliveries(job.id) });
  }, [job.status, job.id, queryClient]);

  const webhookUrl = (job.input.options as { webhook_url?: unknown } | undefined)?.webhook_url;
  const own = deliveries.data?.filter((d) => !d.endpoint_id) ?? [];
  const inProgress = own.some((d) => d.status === 'pending' || d.next_attempt_at);
  const hasEndpoints = deliveries.data?.some((d) => d.endpoint_id) ?? false;

  return (
    <section className="mb-6" aria-label="Webhook deliveries">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">Webhook deliveries</h3>
        {own.length > 0 && (
          <Button
            variant="secondary"
            size="sm"
            pending={redeliver.isPending}
            disabled={inProgress}
            title={inProgress ? 'A delivery is still in progress.' : undefined}
            onClick={() => redeliver.mutate()}
          >
            Redeliver
          </Button>
        )}
      </div>
      {redeliver.isError && (
        <Alert tone="error" title="Not redelivered" className="mb-2">
          {errorMessage(redeliver.error)}
        </Alert>
      )}
      {redeliver.isSuccess && !inProgress && own[0]?.attempt === redeliver.data.attempt && (
        <p role="status" className="mb-2 text-sm text-zinc-600 dark:text-zinc-400">
          Attempt {redeliver.data.attempt} sent: {own[0].status}.
        </p>
      )}
      {deliveries.isPending ? (
        <LoadingNote>Loading deliveries…</LoadingNote>
      ) : deliveries.isError ? (
        <LoadFailed
          title="Could not load the deliveries"
          error={deliveries.error}
          onRetry={() => void deliveries.refetch()}
        />
      ) : deliveries.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {typeof webhookUrl === 'string'
            ? 'None yet: the webhook is called when the job finishes.'
            : 'This job has no webhook (options.webhook_url).'}
        </p>
      ) : (
        <DeliveryTries
          caption="Calls to this job's webhook"
          tries={deliveries.data}
          showTarget={hasEndpoints}
        />
      )}
    </section>
  );
}
