import { getPreset, getPresetPreview, listPresets } from '../../../contract/presets.ts';
import { PRESETS } from '../../domain/presets/preset-catalog.ts';
import { PresetPreviews } from '../../domain/presets/preset-preview.ts';
import { presetView } from '../../domain/presets/preset-view.ts';
import { AppError } from '../../errors.ts';
import { ffmpegPath } from '../../providers/local/ffmpeg-binary.ts';
import { speak } from '../../providers/local/speech-engine.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';
import { requestHeader } from '../request-header.ts';
import { errorBody, respond, respondJson } from '../respond.ts';
import { parseRange } from './media.ts';

function presetOf(id: string) {
  const preset = PRESETS.get(id);
  if (!preset) throw new AppError('not_found', `No preset ${id}.`);
  return preset;
}

/** Presets are public data (spec 4.7): the same for everyone, so no account is looked at. */
export function presetRoutes(s: Services) {
  let binary: string | undefined;
  const previews = new PresetPreviews({
    dataDir: s.config.DATA_DIR,
    speak: (voice, text) => {
      binary ??= ffmpegPath(s.config);
      return speak(voice, text, { binary });
    },
    log: s.log,
  });

  return [
    defineRoute(listPresets, async ({ query }) => {
      const { limit, cursor, ...filter } = query;
      const page = PRESETS.page(filter, limit, cursor);
      return {
        data: page.data.map((p) => presetView(p, s.config.PUBLIC_URL)),
        next_cursor: page.next_cursor,
      };
    }),

    defineRoute(getPreset, async ({ params }) => presetView(presetOf(params.id), s.config.PUBLIC_URL)),

    defineRoute(getPresetPreview, async ({ params, c }) => {
      const preset = presetOf(params.id);
      if (preset.preview?.kind !== 'local-speech') {
        const where = preset.preview?.kind === 'url' ? ` Its sample is at ${preset.preview.url}.` : '';
        throw new AppError('not_found', `Preset ${preset.id} has no sample on this server.${where}`);
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
