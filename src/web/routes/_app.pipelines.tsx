import { createFileRoute } from '@tanstack/react-router';
import { isJobId } from '../../contract/values.ts';
import { toolSchemaQueryOptions } from '../queries/generation.ts';
import { recentPipelinesQueryOptions } from '../queries/pipelines.ts';
import { pricingQueryOptions } from '../queries/pricing.ts';
import { matching, searchParams } from '../search-params/fields.ts';
import { FIRST_STEP_TOOL } from './-components/pipelines/first-step.ts';
import { PipelinesPage } from './-components/pipelines/pipelines-page.tsx';

const JobRef = matching(isJobId);

/** The run shown as a graph (`job`) and the finished run the builder starts from (`from`): in the URL. */
const PipelinesSearch = searchParams({ job: JobRef, from: JobRef });

/** Pipelines: build a run from steps, watch it as a live graph, re-run a finished one with changes. */
export const Route = createFileRoute('/_app/pipelines')({
  validateSearch: PipelinesSearch,
  loaderDeps: ({ search }) => ({ from: search.from }),
  // What the page asks for as it draws, started with its code instead: the recent pipelines, the models
  // and prices, and a new pipeline's first step's form (a re-run starts from its own steps).
  loader: ({ context: { queryClient }, deps }) => {
    void queryClient.prefetchQuery(recentPipelinesQueryOptions());
    void queryClient.prefetchQuery(pricingQueryOptions());
    if (!deps.from) void queryClient.prefetchQuery(toolSchemaQueryOptions(FIRST_STEP_TOOL, null));
  },
  component: PipelinesRoute,
});

function PipelinesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <PipelinesPage
      job={search.job}
      from={search.from}
      onWatch={(job) => void navigate({ search: (prev) => ({ ...prev, job }) })}
      onRerun={(from) => void navigate({ search: (prev) => ({ ...prev, from, job: from }) })}
    />
  );
}
