import {
  type CommonBody,
  clamp,
  defined,
  type Family,
  type FileSlot,
  type Json,
  nearestAspect,
  nearestNumber,
  positiveNumber,
  primaryLanguage,
  ratioOf,
} from './native-input.ts';

/*
 * The common request fields as each fal model family takes them, from the models' documented input
 * schemas (fal.ai/models/<id>/api; llms.txt copies and the fal-js generated types):
 * - flux, flux-pro v1.1, recraft, SD 3.5, HiDream: `image_size` preset (`landscape_16_9`, ...) or
 *   `{ width, height }`, `num_images`;
 * - flux-pro ultra, kontext, ideogram v2, imagen4: `aspect_ratio` from a fixed list;
 * - kling `duration` "5"|"10", hailuo-02 "6"|"10", pixverse "5"|"8", luma "5s"|"9s", veo3 "8s",
 *   veo3.1 "4s"|"6s"|"8s" at 16:9 or 9:16 (fal.ai/models/fal-ai/veo3.1/api);
 *   wan 2.2 counts `num_frames` at `frames_per_second` (16 by default);
 * - stable-audio `seconds_total` (1..47), lyria2 fixed 30 s clips;
 * - whisper/wizper `audio_url`, `language`, `chunk_level: "segment"` for timestamps.
 * Durations and aspect ratios round to the nearest allowed value; provider_options.fal wins over all.
 */

const FLUX_ULTRA_ASPECTS = ['21:9', '16:9', '4:3', '3:2', '1:1', '2:3', '3:4', '9:16', '9:21'];
const IDEOGRAM_ASPECTS = ['10:16', '16:10', '9:16', '16:9', '4:3', '3:4', '1:1', '1:3', '3:1', '3:2', '2:3'];
const IMAGEN_ASPECTS = ['1:1', '16:9', '9:16', '3:4', '4:3'];
const SQUARE_WIDE_TALL = ['16:9', '9:16', '1:1'];
const WIDE_TALL = ['16:9', '9:16'];
const LUMA_ASPECTS = ['16:9', '9:16', '4:3', '3:4', '21:9', '9:21'];
const PIXVERSE_ASPECTS = ['16:9', '4:3', '1:1', '3:4', '9:16'];

/** fal's named sizes; other ratios are sent as a custom `{ width, height }` of about one megapixel. */
const IMAGE_SIZE_PRESETS: Record<string, string> = {
  '1:1': 'square_hd',
  '4:3': 'landscape_4_3',
  '16:9': 'landscape_16_9',
  '3:4': 'portrait_4_3',
  '9:16': 'portrait_16_9',
};

export function imageSize(aspect: string): string | { width: number; height: number } {
  const ratio = ratioOf(aspect);
  const preset = Object.entries(IMAGE_SIZE_PRESETS).find(
    ([key]) => Math.abs(ratioOf(key) / ratio - 1) < 0.01,
  );
  if (preset) return preset[1];
  const multipleOf16 = (n: number) => Math.max(256, Math.round(n / 16) * 16);
  const width = Math.sqrt(1024 * 1024 * ratio);
  return { width: multipleOf16(width), height: multipleOf16(width / ratio) };
}

const prompt = (body: CommonBody) => defined({ prompt: body.prompt || undefined });
const aspect = (body: CommonBody, allowed: readonly string[]) =>
  body.aspect_ratio ? nearestAspect(body.aspect_ratio, allowed) : undefined;
const numImages = (sent: Json) => positiveNumber(sent.num_images) ?? 1;

const IMAGE_IN: FileSlot = { field: 'image_url', kind: 'image', required: true };

/** Text-to-image with fal's `image_size`. */
const sizedImage: Family = {
  tool: 'image',
  fields: (body) =>
    defined({ ...prompt(body), image_size: body.aspect_ratio && imageSize(body.aspect_ratio) }),
  count: numImages,
};

function aspectImage(allowed: readonly string[], files?: FileSlot[]): Family {
  return {
    tool: 'image',
    fields: (body) => defined({ ...prompt(body), aspect_ratio: aspect(body, allowed) }),
    files,
    count: numImages,
  };
}

/** An image model that takes a source image (edit, upscale) and, optionally, a prompt. */
const imageToImage: Family = { tool: 'image', fields: prompt, files: [IMAGE_IN], count: numImages };

/**
 * A video model with a fixed set of durations, sent as strings with `suffix` (`"10"`, `"9s"`);
 * the default is the first allowed value.
 */
function durationVideo(
  allowed: readonly number[],
  suffix: '' | 's',
  aspects: readonly string[] | null,
  files?: FileSlot[],
): Family {
  return {
    tool: 'video',
    fields: (body) =>
      defined({
        ...prompt(body),
        duration: body.duration ? `${nearestNumber(body.duration, allowed)}${suffix}` : undefined,
        aspect_ratio: aspects ? aspect(body, aspects) : undefined,
      }),
    files,
    seconds: (sent) => positiveNumber(sent.duration) ?? allowed[0] ?? null,
  };
}

/** Wan 2.2: the length is `num_frames` (17..121) at `frames_per_second` (16 unless overridden). */
function wanVideo(files?: FileSlot[]): Family {
  return {
    tool: 'video',
    fields: (body) =>
      defined({
        ...prompt(body),
        num_frames: body.duration ? clamp(Math.round(body.duration * 16), 17, 121) : undefined,
        aspect_ratio: aspect(body, SQUARE_WIDE_TALL),
      }),
    files,
    seconds: (sent) =>
      (positiveNumber(sent.num_frames) ?? 81) / (positiveNumber(sent.frames_per_second) ?? 16),
  };
}

const transcription: Family = {
  tool: 'transcription',
  fields: (body) =>
    defined({
      task: 'transcribe',
      chunk_level: 'segment',
      language: body.language ? primaryLanguage(body.language) : undefined,
    }),
  files: [{ field: 'audio_url', kind: 'audio', source: 'audio_url', required: true }],
};

export const FAL_FAMILIES: Record<string, Family> = {
  'fal-ai/flux/schnell': sizedImage,
  'fal-ai/flux/dev': sizedImage,
  'fal-ai/flux-pro/v1.1': sizedImage,
  'fal-ai/flux-pro/v1.1-ultra': aspectImage(FLUX_ULTRA_ASPECTS),
  'fal-ai/recraft-v3': sizedImage,
  'fal-ai/ideogram/v2': aspectImage(IDEOGRAM_ASPECTS),
  'fal-ai/stable-diffusion-v35-large': sizedImage,
  'fal-ai/imagen4/preview': aspectImage(IMAGEN_ASPECTS),
  'fal-ai/hidream-i1-full': sizedImage,
  'fal-ai/flux-pro/kontext': aspectImage(FLUX_ULTRA_ASPECTS, [IMAGE_IN]),
  'fal-ai/flux/dev/image-to-image': imageToImage,
  'fal-ai/clarity-upscaler': imageToImage,
  'fal-ai/esrgan': { tool: 'image', fields: () => ({}), files: [IMAGE_IN] },

  'fal-ai/kling-video/v2.1/master/text-to-video': durationVideo([5, 10], '', SQUARE_WIDE_TALL),
  'fal-ai/kling-video/v2.1/master/image-to-video': durationVideo([5, 10], '', null, [IMAGE_IN]),
  'fal-ai/minimax/hailuo-02/standard/text-to-video': durationVideo([6, 10], '', null),
  'fal-ai/minimax/hailuo-02/standard/image-to-video': durationVideo([6, 10], '', null, [IMAGE_IN]),
  // Veo 3 is documented with the single duration "8s" (later revisions add "4s"/"6s": provider_options).
  'fal-ai/veo3': durationVideo([8], 's', SQUARE_WIDE_TALL),
  'fal-ai/veo3/image-to-video': durationVideo([8], 's', null, [IMAGE_IN]),
  'fal-ai/veo3.1': durationVideo([4, 6, 8], 's', WIDE_TALL),
  'fal-ai/veo3.1/image-to-video': durationVideo([4, 6, 8], 's', null, [IMAGE_IN]),
  'fal-ai/luma-dream-machine/ray-2': durationVideo([5, 9], 's', LUMA_ASPECTS),
  'fal-ai/luma-dream-machine/ray-2/image-to-video': durationVideo([5, 9], 's', LUMA_ASPECTS, [IMAGE_IN]),
  'fal-ai/wan/v2.2-a14b/text-to-video': wanVideo(),
  'fal-ai/wan/v2.2-a14b/image-to-video': wanVideo([IMAGE_IN]),
  'fal-ai/pixverse/v4.5/text-to-video': durationVideo([5, 8], '', PIXVERSE_ASPECTS),
  'fal-ai/pixverse/v4.5/image-to-video': durationVideo([5, 8], '', null, [IMAGE_IN]),
  // The result is as long as the shorter of the video and the audio (sync_mode "cut_off").
  'fal-ai/sync-lipsync/v2': {
    tool: 'video',
    fields: () => ({}),
    files: [
      { field: 'video_url', kind: 'video', required: true },
      { field: 'audio_url', kind: 'audio', required: true },
    ],
  },
  // Its answer carries `duration` (seconds of the video made).
  'fal-ai/bytedance/omnihuman': {
    tool: 'video',
    fields: () => ({}),
    files: [IMAGE_IN, { field: 'audio_url', kind: 'audio', required: true }],
  },
  'fal-ai/topaz/upscale/video': {
    tool: 'video',
    fields: () => ({}),
    files: [{ field: 'video_url', kind: 'video', required: true }],
  },

  'fal-ai/kokoro/american-english': {
    tool: 'speech',
    fields: (body) => defined({ prompt: body.text, voice: body.voice }),
  },
  // output_format defaults to "hex" (audio bytes inline): ask for a file URL.
  'fal-ai/minimax/speech-02-hd': {
    tool: 'speech',
    fields: (body) =>
      defined({
        text: body.text,
        output_format: 'url',
        voice_setting: body.voice ? { voice_id: body.voice } : undefined,
      }),
  },

  'fal-ai/stable-audio': {
    tool: 'music',
    fields: (body) =>
      defined({
        ...prompt(body),
        seconds_total: body.duration ? clamp(Math.round(body.duration), 1, 47) : undefined,
      }),
    seconds: (sent) => positiveNumber(sent.seconds_total) ?? 30,
  },
  'fal-ai/lyria2': { tool: 'music', fields: prompt, seconds: () => 30 },
  // v1.5 names the style `lyrics_prompt` (10..300 characters: the catalog refuses a shorter prompt) and
  // the lyrics `prompt` (10..600, required): lyrics come from provider_options.fal.prompt, else the
  // lyrics sent are the `[Instrumental]` tag. It takes no duration; the catalog bills it per generation.
  'fal-ai/minimax-music/v1.5': {
    tool: 'music',
    fields: (body) => ({ lyrics_prompt: body.prompt ?? '', prompt: '[Instrumental]' }),
  },

  'fal-ai/whisper': transcription,
  'fal-ai/wizper': transcription,
};
