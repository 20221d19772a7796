import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { Job } from '../../../../contract/jobs.ts';
import { isTerminalJobStatus } from '../../../../contract/values.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { CopyButton } from '../../../components/copy-button.tsx';
import { StatusBadge } from '../../../components/job-status-badge.tsx';
import { formatCreditsAndDollars } from '../../../format/credits.ts';
import { formatDuration } from '../../../format/duration.ts';
import { jobErrorWords } from '../../../format/job-error.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { formatBilling, formatQuantity, formatSource } from '../../../format/words.ts';
import { apiKeysQueryOptions } from '../../../queries/api-keys.ts';
import { foldersQueryOptions } from '../../../queries/folders.ts';
import type { JobFeedData } from '../../../queries/job-feed-cache.ts';
import type { JobFeedFilters } from '../../../queries/job-filters.ts';
import { jobKeys, jobQueryOptions } from '../../../queries/jobs.ts';
import { SavePresetDialog } from '../presets/save-preset-dialog.tsx';
import { DetailSection, Mono } from './detail-list.tsx';
import { canRun, useJobActions } from './job-actions.ts';
import { chargedText } from './job-cost.ts';
import { JobOutputPreview } from './job-output-preview.tsx';
import { useRefundItem } from './job-refunds.ts';
import { JobProgress } from './job-status.tsx';
import { JobTimeline } from './job-timeline.tsx';
import { JobWebhookDeliveries } from './job-webhook-deliveries.tsx';
import { ProviderLog } from './provider-log.tsx';

/** While a job outside the feed's filters is open and under way, it is polled on its own. */
const OUTSIDE_FEED_POLL_MS = 2_000;

const LINK = 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300';

function useInFeed(id: string, filters: JobFeedFilters): boolean {
  const data = useQueryClient().getQueryData<JobFeedData>(jobKeys.list(filters));
  return Boolean(data?.pages.some((page) => page.data.some((job) => job.id === id)));
}

/** Everything about one job: what was asked, what came out, what it cost, how long it took, and where. */
export function JobDetail({ id, filters }: { id: string; filters: JobFeedFilters }) {
  const inFeed = useInFeed(id, filters);
  const { data: job } = useSuspenseQuery({
    ...jobQueryOptions(id),
    // Inside the feed, the feed's live updates keep this job current; outside it, nobody else does.
    refetchInterval: (query) =>
      !inFeed && query.state.data && !isTerminalJobStatus(query.state.data.status)
        ? OUTSIDE_FEED_POLL_MS
        : false,
  });
  const active = !isTerminalJobStatus(job.status);
  // Names for the key and folder ids, when their lists are at hand (the feed's filters load them).
  const keys = useQuery({ ...apiKeysQueryOptions(true), enabled: job.api_key_id !== null }).data;
  const folders = useQuery({ ...foldersQueryOptions(), enabled: job.folder_id !== null }).data;
  const keyName = (id: string) => keys?.find((k) => k.id === id)?.name ?? null;
  const folderName = (id: string) => folders?.find((f) => f.id === id)?.name ?? null;
  const refunded = useRefundItem(job);
  const prompt = typeof job.input.prompt === 'string' ? job.input.prompt : null;
  const text = typeof job.input.text === 'string' ? job.input.text : null;

  return (
    <>
      <div className="mb-5 flex flex-wrap items-center gap-3">
        <StatusBadge status={job.status} />
        <span className="text-sm text-zinc-600 dark:text-zinc-400">
          {toolLabel(job.tool)} · <Mono>{job.model}</Mono>
        </span>
      </div>
      <JobDetailActions job={job} />
      {active && (
        <div className="mb-6">
          <JobProgress job={job} className="h-2 w-full" />
          <p className="mt-1.5 text-xs text-zinc-600 dark:text-zinc-400">
            {job.progress_message ?? 'Waiting for a worker'}
            {job.progress !== null && ` · ${Math.round(job.progress * 100)}%`}
          </p>
        </div>
      )}
      {job.error && <JobErrorAlert job={job} error={job.error} />}
      <JobTimeline job={job} />
      {job.provider_logs !== null && (
        <ProviderLog logs={job.provider_logs} provider={job.provider} active={active} />
      )}

      <DetailSection title="Input">
        {(prompt ?? text) && (
          <p className="mb-2 rounded-xl border border-zinc-200 bg-white px-4 py-3 text-sm whitespace-pre-wrap dark:border-zinc-800 dark:bg-zinc-900">
            {prompt ?? text}
          </p>
        )}
        <details className="rounded-xl border border-zinc-200 bg-white text-sm dark:border-zinc-800 dark:bg-zinc-900">
          <summary className="cursor-pointer px-4 py-2.5 font-medium">Request body</summary>
          <pre className="relative max-h-80 overflow-auto border-t border-zinc-200 px-4 py-3 text-xs dark:border-zinc-800">
            {JSON.stringify(job.input, null, 2)}
          </pre>
        </details>
      </DetailSection>

      {job.output && (
        <DetailSection title="Output">
          <JobOutputPreview output={job.output} />
        </DetailSection>
      )}

      <DetailSection
        title="Pricing"
        items={[
          { label: 'Estimated', value: formatCreditsAndDollars(job.pricing.estimated) },
          {
            label: 'Charged',
            value: chargedText(job) ?? 'Charged when the job finishes',
          },
          ...(refunded ? [refunded] : []),
          {
            label: 'Cached',
            value:
              job.pricing.cached === null
                ? null
                : job.pricing.cached
                  ? 'Yes: served from the cache, free'
                  : 'No',
          },
          {
            label: 'Billed units',
            value: job.pricing.billed_units
              ? Object.entries(job.pricing.billed_units)
                  .map(([unit, count]) => formatQuantity(unit, count))
                  .join(', ') || 'None'
              : null,
          },
          { label: 'Billing', value: formatBilling(job.pricing.billing) },
          { label: 'Pricing id', value: <Mono>{job.pricing.pricing_id}</Mono> },
        ]}
      />

      <DetailSection
        title="Provider"
        items={[
          { label: 'Provider', value: job.provider },
          { label: 'Provider model', value: <Mono>{job.provider_model}</Mono> },
          { label: 'Provider status', value: job.provider_status && <Mono>{job.provider_status}</Mono> },
          { label: 'Provider job id', value: job.provider_job_id && <Mono>{job.provider_job_id}</Mono> },
        ]}
      />

      <DetailSection
        title="Origin"
        items={[
          {
            label: 'Job id',
            value: (
              <span className="flex flex-wrap items-center gap-2">
                <Mono>{job.id}</Mono>
                <CopyButton value={job.id} />
              </span>
            ),
          },
          { label: 'Started from', value: formatSource(job.source) },
          {
            label: 'API key',
            value: job.api_key_id && (
              <Link to="/jobs" search={{ key: job.api_key_id }} className={LINK} title={job.api_key_id}>
                <NamedId id={job.api_key_id} name={keyName(job.api_key_id)} />
              </Link>
            ),
          },
          {
            label: 'Folder',
            value: job.folder_id && (
              <Link to="/jobs" search={{ folder: job.folder_id }} className={LINK} title={job.folder_id}>
                <NamedId id={job.folder_id} name={folderName(job.folder_id)} />
              </Link>
            ),
          },
          {
            label: 'Retry of',
            value: job.retry_of && (
              <Link
                to="/jobs/$jobId"
                params={{ jobId: job.retry_of }}
                search={(prev) => prev}
                className={LINK}
              >
                <Mono>{job.retry_of}</Mono>
              </Link>
            ),
          },
        ]}
      />

      <JobWebhookDeliveries job={job} />
    </>
  );
}

/** A name people know the thing by, with its id beside it, small, to copy; the id alone while the name loads. */
function NamedId({ id, name }: { id: string; name: string | null }) {
  if (!name) return <Mono>{id}</Mono>;
  return (
    <>
      {name} <Mono>{id}</Mono>
    </>
  );
}

/** Why the job failed (or was cancelled), in words; the code stays, small, for quoting. */
function JobErrorAlert({ job, error }: { job: Job; error: NonNullable<Job['error']> }) {
  const words = jobErrorWords(error);
  return (
    <Alert tone={job.status === 'failed' ? 'error' : 'info'} title={words.title} className="mb-6">
      {words.detail}
      <span className="mt-1 block text-xs opacity-80">
        Code <Mono>{error.code}</Mono>
      </span>
    </Alert>
  );
}

/** A job that has run this long has work to lose: cancelling it asks first. */
export const CONFIRM_CANCEL_AFTER_MS = 30_000;

/** How long the job has been under way (since it started, else since it was queued). */
function runningFor(job: Job, now: number): number {
  return Math.max(0, now - Date.parse(job.started_at ?? job.created_at));
}

/** Cancel, retry and refresh for this one job; a retry opens the new job. */
function JobDetailActions({ job }: { job: Job }) {
  const { run, pending } = useJobActions();
  const navigate = useNavigate();
  const [confirmFor, setConfirmFor] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const cancel = async () => {
    await run('cancel', [job]);
    setConfirmFor(null);
  };
  return (
    <div className="mb-6 flex flex-wrap gap-2">
      {canRun('cancel', job) && (
        <Button
          size="sm"
          variant="danger"
          pending={pending === 'cancel'}
          disabled={pending !== null}
          onClick={() => {
            const ran = runningFor(job, Date.now());
            if (ran > CONFIRM_CANCEL_AFTER_MS) setConfirmFor(ran);
            else void cancel();
          }}
        >
          Cancel job
        </Button>
      )}
      {confirmFor !== null && (
        <ConfirmDialog
          title="Cancel this job?"
          confirmLabel="Cancel job"
          dismissLabel="Keep it running"
          danger
          pending={pending === 'cancel'}
          onConfirm={() => void cancel()}
          onClose={() => setConfirmFor(null)}
        >
          <p>
            It has been under way for {formatDuration(confirmFor)}. Its work so far is lost; what it holds is
            given back and nothing is charged.
          </p>
        </ConfirmDialog>
      )}
      {canRun('retry', job) && (
        <Button
          size="sm"
          variant="secondary"
          pending={pending === 'retry'}
          disabled={pending !== null}
          onClick={async () => {
            const [retried] = await run('retry', [job]);
            if (retried)
              await navigate({ to: '/jobs/$jobId', params: { jobId: retried.id }, search: (prev) => prev });
          }}
        >
          Retry
        </Button>
      )}
      <Button
        size="sm"
        variant="secondary"
        pending={pending === 'refresh'}
        disabled={pending !== null}
        onClick={() => void run('refresh', [job])}
      >
        Refresh
      </Button>
      {job.status === 'completed' && (
        <Button size="sm" variant="secondary" onClick={() => setSaving(true)}>
          Save as preset
        </Button>
      )}
      {saving && <SavePresetDialog job={job} onClose={() => setSaving(false)} />}
    </div>
  );
}
