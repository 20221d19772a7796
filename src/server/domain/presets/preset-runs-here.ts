import type { ToolKey } from '../../../contract/common.ts';
import type { Catalog } from '../catalog/catalog.ts';
import type { PresetRecord } from './preset-record.ts';

/**
 * Whether a preset can be used on this server: one of its tools' fragments names a model that can run
 * here (a provider's voice needs that provider's key), or names none and its tool has such a model.
 */
export function presetRunsHere(preset: PresetRecord, catalog: Catalog): boolean {
  return Object.entries(preset.tools).some(([tool, fragment]) => {
    if (!fragment || '_error' in fragment) return false;
    const model = typeof fragment.model === 'string' ? catalog.resolve(fragment.model)?.model : undefined;
    if (model) return catalog.modelAvailable(model);
    if (typeof fragment.model === 'string') return false;
    return catalog.modelsOf(tool as ToolKey).some((m) => catalog.modelAvailable(m));
  });
}
