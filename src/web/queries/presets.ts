import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import type { ToolKey } from '../../contract/common.ts';
import type { CreatePresetRequest, Preset } from '../../contract/presets.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';

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
  get all() {
    return teamScoped(['presets'] as const);
  },
  list: (filter: PresetFilter) => teamScoped(['presets', filter] as const),
  one: (id: string) => teamScoped(['presets', 'one', id] as const),
  browse: (filter: PresetBrowseFilter) => teamScoped(['presets', 'browse', filter] as const),
};

/** The /presets page's filters (all in its URL). */
export interface PresetBrowseFilter {
  type?: string | undefined;
  namespace?: string | undefined;
  /** `key:value` pairs: same key any of, different keys all of. */
  metadata?: string[] | undefined;
  q?: string | undefined;
}

/** Every preset the browser shows, a page at a time (public ones and the team's own). */
export function presetBrowseQueryOptions(filter: PresetBrowseFilter) {
  return infiniteQueryOptions({
    queryKey: presetKeys.browse(filter),
    queryFn: ({ pageParam }) =>
      api().listPresets({
        query: {
          limit: 48,
          ...(filter.type ? { type: filter.type } : {}),
          ...(filter.namespace ? { namespace: filter.namespace } : {}),
          ...(filter.metadata?.length ? { metadata: filter.metadata.join(',') } : {}),
          ...(filter.q ? { q: filter.q } : {}),
          ...(pageParam ? { cursor: pageParam } : {}),
        },
      }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    staleTime: 60_000,
  });
}

export function useCreatePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: z.input<typeof CreatePresetRequest>) => api().createPreset({ body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: presetKeys.all }),
  });
}

export function useRenamePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api().updatePreset({ params: { id }, body: { name } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: presetKeys.all }),
  });
}

export function useDeletePreset() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api().deletePreset({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: presetKeys.all }),
  });
}

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

const AUDIO_FILE = /\.(mp3|wav|ogg|m4a|flac|aac)(\?|#|$)/i;

/**
 * Whether a preset's sample is sound, a picture, or missing. An empty `preview_url` means the server has
 * no sample (a provider's voice the provider publishes none for, or a provider not enabled there). A
 * voice's sample is its sound; otherwise the URL does not say, so: a team's sound presets keep their job's
 * output, files ending like audio are audio, the rest are pictures.
 */
export function presetSampleKind(preset: Preset): 'audio' | 'image' | 'none' {
  const url = preset.preview_url;
  if (!url) return 'none';
  if (url.startsWith('data:image/')) return 'image';
  if (AUDIO_FILE.test(url)) return 'audio';
  if (preset.type === 'voice') return 'audio';
  const tool = preset.metadata.tool;
  if (preset.namespace === 'team' && !url.includes('/v2/presets/') && (tool === 'speech' || tool === 'music'))
    return 'audio';
  return 'image';
}
