import { z } from 'zod';
import { commaList, PageQuery, pageOf, ToolKey } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

/** `preset_<12 hex characters>` (spec 2.7, 4.7). */
export const PresetId = z
  .string()
  .regex(/^preset_[0-9a-f]{12}$/, { message: 'must have the form preset_<12 hex characters>' })
  .meta({ description: 'Form `preset_<12 hex characters>`.' });

export const PRESET_STATUSES = ['active', 'deprecated'] as const;
export const PresetStatus = z.enum(PRESET_STATUSES).meta({ id: 'PresetStatus' });

/** A fragment whose mapping is broken: an object with a single `_error` string (spec 2.7). */
export const BrokenPresetFragment = z
  .strictObject({ _error: z.string() })
  .meta({ id: 'BrokenPresetFragment' });

/** A ready-to-merge request fragment, for example `{ "voice": "preset_0123456789ab" }`. */
export const PresetFragment = z
  .union([BrokenPresetFragment, z.record(z.string(), z.unknown())])
  .meta({ id: 'PresetFragment' });

/** A preset (spec 2.7). */
export const Preset = z
  .object({
    id: PresetId,
    kind: z.literal('provider_value').meta({ description: 'Currently always `provider_value`.' }),
    type: z.string().meta({ description: 'Which parameter the preset fills (for example voice, style).' }),
    namespace: z.string().meta({ description: 'Whose id system minted the value (a provider id).' }),
    name: z.string(),
    description: z.string(),
    preview_url: z
      .string()
      .nullable()
      .meta({ description: 'Sample audio or image; null when there is none.' }),
    metadata: z.record(z.string(), z.union([z.string(), z.array(z.string())])).meta({
      description: 'Filterable attributes; keys vary by type; values are strings or arrays of strings.',
    }),
    status: PresetStatus,
    tools: z.partialRecord(ToolKey, PresetFragment).meta({
      description:
        'Keyed by tool name; each value is a ready-to-merge request fragment, or `{ "_error": "..." }` when its mapping is broken.',
    }),
  })
  .meta({ id: 'Preset' });
export type Preset = z.infer<typeof Preset>;

/**
 * `metadata` filter values: `key:value` pairs. Pairs with the same key match any of their values; different
 * keys must all match. A preset whose metadata value is an array matches when it contains the value.
 */
export const MetadataFilter = z
  .string()
  .regex(/^[a-z0-9_]{1,64}:[^,]{1,200}$/, { message: 'must have the form key:value' })
  .transform((pair) => {
    const at = pair.indexOf(':');
    return { key: pair.slice(0, at), value: pair.slice(at + 1) };
  });

export const PresetListQuery = PageQuery.extend({
  type: commaList(z.string().min(1).max(64))
    .optional()
    .meta({ description: 'Preset types, for example `voice`.' }),
  namespace: commaList(z.string().min(1).max(64)).optional().meta({ description: 'Provider ids.' }),
  tool: commaList(ToolKey)
    .optional()
    .meta({ description: 'Presets with a fragment for one of these tools.' }),
  status: commaList(PresetStatus).optional().meta({ description: 'Default: every status.' }),
  metadata: commaList(MetadataFilter).optional().meta({
    description:
      'Comma-separated `key:value` pairs, for example `gender:female,language:en,language:fr`: same key = any of, different keys = all of.',
  }),
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: 'Text matched against name and description.' }),
});

export const getPreset = defineEndpoint({
  operationId: 'getPreset',
  method: 'GET',
  path: '/v2/presets/{id}',
  host: 'api',
  tag: 'Presets',
  summary: 'Get a preset',
  description: "Authentication is optional; a Bearer token also resolves the account's private presets.",
  auth: 'optional',
  params: z.object({ id: PresetId }),
  responses: { 200: { description: 'The preset.', schema: Preset } },
  errors: ['not_found'],
});

export const listPresets = defineEndpoint({
  operationId: 'listPresets',
  method: 'GET',
  path: '/v2/presets',
  host: 'api',
  tag: 'Presets',
  summary: 'List presets',
  description: "Public presets, plus the account's private ones when a Bearer token is sent. Sorted by name.",
  auth: 'optional',
  query: PresetListQuery,
  responses: {
    200: { description: 'A page of presets.', schema: pageOf(Preset).meta({ id: 'PresetPage' }) },
  },
  errors: [],
});

export const getPresetPreview = defineEndpoint({
  operationId: 'getPresetPreview',
  method: 'GET',
  path: '/v2/presets/{id}/preview',
  host: 'api',
  tag: 'Presets',
  summary: "Play a preset's sample",
  description:
    "The sample a preset's `preview_url` points to when this server renders it (the voices of local speech models): an MP3 made on first request, then cached. Public; answers carry a strong ETag, `Cache-Control: public, max-age=86400, immutable` and honour Range requests.",
  auth: 'none',
  params: z.object({ id: PresetId }),
  responses: {
    200: {
      description: 'The sample.',
      contentType: 'audio/mpeg',
      schema: z.string().meta({ format: 'binary' }),
    },
  },
  errors: ['not_found'],
});
