import { createFileRoute } from '@tanstack/react-router';
import { templatesQueryOptions, templateTagsQueryOptions } from '../queries/templates.ts';
import { TemplateSearch, templateFilter } from './-components/templates/template-search.ts';
import { TemplatesPage } from './-components/templates/templates-page.tsx';

/** Templates: the gallery by tag and text (or the team's own), filters in the URL. */
export const Route = createFileRoute('/_app/templates')({
  validateSearch: TemplateSearch,
  loaderDeps: ({ search }) => templateFilter(search),
  loader: ({ context: { queryClient }, deps }) => {
    // The filter bar's tags start with the list rather than once the page has drawn.
    void queryClient.prefetchQuery(templateTagsQueryOptions());
    return queryClient.ensureInfiniteQueryData(templatesQueryOptions(deps));
  },
  component: TemplatesRoute,
});

function TemplatesRoute() {
  return <TemplatesPage filter={templateFilter(Route.useSearch())} />;
}
