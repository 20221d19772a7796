import type { ToolKey } from '../../../../contract/common.ts';
import type { Preset } from '../../../../contract/presets.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { presetFragment } from '../../../queries/presets.ts';

/**
 * Whether a preset can be used on this server (the server lists those first, by the same rule):
 * one of its tools' fragments names a model that runs here (a provider's voice needs that provider's
 * key), or names none and its tool has such a model.
 */
export function presetRunsHere(preset: Preset, catalog: readonly PriceCatalogEntry[]): boolean {
  return (Object.keys(preset.tools) as ToolKey[]).some((tool) => {
    const fragment = presetFragment(preset, tool);
    if (!fragment) return false;
    if (typeof fragment.model === 'string') {
      const model = fragment.model.includes(':')
        ? fragment.model.slice(fragment.model.indexOf(':') + 1)
        : fragment.model;
      return catalog.some((entry) => entry.model === model && entry.available);
    }
    return catalog.some((entry) => entry.tool === tool && entry.available);
  });
}
