import {
  createPreset,
  deletePreset,
  getPreset,
  getPresetPreview,
  listPresets,
  updatePreset,
} from '../../../contract/presets.ts';
import type { AuthContext } from '../../domain/identity/auth-context.ts';
import { BUILT_IN_PRESETS, PRESETS, PresetCatalog, rankByUse } from '../../domain/presets/preset-catalog.ts';
import { PresetPreviews } from '../../domain/presets/preset-preview.ts';
import type { PresetRecord } from '../../domain/presets/preset-record.ts';
import { presetRunsHere } from '../../domain/presets/preset-runs-here.ts';
import { presetView } from '../../domain/presets/preset-view.ts';
import {
  createTeamPreset,
  deleteTeamPreset,
  findTeamPreset,
  listTeamPresets,
  updateTeamPreset,
} from '../../domain/presets/team-presets.ts';
import { AppError } from '../../errors.ts';
import { ffmpegPath } from '../../providers/local/ffmpeg-binary.ts';
import { sketch } from '../../providers/local/image-engine.ts';
import { speak } from '../../providers/local/speech-engine.ts';
import type { Services } from '../../services.ts';
import { defineRoute, reply } from '../define-route.ts';
import { requestHeader } from '../request-header.ts';
import { errorBody, respond, respondJson } from '../respond.ts';
import { parseRange } from './media.ts';

const noPreset = (id: string) => new AppError('not_found', `No preset ${id}.`);

function presetOf(id: string) {
  const preset = PRESETS.get(id);
  if (!preset) throw noPreset(id);
  return preset;
}

/** The samples of style presets and cards are small: 512 pixels is plenty for a tile or a list. */
const SAMPLE_EDGE = 512;

/**
 * Built-in presets are public data (spec 4.7), the same with or without a token; a token also sees the
 * private presets of its team (and never another team's: those answer 404 like unknown ids).
 */
export function presetRoutes(s: Services) {
  const resolve = async (id: string, auth: AuthContext | null): Promise<PresetRecord> => {
    const preset = PRESETS.get(id) ?? (auth ? await findTeamPreset(s.db, auth.teamId, id) : null);
    if (!preset) throw noPreset(id);
    return preset;
  };
  const view = (p: PresetRecord) => presetView(p, s.config.PUBLIC_URL, s.voiceSamples);

  let binary: string | undefined;
  const previews = new PresetPreviews({
    dataDir: s.config.DATA_DIR,
    speak: (voice, text) => {
      binary ??= ffmpegPath(s.config);
      return speak(voice, text, { binary });
    },
    draw: (prompt, style) => sketch({ prompt, seed: 0, longEdge: SAMPLE_EDGE, ...(style ? { style } : {}) }),
    log: s.log,
  });

  return [
    defineRoute(listPresets, async ({ query, auth }) => {
      const { limit, cursor, ...filter } = query;
      // What runs here first (availability follows keys and retirement days, so it is ranked per request).
      const rank = rankByUse((preset) => presetRunsHere(preset, s.catalog));
      const presets = auth
        ? [...BUILT_IN_PRESETS, ...(await listTeamPresets(s.db, auth.teamId))]
        : BUILT_IN_PRESETS;
      const catalog = new PresetCatalog(presets, rank);
      const page = catalog.page(filter, limit, cursor);
      return { data: page.data.map(view), next_cursor: page.next_cursor };
    }),

    defineRoute(getPreset, async ({ params, auth }) => view(await resolve(params.id, auth))),

    defineRoute(createPreset, async ({ body, auth }) =>
      reply(201, view(await createTeamPreset(s.db, auth, body, s.config.PUBLIC_URL, s.voiceSamples))),
    ),

    defineRoute(updatePreset, async ({ params, body, auth }) =>
      view(await updateTeamPreset(s.db, auth.teamId, params.id, body)),
    ),

    defineRoute(deletePreset, async ({ params, auth }) => {
      await deleteTeamPreset(s.db, auth.teamId, params.id);
      return reply(204, undefined);
    }),

    defineRoute(getPresetPreview, async ({ params, c }) => {
      const preset = presetOf(params.id);
      if (preset.preview.kind !== 'local-speech' && preset.preview.kind !== 'local-image') {
        // A provider's voice: its sample, if any, is the provider's own (the preset's preview_url).
        const elsewhere = presetView(preset, s.config.PUBLIC_URL, s.voiceSamples).preview_url;
        throw new AppError(
          'not_found',
          `Preset ${preset.id} has no sample on this server.${elsewhere ? ` Its sample is at ${elsewhere}.` : ''}`,
        );
      }
      const sample = await previews.sample(preset.id, preset.preview);
      const size = sample.data.length;
      const cacheHeaders = {
        etag: sample.etag,
        'cache-control': 'public, max-age=86400, immutable',
        'access-control-allow-origin': '*',
        'cross-origin-resource-policy': 'cross-origin',
      };
      const ifNoneMatch = requestHeader(c, 'if-none-match');
      if (
        ifNoneMatch?.split(',').some((tag) => [sample.etag, `W/${sample.etag}`, '*'].includes(tag.trim()))
      ) {
        return respond(c, 304, null, cacheHeaders);
      }
      // If-Range with another validator means "the whole thing": the client holds other bytes.
      const ifRange = requestHeader(c, 'if-range');
      const range =
        ifRange && ifRange.trim() !== sample.etag ? 'full' : parseRange(requestHeader(c, 'range'), size);
      if (range === 'unsatisfiable') {
        return respondJson(
          c,
          416,
          errorBody('invalid_request', `The range cannot be satisfied: the sample has ${size} bytes.`),
          { 'accept-ranges': 'bytes', 'content-range': `bytes */${size}` },
        );
      }
      const bytes = range === 'full' ? sample.data : sample.data.subarray(range.start, range.end + 1);
      const headers: Record<string, string> = {
        ...cacheHeaders,
        'content-type': sample.mediaType,
        'accept-ranges': 'bytes',
        'content-length': String(bytes.length),
      };
      if (range !== 'full') headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
      return respond(c, range === 'full' ? 200 : 206, body, headers);
    }),
  ];
}
