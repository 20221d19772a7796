import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Job } from '../../../../contract/jobs.ts';
import { dependenciesOf, type PipelineStepState } from '../../../../contract/pipeline-graph.ts';
import { api } from '../../../api/client.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { StatusBadge } from '../../../components/job-status-badge.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { formatCredits } from '../../../format/credits.ts';
import { formatRelativeTime } from '../../../format/time.ts';
import { pluralize } from '../../../format/words.ts';
import {
  pipelineKeys,
  pipelineRunQueryOptions,
  recentPipelinesQueryOptions,
} from '../../../queries/pipelines.ts';
import { stepsFromInput } from './builder-steps.ts';
import { PipelineBuilder } from './pipeline-builder.tsx';
import { PipelineGraph } from './pipeline-graph.tsx';
import { stepStatesOf } from './step-states.ts';

interface PipelinesPageProps {
  /** The run shown as a graph. */
  job: string | undefined;
  /** A finished run the builder starts from (re-run with changes). */
  from: string | undefined;
  onWatch: (jobId: string) => void;
  onRerun: (jobId: string) => void;
}

const settled = (status: Job['status']) => ['completed', 'failed', 'cancelled'].includes(status);

/** Build a pipeline from steps, watch a run as a live graph, and start again from a finished one. */
export function PipelinesPage({ job, from, onWatch, onRerun }: PipelinesPageProps) {
  const queryClient = useQueryClient();
  return (
    <div>
      <PageHeader
        title="Pipelines"
        description="Chain tools into one run: a step can use another step's output, independent steps run side by side, and the run costs what its steps cost."
      />
      <div className="grid gap-8 xl:grid-cols-2">
        <section aria-labelledby="build-heading" className="min-w-0">
          <h2 id="build-heading" className="mb-3 text-lg font-semibold text-zinc-950 dark:text-white">
            {from ? 'Re-run with changes' : 'Build a run'}
          </h2>
          <Builder
            key={from ?? 'new'}
            from={from}
            onStarted={(started) => {
              queryClient.setQueryData(pipelineKeys.run(started.id), started);
              void queryClient.invalidateQueries({ queryKey: pipelineKeys.recent });
              onWatch(started.id);
            }}
          />
        </section>
        <div className="flex min-w-0 flex-col gap-8">
          <section aria-labelledby="run-heading">
            <h2 id="run-heading" className="mb-3 text-lg font-semibold text-zinc-950 dark:text-white">
              This run
            </h2>
            {job ? (
              <RunView id={job} onRerun={onRerun} />
            ) : (
              <EmptyState title="No run shown">
                Run a pipeline, or pick one below, to see it drawn as a graph while it runs.
              </EmptyState>
            )}
          </section>
          <RecentPipelines current={job} onWatch={onWatch} onRerun={onRerun} />
        </div>
      </div>
    </div>
  );
}

function Builder({ from, onStarted }: { from: string | undefined; onStarted: (job: Job) => void }) {
  const source = useQuery({ ...pipelineRunQueryOptions(from ?? ''), enabled: Boolean(from) });
  if (!from) return <PipelineBuilder initial={null} onStarted={onStarted} />;
  if (source.isError) {
    return (
      <LoadFailed
        title="The pipeline to start from could not be loaded."
        error={source.error}
        onRetry={() => void source.refetch()}
      />
    );
  }
  if (!source.data) return <LoadingNote>Loading the pipeline…</LoadingNote>;
  return <PipelineBuilder initial={stepsFromInput(source.data.input)} onStarted={onStarted} />;
}

/** Before the engine writes its first step states, the steps as asked, all waiting. */
function statesOf(job: Job): PipelineStepState[] {
  const live = stepStatesOf(job);
  if (live.length) return live;
  const asked = Array.isArray(job.input.steps) ? (job.input.steps as Array<Record<string, unknown>>) : [];
  return asked.map((step) => ({
    id: String(step.id),
    tool: String(step.tool),
    model:
      typeof (step.input as { model?: unknown })?.model === 'string'
        ? String((step.input as { model: string }).model)
        : null,
    needs: dependenciesOf({
      id: String(step.id),
      needs: step.needs as string[] | undefined,
      input: step.input,
    }),
    job_id: null,
    status: 'pending',
  }));
}

function RunView({ id, onRerun }: { id: string; onRerun: (id: string) => void }) {
  const queryClient = useQueryClient();
  const run = useQuery(pipelineRunQueryOptions(id));
  const cancel = useMutation({
    mutationFn: () => api().cancelJob({ params: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: pipelineKeys.run(id) }),
  });
  if (run.isError && !run.data) {
    return (
      <LoadFailed
        title="This run could not be loaded."
        error={run.error}
        onRetry={() => void run.refetch()}
      />
    );
  }
  if (!run.data) return <LoadingNote>Loading the run…</LoadingNote>;
  const job = run.data;
  const done = settled(job.status);
  return (
    <div className="flex flex-col gap-3" data-testid="pipeline-run" data-status={job.status}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3 text-sm text-zinc-700 dark:text-zinc-300">
          <StatusBadge status={job.status} />
          {done && job.actual_cost_cents !== null && <span>Cost {formatCredits(job.actual_cost_cents)}</span>}
        </div>
        <div className="flex items-center gap-2">
          {!done && (
            <Button variant="secondary" size="sm" pending={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel run
            </Button>
          )}
          {done && (
            <Button variant="secondary" size="sm" onClick={() => onRerun(job.id)}>
              Re-run with changes
            </Button>
          )}
        </div>
      </div>
      {job.error && (
        <Alert tone="error" title="The run failed">
          {job.error.message}
        </Alert>
      )}
      {cancel.isError && (
        <Alert tone="error" title="The run could not be cancelled">
          {cancel.error instanceof Error ? cancel.error.message : 'Try again.'}
        </Alert>
      )}
      <PipelineGraph states={statesOf(job)} />
    </div>
  );
}

function RecentPipelines({
  current,
  onWatch,
  onRerun,
}: {
  current: string | undefined;
  onWatch: (id: string) => void;
  onRerun: (id: string) => void;
}) {
  const recent = useQuery(recentPipelinesQueryOptions());
  return (
    <section aria-labelledby="recent-heading">
      <h2 id="recent-heading" className="mb-3 text-lg font-semibold text-zinc-950 dark:text-white">
        Recent pipelines
      </h2>
      {recent.isError && !recent.data ? (
        <LoadFailed
          title="Recent pipelines could not be loaded."
          error={recent.error}
          onRetry={() => void recent.refetch()}
        />
      ) : !recent.data ? (
        <LoadingNote>Loading recent pipelines…</LoadingNote>
      ) : recent.data.data.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No pipelines yet.</p>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-xl border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {recent.data.data.map((job) => {
            const count = Array.isArray(job.input.steps) ? job.input.steps.length : 0;
            const ids = Array.isArray(job.input.steps)
              ? (job.input.steps as Array<{ id?: unknown }>).map((s) => String(s.id)).join(' · ')
              : '';
            return (
              <li
                key={job.id}
                className="flex flex-wrap items-center justify-between gap-3 px-3 py-2.5 text-sm"
              >
                <div className="min-w-0">
                  <p className="truncate font-medium text-zinc-900 dark:text-zinc-100">{ids}</p>
                  <p className="text-xs text-zinc-600 dark:text-zinc-400">
                    {pluralize(count, 'step', 'steps')} · {formatRelativeTime(job.created_at)}
                  </p>
                </div>
                <div className="flex items-center gap-2">
                  <StatusBadge status={job.status} />
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-current={job.id === current ? 'true' : undefined}
                    onClick={() => onWatch(job.id)}
                  >
                    Show<span className="sr-only"> run of {formatRelativeTime(job.created_at)}</span>
                  </Button>
                  {settled(job.status) && (
                    <Button variant="ghost" size="sm" onClick={() => onRerun(job.id)}>
                      Re-run<span className="sr-only"> with changes</span>
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
