import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { ToolKey } from '../../contract/common.ts';
import type { Preset } from '../../contract/presets.ts';
import { api } from '../api/client.ts';

export interface PresetFilter {
  /** Which parameter the presets fill: `voice`, `style`. */
  type: string;
  tool: ToolKey;
  /** Text matched against name and description. */
  q?: string;
  /** `key:value` metadata pairs, for example `model:local-flite`. */
  metadata?: string[];
}

export const presetKeys = {
  all: ['presets'] as const,
  list: (filter: PresetFilter) => ['presets', filter] as const,
  one: (id: string) => ['presets', 'one', id] as const,
};

const PAGE = 100;

/**
 * Presets of one type for a tool (public ones, plus the account's own), sorted by name. The last
 * answer stays on screen while a new search loads, so the list does not flash empty as people type.
 */
export function presetsQueryOptions(filter: PresetFilter) {
  return queryOptions({
    queryKey: presetKeys.list(filter),
    queryFn: () =>
      api().listPresets({
        query: {
          type: filter.type,
          tool: filter.tool,
          status: 'active',
          limit: PAGE,
          ...(filter.q ? { q: filter.q } : {}),
          ...(filter.metadata?.length ? { metadata: filter.metadata.join(',') } : {}),
        },
      }),
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  });
}

/** One preset by id (a form field holding `preset_…` shows its name). */
export function presetQueryOptions(id: string) {
  return queryOptions({
    queryKey: presetKeys.one(id),
    queryFn: () => api().getPreset({ params: { id } }),
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** The request fragment a preset gives a tool, or null when it has none or its mapping is broken. */
export function presetFragment(preset: Preset, tool: ToolKey): Record<string, unknown> | null {
  const fragment = preset.tools[tool];
  if (!fragment || '_error' in fragment) return null;
  return fragment;
}
