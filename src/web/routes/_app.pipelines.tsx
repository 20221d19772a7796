import { createFileRoute } from '@tanstack/react-router';
import { isJobId } from '../../contract/values.ts';
import { matching, searchParams } from '../search-params/fields.ts';
import { PipelinesPage } from './-components/pipelines/pipelines-page.tsx';

const JobRef = matching(isJobId);

/** The run shown as a graph (`job`) and the finished run the builder starts from (`from`): in the URL. */
const PipelinesSearch = searchParams({ job: JobRef, from: JobRef });

/** Pipelines: build a run from steps, watch it as a live graph, re-run a finished one with changes. */
export const Route = createFileRoute('/_app/pipelines')({
  validateSearch: PipelinesSearch,
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
