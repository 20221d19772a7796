import type { ToolKey } from '../../../../contract/common.ts';
import type { Preset } from '../../../../contract/presets.ts';
import { TOOL_KEYS } from '../../../../contract/values.ts';
import type { PresetBrowseFilter } from '../../../queries/presets.ts';
import { listOf, type SearchOf, searchParams, text } from '../../../search-params/fields.ts';

const Word = text({ trim: true, min: 1, max: 64 });
const Pair = text({ pattern: /^[a-z0-9_]{1,64}:[^,]{1,200}$/ });

const presetFields = {
  /** Named apart from the files page's `type`: links built from any page's search must not mix them. */
  preset_type: Word,
  namespace: Word,
  metadata: listOf(Pair, 20),
  q: text({ trim: true, min: 1, max: 200 }),
};
/** The /presets filters, all in the URL: type, namespace, metadata pairs and text. A bad value is dropped. */
export const PresetSearch = searchParams(presetFields);
export type PresetSearch = SearchOf<typeof presetFields>;

export const browseFilter = (search: PresetSearch): PresetBrowseFilter => ({
  type: search.preset_type,
  namespace: search.namespace,
  metadata: search.metadata,
  q: search.q,
});

/** Adds or removes one `key:value` metadata filter. */
export function toggledPair(pairs: readonly string[] | undefined, pair: string): string[] | undefined {
  const current = pairs ?? [];
  const next = current.includes(pair) ? current.filter((p) => p !== pair) : [...current, pair];
  return next.length > 0 ? next : undefined;
}

/** The first tool a preset has a usable fragment for (the one "Use in playground" opens). */
export function presetTool(preset: Preset): ToolKey | null {
  for (const tool of TOOL_KEYS) {
    const fragment = preset.tools[tool];
    if (fragment && !('_error' in fragment)) return tool;
  }
  return null;
}
