import { z } from 'zod';
import { commaList, HttpUrl, PageQuery, pageOf, ToolKey } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { PRESET_ID, PRESET_NAME_MAX } from './values.ts';

export { PRESET_NAME_MAX };

/** `preset_<12 hex characters>` (spec 2.7, 4.7). */
export const PresetId = z
  .string()
  .regex(PRESET_ID, { message: 'must have the form preset_<12 hex characters>' })
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
    preview_url: z.string().meta({
      description:
        "Sample audio or image. A voice's sample is audio: spoken here for local voices, the provider's own where it publishes one (ElevenLabs). The empty string when this server has no sample for the preset (OpenAI publishes none; a provider not enabled here).",
    }),
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
    "The sample a preset's `preview_url` points to when this server makes it: an MP3 spoken by the local speech engine for its voices, a PNG for image styles; made once on first request, then kept. Provider voices answer 404 `not_found` here (their sample, if any, is the provider's own URL). Public; answers carry a strong ETag, `Cache-Control: public, max-age=86400, immutable` and honour Range requests.",
  auth: 'none',
  params: z.object({ id: PresetId }),
  responses: {
    200: {
      description: 'The sample.',
      contentType: 'audio/mpeg',
      schema: z.string().meta({ format: 'binary', description: 'audio/mpeg or image/png.' }),
    },
  },
  errors: ['not_found'],
});

export const PRESET_DESCRIPTION_MAX = 1000;
/** Ours: private presets one team may keep. */
export const TEAM_PRESETS_MAX = 200;
/** Namespace of a team's private presets. */
export const TEAM_PRESET_NAMESPACE = 'team';

const PresetName = z.string().trim().min(1).max(PRESET_NAME_MAX);
const PresetDescription = z.string().trim().max(PRESET_DESCRIPTION_MAX);

/** `POST /v2/presets` (ours): save a private preset of the caller's team. */
export const CreatePresetRequest = z
  .object({
    name: PresetName,
    description: PresetDescription.optional().meta({ description: 'Default empty.' }),
    type: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, { message: 'must be a lower-case word, for example style' })
      .optional()
      .meta({ description: 'Which parameter it fills; default `input` (a whole request).' }),
    tool: ToolKey.meta({ description: 'The tool the fragment is for.' }),
    fragment: z.record(z.string(), z.unknown()).meta({
      description:
        "Fields of that tool's request, for example a finished job's input. `options` (webhook, cache) is not kept.",
    }),
    preview_url: HttpUrl.optional().meta({
      description:
        "A sample (for example the job's output). Default: the sample of a built-in preset the fragment uses, else a drawn picture.",
    }),
  })
  .meta({ id: 'CreatePresetRequest' });

/** `PATCH /v2/presets/{id}` (ours): rename or redescribe a private preset. */
export const UpdatePresetRequest = z
  .object({ name: PresetName.optional(), description: PresetDescription.optional() })
  .refine((b) => b.name !== undefined || b.description !== undefined, {
    message: 'name or description is required',
    path: ['name'],
  })
  .meta({ id: 'UpdatePresetRequest' });

export const createPreset = defineEndpoint({
  operationId: 'createPreset',
  method: 'POST',
  path: '/v2/presets',
  host: 'api',
  tag: 'Presets',
  summary: 'Save a private preset',
  description: `Seen only by the caller's team (namespace \`${TEAM_PRESET_NAMESPACE}\`); at most ${TEAM_PRESETS_MAX} per team (409 \`conflict\` beyond).`,
  auth: 'any',
  body: CreatePresetRequest,
  responses: { 201: { description: 'The saved preset.', schema: Preset } },
  errors: ['conflict'],
});

export const updatePreset = defineEndpoint({
  operationId: 'updatePreset',
  method: 'PATCH',
  path: '/v2/presets/{id}',
  host: 'api',
  tag: 'Presets',
  summary: 'Rename a private preset',
  description: "Only the team's own private presets; built-in ones and other teams' answer 404.",
  auth: 'any',
  params: z.object({ id: PresetId }),
  body: UpdatePresetRequest,
  responses: { 200: { description: 'The renamed preset.', schema: Preset } },
  errors: ['not_found'],
});

export const deletePreset = defineEndpoint({
  operationId: 'deletePreset',
  method: 'DELETE',
  path: '/v2/presets/{id}',
  host: 'api',
  tag: 'Presets',
  summary: 'Delete a private preset',
  description: "Only the team's own private presets; built-in ones and other teams' answer 404.",
  auth: 'any',
  params: z.object({ id: PresetId }),
  responses: { 204: { description: 'Deleted.' } },
  errors: ['not_found'],
});
