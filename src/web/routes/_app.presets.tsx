import { createFileRoute } from '@tanstack/react-router';
import { presetBrowseQueryOptions } from '../queries/presets.ts';
import { pricingQueryOptions } from '../queries/pricing.ts';
import { browseFilter, PresetSearch } from './-components/presets/preset-search.ts';
import { PresetsPage } from './-components/presets/presets-page.tsx';

/** Presets: voices, image styles and the team's own, filtered by type, namespace and metadata in the URL. */
export const Route = createFileRoute('/_app/presets')({
  validateSearch: PresetSearch,
  loaderDeps: ({ search }) => browseFilter(search),
  loader: ({ context: { queryClient }, deps }) => {
    // The cards' prices start with the list rather than once the page has drawn.
    void queryClient.prefetchQuery(pricingQueryOptions());
    return queryClient.ensureInfiniteQueryData(presetBrowseQueryOptions(deps));
  },
  component: PresetsRoute,
});

function PresetsRoute() {
  return <PresetsPage filter={browseFilter(Route.useSearch())} />;
}
