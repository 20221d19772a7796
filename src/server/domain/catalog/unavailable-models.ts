import type { Catalog } from './catalog.ts';

/**
 * The models no provider can run on this server, one line per reason, e.g.
 * "1 model cannot run here: local-pocketsphinx — Install PocketSphinx to enable it: apt-get install …".
 * A model with several providers lists what would enable any of them. Printed once at start-up, so the
 * person who started the server learns what to install or configure before a job fails on it.
 */
export function unavailableModelLines(catalog: Catalog): string[] {
  const groups = new Map<string, string[]>();
  for (const model of catalog.models) {
    // A retired model is nothing to install or configure: it is listed as retired in the catalog.
    if (catalog.modelAvailable(model) || catalog.lifecycle(model).status === 'retired') continue;
    const reasons = [
      ...new Set(model.offers.map((offer) => catalog.unavailableReason(offer) ?? 'unavailable')),
    ];
    const why = reasons.length === 1 ? reasons[0]! : `any one of: ${reasons.sort().join(' / ')}`;
    groups.set(why, [...(groups.get(why) ?? []), model.id]);
  }
  return [...groups].map(([why, ids]) => {
    const count = ids.length === 1 ? '1 model cannot' : `${ids.length} models cannot`;
    return `${count} run here: ${ids.join(', ')} — ${why}`;
  });
}
