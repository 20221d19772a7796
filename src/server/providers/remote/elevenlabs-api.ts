import { ProviderError } from '../../domain/jobs/provider-error.ts';
import { redactKey } from './openai-api.ts';
import { type ProviderRequest, providerFetch } from './provider-http.ts';

export const ELEVENLABS = 'ElevenLabs';

/**
 * Calls to ElevenLabs' REST API with its `xi-api-key` header. Its errors (`{detail: {status,
 * message}}` or `{detail: "..."}`) and 429s (`too_many_concurrent_requests`, `system_busy`) become
 * ProviderErrors in provider-http.ts.
 */
export type ElevenLabsApi = (path: string, request?: ProviderRequest) => Promise<Response>;

export function elevenLabsApi(baseUrl: string, key: string | undefined): ElevenLabsApi {
  const base = baseUrl.replace(/\/+$/, '');
  return async (path, request = {}) => {
    try {
      return await providerFetch(ELEVENLABS, `${base}${path}`, {
        refusal: isPolicyRefusal,
        ...request,
        headers: { ...request.headers, 'xi-api-key': key ?? '' },
      });
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      throw new ProviderError(error.code, redactKey(error.message, key), error.options);
    }
  };
}

/**
 * ElevenLabs' documented content refusals, `{detail: {status, message, data}}` with 400: Eleven Music's
 * `bad_prompt` (a prompt that "violated our Terms of Service", such as copyrighted material, with a
 * `prompt_suggestion`) and `bad_composition_plan` (the same for a composition plan)
 * (https://elevenlabs.io/docs/cookbooks/music/quickstart#copyrighted-material).
 */
const POLICY_STATUSES = ['bad_prompt', 'bad_composition_plan'];

export function isPolicyRefusal(body: string): boolean {
  try {
    const detail = (JSON.parse(body) as { detail?: { status?: unknown } }).detail;
    return typeof detail?.status === 'string' && POLICY_STATUSES.includes(detail.status);
  } catch {
    return false;
  }
}

/** The media type of an ElevenLabs `output_format` (`codec_samplerate[_bitrate]`). */
export function outputMediaType(outputFormat: string): { mediaType: string; extension: string } {
  const codec = outputFormat.split('_')[0] ?? '';
  const known: Record<string, { mediaType: string; extension: string }> = {
    mp3: { mediaType: 'audio/mpeg', extension: 'mp3' },
    wav: { mediaType: 'audio/wav', extension: 'wav' },
    opus: { mediaType: 'audio/ogg', extension: 'ogg' },
    pcm: { mediaType: 'audio/pcm', extension: 'pcm' }, // raw 16-bit little-endian samples
    ulaw: { mediaType: 'audio/basic', extension: 'ulaw' },
    alaw: { mediaType: 'audio/x-alaw-basic', extension: 'alaw' },
  };
  return known[codec] ?? { mediaType: 'application/octet-stream', extension: 'bin' };
}

export const DEFAULT_OUTPUT_FORMAT = 'mp3_44100_128';

/** The play time of headerless output (`pcm_<rate>`: 16-bit mono; `ulaw_<rate>`, `alaw_<rate>`: 8-bit). */
export function rawAudioSeconds(outputFormat: string, bytes: number): number | null {
  const [codec, rate] = outputFormat.split('_');
  const samplesPerSecond = Number(rate);
  if (!(samplesPerSecond > 0)) return null;
  if (codec === 'pcm') return bytes / (2 * samplesPerSecond);
  if (codec === 'ulaw' || codec === 'alaw') return bytes / samplesPerSecond;
  return null;
}
