import { useSuspenseQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { ToolKey } from '../../../../contract/common.ts';
import type { Job } from '../../../../contract/jobs.ts';
import { Alert } from '../../../components/alert.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useNavigatingSearch } from '../../../components/use-navigating-search.ts';
import { toolLabel } from '../../../format/tool-label.ts';
import { isSettled, useCreateJob, useRetryJob } from '../../../queries/generation.ts';
import { pricingQueryOptions } from '../../../queries/pricing.ts';
import { toolsQueryOptions } from '../../../queries/tools.ts';
import { InlineText } from '../../../schema-form/fields/inline-text.tsx';
import { GetStarted } from '../get-started/get-started.tsx';
import { type Attempt, attemptFor, fingerprintOf } from './attempt-key.ts';
import { lastModel, rememberModel, setPrefill } from './form-drafts.ts';
import { chooseModel, DEFAULT_TOOL, formatModelRef, modelsOf, parseModelRef } from './model-choice.ts';
import { useModelFigures } from './model-figures.ts';
import { ModelPicker } from './model-picker.tsx';
import { PlaygroundSearch } from './playground-search.ts';
import { ProviderPin } from './provider-pin.tsx';
import { RecentRuns } from './recent-runs.tsx';
import { ResultPanel } from './result-panel.tsx';
import { ToolForm } from './tool-form.tsx';
import { ToolTabs } from './tool-tabs.tsx';

const route = getRouteApi('/_app/playground');

// The full price table is reference material: loaded only when opened.
const PriceCatalog = lazy(() => import('./price-catalog.tsx').then((m) => ({ default: m.PriceCatalog })));

export function PlaygroundPage() {
  const search = route.useSearch();
  // Another tool or model picked, its form still loading: the form on screen is the old model's, and a
  // Run now would start that model. It stays in view but is closed until the new one replaces it.
  const target = useNavigatingSearch(PlaygroundSearch);
  const opening = target.tool !== search.tool || target.model !== search.model;
  const navigate = route.useNavigate();
  const { data: tools } = useSuspenseQuery(toolsQueryOptions());
  const { data: pricing } = useSuspenseQuery(pricingQueryOptions());
  const tool = search.tool ?? DEFAULT_TOOL;
  const model = chooseModel(tool, search.model, lastModel(tool), pricing.data);
  const ref = model ? parseModelRef(model, pricing.data) : null;
  const models = modelsOf(tool, pricing.data);
  const entry = ref ? models.find((m) => m.model === ref.model) : undefined;
  // Not suspended: the page stands without them, and the picker adds them when they come.
  const figures = useModelFigures(models, ref);
  // Bumped to open a fresh form even when the tool and model stay (a rerun with changes of this model).
  const [generation, setGeneration] = useState(0);
  const formRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (model) rememberModel(tool, model);
  }, [tool, model]);

  // The same page, another job in its result panel: the page keeps its scroll (the panel brings itself into view).
  const showJob = (id: string) =>
    navigate({ search: (prev) => ({ ...prev, job: id }), replace: true, resetScroll: false });

  function openWith(next: { tool: ToolKey; model: string; body: Record<string, unknown> }) {
    setPrefill(next.tool, next.model, next.body);
    setGeneration((n) => n + 1);
    void navigate({ search: (prev) => ({ ...prev, tool: next.tool, model: next.model }) });
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  const rerun = useRerun(showJob);

  return (
    <>
      <PageHeader
        title="Playground"
        description="Pick a tool and a model, fill in the form generated from its schema, and watch the job run. Prices show before you send."
      />
      <GetStarted />
      <ToolTabs tools={tools.data.map((t) => t.tool_key)} catalog={pricing.data} selected={tool} />
      {!model || !ref ? (
        <div className="mt-6">
          <EmptyState title="No models for this tool">
            This server lists no model for {toolLabel(tool)}.
          </EmptyState>
        </div>
      ) : (
        <div className="mt-6 grid grid-cols-1 items-start gap-8 lg:grid-cols-2">
          <section
            ref={formRef}
            aria-labelledby="form-heading"
            className="flex min-w-0 scroll-mt-4 flex-col gap-5"
          >
            <h2 id="form-heading" className="sr-only">
              Run {toolLabel(tool)}
            </h2>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-[minmax(0,1fr)_auto]">
              <ModelPicker
                models={models}
                selected={entry}
                figures={figures}
                onSelect={(next) => void navigate({ search: (prev) => ({ ...prev, model: next }) })}
              />
              {entry && (
                <ProviderPin
                  entry={entry}
                  pinned={ref.provider}
                  onChange={(provider) =>
                    void navigate({
                      search: (prev) => ({ ...prev, model: formatModelRef({ model: ref.model, provider }) }),
                    })
                  }
                />
              )}
            </div>
            {entry && (
              <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="model-description">
                <InlineText text={entry.description} />
              </p>
            )}
            <Suspense fallback={<LoadingNote className="py-8">Loading the form…</LoadingNote>}>
              <ToolForm
                tool={tool}
                model={model}
                modelRef={ref}
                entry={entry}
                generation={generation}
                opening={opening}
                onCreated={(job) => void showJob(job.id)}
                onSwitchModel={(next, body) => openWith({ tool, model: next, body })}
              />
            </Suspense>
          </section>
          {/* Beside the form while it scrolls: the result stays next to the Run bar. */}
          <div className="lg:sticky lg:top-6 lg:max-h-[calc(100dvh-3rem)] lg:overflow-y-auto">
            <ResultPanel jobId={search.job} />
          </div>
        </div>
      )}
      <div className="mt-10">
        {rerun.error !== null && (
          <Alert tone="error" title="The rerun could not start" className="mb-3">
            {rerun.error instanceof Error ? rerun.error.message : String(rerun.error)}
          </Alert>
        )}
        <RecentRuns
          tool={tool}
          currentJobId={search.job}
          rerunning={rerun.pending}
          onShow={(job) => void showJob(job.id)}
          onRerun={rerun.start}
          onRerunWithChanges={(job) => openWith({ tool: job.tool, model: job.model, body: job.input })}
        />
      </div>
      <AllPrices tool={tool} />
    </>
  );
}

/**
 * Runs a recent job again: a failed or cancelled one through retry (linked by `retry_of`), any other
 * as a new job with the same input. Each rerun is its own attempt, safe against double clicks.
 */
function useRerun(onStarted: (id: string) => void) {
  const create = useCreateJob();
  const retry = useRetryJob();
  const attempt = useRef<Attempt | null>(null);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function start(job: Job) {
    if (pending) return;
    const current = attemptFor(attempt.current, fingerprintOf({ rerun: job.id }), Date.now());
    attempt.current = current;
    setPending(job.id);
    setError(null);
    try {
      const created =
        isSettled(job.status) && job.status !== 'completed'
          ? await retry.mutateAsync({ id: job.id, idempotencyKey: current.key })
          : await create.mutateAsync({
              request: { tool: job.tool, body: job.input },
              idempotencyKey: current.key,
            });
      attempt.current = { ...current, phase: 'succeeded', at: Date.now() };
      onStarted(created.id);
    } catch (failure) {
      attempt.current = { ...current, phase: 'failed', at: Date.now() };
      setError(failure);
    } finally {
      setPending(null);
    }
  }

  return { start: (job: Job) => void start(job), pending, error };
}

function AllPrices({ tool }: { tool: ToolKey }) {
  const [open, setOpen] = useState(false);
  const { data: pricing } = useSuspenseQuery(pricingQueryOptions());
  return (
    <div className="mt-10">
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
      >
        {open ? 'Hide' : 'Show'} every {toolLabel(tool).toLowerCase()} model and price
      </button>
      {open && (
        <Suspense fallback={<Spinner className="mt-4" />}>
          <PriceCatalog catalog={pricing.data} tool={tool} />
        </Suspense>
      )}
    </div>
  );
}
