import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { ToolKey } from '../../contract/common.ts';
import { PageHeader } from '../components/page-header.tsx';
import { pricingQueryOptions } from '../queries/pricing.ts';
import { toolsQueryOptions } from '../queries/tools.ts';
import { PriceCatalog } from './-components/playground/price-catalog.tsx';
import { ToolList } from './-components/playground/tool-list.tsx';

const PlaygroundSearch = z.object({
  tool: ToolKey.optional().catch(undefined),
});

export const Route = createFileRoute('/_app/playground')({
  validateSearch: PlaygroundSearch,
  loader: ({ context: { queryClient } }) =>
    Promise.all([
      queryClient.ensureQueryData(toolsQueryOptions()),
      queryClient.ensureQueryData(pricingQueryOptions()),
    ]),
  component: PlaygroundPage,
});

function PlaygroundPage() {
  const { tool } = Route.useSearch();
  const { data: tools } = useSuspenseQuery(toolsQueryOptions());
  const { data: pricing } = useSuspenseQuery(pricingQueryOptions());
  return (
    <>
      <PageHeader
        title="Playground"
        description="The tools and models this server offers, with their prices. Running them from here comes next; for now, this is the catalog."
      />
      <ToolList tools={tools.data} catalog={pricing.data} selected={tool} />
      <PriceCatalog catalog={pricing.data} tool={tool} />
    </>
  );
}
