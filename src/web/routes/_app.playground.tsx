import { createFileRoute } from '@tanstack/react-router';
import { recentRunsQueryOptions, toolSchemaQueryOptions } from '../queries/generation.ts';
import { presetFragment, presetQueryOptions } from '../queries/presets.ts';
import { pricingQueryOptions } from '../queries/pricing.ts';
import { toolsQueryOptions } from '../queries/tools.ts';
import { lastModel } from './-components/playground/form-drafts.ts';
import { prefillInput, prefillPreset } from './-components/playground/input-prefill.ts';
import { chooseModel, DEFAULT_TOOL, parseModelRef } from './-components/playground/model-choice.ts';
import { PlaygroundPage } from './-components/playground/playground-page.tsx';
import { PlaygroundSearch } from './-components/playground/playground-search.ts';

export const Route = createFileRoute('/_app/playground')({
  validateSearch: PlaygroundSearch,
  loaderDeps: ({ search }) => ({
    tool: search.tool,
    model: search.model,
    input: search.input,
    preset: search.preset,
  }),
  loader: async ({ context: { queryClient }, deps }) => {
    const tool = deps.tool ?? DEFAULT_TOOL;
    // The tool's recent runs need nothing else: asked with the tools and prices, not once the page has
    // drawn (three requests later, and the page says "Loading recent runs…" until they come).
    void queryClient.prefetchInfiniteQuery(recentRunsQueryOptions(tool));
    const [, pricing] = await Promise.all([
      queryClient.ensureQueryData(toolsQueryOptions()),
      queryClient.ensureQueryData(pricingQueryOptions()),
    ]);
    // A preset another team keeps, or one gone since the link was made, opens the playground as usual.
    const preset = deps.preset
      ? await queryClient.ensureQueryData(presetQueryOptions(deps.preset)).catch(() => null)
      : null;
    const fragment = preset ? presetFragment(preset, tool) : null;
    const wanted = deps.model ?? (typeof fragment?.model === 'string' ? fragment.model : undefined);
    const model = chooseModel(tool, wanted, lastModel(tool), pricing.data);
    if (model && fragment) prefillPreset(tool, model, parseModelRef(model, pricing.data).model, fragment);
    if (model && deps.input) prefillInput(tool, model, parseModelRef(model, pricing.data).model, deps.input);
    if (model) {
      await queryClient.ensureQueryData(
        toolSchemaQueryOptions(tool, parseModelRef(model, pricing.data).model),
      );
    }
  },
  component: PlaygroundPage,
});
