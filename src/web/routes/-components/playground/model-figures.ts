import { useQuery } from '@tanstack/react-query';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { modelFiguresText, useMeasuredModels } from '../../../queries/model-performance.ts';
import { runEstimateOf, runTimesQueryOptions } from '../../../queries/run-times.ts';
import { routedProvider } from './cost-estimate.ts';

/**
 * What the picker says of each model, by model id: its expected run at the provider a run would go to
 * (the pinned one for the chosen model, else the first available, as the server routes) and this team's
 * failure rate. No length asked yet: the runs as they took; the form's text scales by its own `duration`.
 * Not suspended: the picker stands without them and adds them when they come.
 */
export function useModelFigures(
  models: readonly PriceCatalogEntry[],
  chosen: { model: string; provider: string | null } | null,
): ReadonlyMap<string, string> {
  const runTimes = useQuery(runTimesQueryOptions(null)).data;
  const measured = useMeasuredModels();
  const figures = new Map<string, string>();
  for (const entry of models) {
    const pinned = chosen?.model === entry.model ? chosen.provider : null;
    const provider = routedProvider(entry, pinned)?.provider;
    const run = provider ? runEstimateOf(runTimes, entry.model, provider) : undefined;
    const text = modelFiguresText(run, measured.get(entry.model));
    if (text) figures.set(entry.model, text);
  }
  return figures;
}
