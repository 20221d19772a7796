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
} from './native-input.ts';

/*
 * The common request fields as each Replicate model takes them, from the models' published input
 * schemas (replicate.com/<owner>/<name>/api): image models take an `aspect_ratio` from their own list
 * (flux-schnell/-dev also `num_outputs`), edits `input_image`/`image`, video models their own duration
 * field (kling 5|10, seedance 2..12 s, wan `num_frames` 81..100 at 16 fps, luma/ray-2-720p 5|9,
 * google/veo-3.1 4|6|8; video-01 makes 6 s, veo-3 8 s), musicgen `duration`, speech `text` + `voice_id`/`voice`, whisper `audio` + `language`.
 * Durations and aspect ratios round to the nearest allowed value; provider_options.replicate wins.
 */

const FLUX_ASPECTS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '3:4', '4:3', '9:16', '9:21'];
const FLUX_DEV_ASPECTS = ['1:1', '16:9', '21:9', '3:2', '2:3', '4:5', '5:4', '9:16', '9:21'];
const FLUX_PRO_ASPECTS = ['1:1', '16:9', '3:2', '2:3', '4:5', '5:4', '9:16', '3:4', '4:3'];
const KONTEXT_ASPECTS = [
  '1:1',
  '16:9',
  '9:16',
  '4:3',
  '3:4',
  '3:2',
  '2:3',
  '4:5',
  '5:4',
  '21:9',
  '9:21',
  '2:1',
  '1:2',
];
const IDEOGRAM_ASPECTS = [
  '1:3',
  '3:1',
  '1:2',
  '2:1',
  '9:16',
  '16:9',
  '10:16',
  '16:10',
  '2:3',
  '3:2',
  '3:4',
  '4:3',
  '4:5',
  '5:4',
  '1:1',
];
const RECRAFT_ASPECTS = [
  '1:1',
  '4:3',
  '3:4',
  '3:2',
  '2:3',
  '16:9',
  '9:16',
  '1:2',
  '2:1',
  '7:5',
  '5:7',
  '4:5',
  '5:4',
  '3:5',
  '5:3',
];
const IMAGEN_ASPECTS = ['1:1', '9:16', '16:9', '3:4', '4:3'];
const SEEDREAM_ASPECTS = ['1:1', '3:4', '4:3', '16:9', '9:16', '2:3', '3:2', '21:9'];
const LUMA_ASPECTS = ['1:1', '3:4', '4:3', '9:16', '16:9', '9:21', '21:9'];
const SEEDANCE_ASPECTS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', '9:21'];
const WIDE_TALL = ['16:9', '9:16'];

const prompt = (body: CommonBody) => defined({ prompt: body.prompt || undefined });
const aspect = (body: CommonBody, allowed: readonly string[]) =>
  body.aspect_ratio ? nearestAspect(body.aspect_ratio, allowed) : undefined;

function aspectImage(allowed: readonly string[], extra: Partial<Family> = {}): Family {
  return {
    tool: 'image',
    fields: (body) => defined({ ...prompt(body), aspect_ratio: aspect(body, allowed) }),
    ...extra,
  };
}
const numOutputs = (sent: Json) => positiveNumber(sent.num_outputs) ?? 1;

/** A video model whose length is fixed. */
function fixedVideo(seconds: number, aspects: readonly string[] | null, files?: FileSlot[]): Family {
  return {
    tool: 'video',
    fields: (body) => defined({ ...prompt(body), aspect_ratio: aspects ? aspect(body, aspects) : undefined }),
    files,
    seconds: () => seconds,
  };
}

/** A video model with a numeric `duration` from a fixed set (the nearest is sent; the default is `fallback`). */
function choiceVideo(
  allowed: readonly number[],
  aspects: readonly string[],
  files?: FileSlot[],
  fallback = allowed[0] ?? 5,
): Family {
  return {
    tool: 'video',
    fields: (body) =>
      defined({
        ...prompt(body),
        duration: body.duration ? nearestNumber(body.duration, allowed) : undefined,
        aspect_ratio: aspect(body, aspects),
      }),
    files,
    seconds: (sent) => positiveNumber(sent.duration) ?? fallback,
  };
}

/**
 * Wan 2.2 fast: the length is `num_frames` at `frames_per_second` (16 unless overridden). The model's API page
 * (replicate.com/wan-video/wan-2.2-t2v-fast/versions/920bea47.../api) allows 81..100 frames; 121 (fal's
 * upper bound for its own Wan endpoint) is refused there.
 */
function wanVideo(aspects: readonly string[] | null, files?: FileSlot[]): Family {
  return {
    tool: 'video',
    fields: (body) =>
      defined({
        ...prompt(body),
        num_frames: body.duration ? clamp(Math.round(body.duration * 16), 81, 100) : undefined,
        aspect_ratio: aspects ? aspect(body, aspects) : undefined,
      }),
    files,
    seconds: (sent) =>
      (positiveNumber(sent.num_frames) ?? 81) / (positiveNumber(sent.frames_per_second) ?? 16),
  };
}

export const REPLICATE_FAMILIES: Record<string, Family> = {
  'black-forest-labs/flux-schnell': aspectImage(FLUX_ASPECTS, { count: numOutputs }),
  'black-forest-labs/flux-dev': aspectImage(FLUX_DEV_ASPECTS, {
    count: numOutputs,
    files: [{ field: 'image', kind: 'image' }],
  }),
  'black-forest-labs/flux-1.1-pro': aspectImage(FLUX_PRO_ASPECTS),
  'stability-ai/stable-diffusion-3.5-large': aspectImage(FLUX_ASPECTS),
  'ideogram-ai/ideogram-v3-turbo': aspectImage(IDEOGRAM_ASPECTS),
  'recraft-ai/recraft-v3': aspectImage(RECRAFT_ASPECTS),
  'google/imagen-4': aspectImage(IMAGEN_ASPECTS),
  'bytedance/seedream-3': aspectImage(SEEDREAM_ASPECTS),
  'black-forest-labs/flux-kontext-pro': aspectImage(KONTEXT_ASPECTS, {
    files: [{ field: 'input_image', kind: 'image', required: true }],
  }),
  'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa': {
    tool: 'image',
    fields: () => ({}),
    files: [{ field: 'image', kind: 'image', required: true }],
  },

  // One id for both: a start frame goes to `first_frame_image`.
  'minimax/video-01': fixedVideo(6, null, [{ field: 'first_frame_image', kind: 'image' }]),
  'google/veo-3': fixedVideo(8, WIDE_TALL),
  // Ray 2 (replicate.com/luma/ray-2-720p): `duration` 5 or 9 seconds. (`luma/ray` is Ray 1 and has none.)
  'luma/ray-2-720p': choiceVideo([5, 9], LUMA_ASPECTS),
  // replicate.com/google/veo-3.1: `duration` 4, 6 or 8 (default 8), an optional first frame in `image`.
  'google/veo-3.1': choiceVideo([4, 6, 8], WIDE_TALL, [{ field: 'image', kind: 'image' }], 8),
  'wan-video/wan-2.2-t2v-fast': wanVideo(WIDE_TALL),
  'wan-video/wan-2.2-i2v-fast': wanVideo(null, [{ field: 'image', kind: 'image', required: true }]),
  'bytedance/seedance-1-pro': {
    tool: 'video',
    fields: (body) =>
      defined({
        ...prompt(body),
        duration: body.duration ? clamp(Math.round(body.duration), 2, 12) : undefined,
        aspect_ratio: aspect(body, SEEDANCE_ASPECTS),
      }),
    files: [{ field: 'image', kind: 'image' }],
    seconds: (sent) => positiveNumber(sent.duration) ?? 5,
  },
  'kwaivgi/kling-v2.1': {
    tool: 'video',
    fields: (body) =>
      defined({
        ...prompt(body),
        duration: body.duration ? nearestNumber(body.duration, [5, 10]) : undefined,
      }),
    files: [{ field: 'start_image', kind: 'image', required: true }],
    seconds: (sent) => positiveNumber(sent.duration) ?? 5,
  },

  'meta/musicgen:671ac645ce5e552cc63a54a2bbff63fcf798043055d2dac5fc9e36a837eedcfb': {
    tool: 'music',
    fields: (body) =>
      defined({
        ...prompt(body),
        duration: body.duration ? Math.max(1, Math.round(body.duration)) : undefined,
      }),
    seconds: (sent) => positiveNumber(sent.duration) ?? 8,
  },
  // A song from lyrics; its length is the model's choice.
  'minimax/music-01': { tool: 'music', fields: (body) => defined({ lyrics: body.prompt }) },

  'minimax/speech-02-hd': {
    tool: 'speech',
    fields: (body) => defined({ text: body.text, voice_id: body.voice }),
  },
  'jaaari/kokoro-82m:f559560eb822dc509045f3921a1921234918b91739db4bf3daab2169b71c7a13': {
    tool: 'speech',
    fields: (body) => defined({ text: body.text, voice: body.voice }),
  },

  'openai/whisper:8099696689d249cf8b122d833c36ac3f75505c666a395ca40ef26f68e7d3d16e': {
    tool: 'transcription',
    fields: (body) => defined({ language: body.language ? primaryLanguage(body.language) : undefined }),
    files: [{ field: 'audio', kind: 'audio', source: 'audio_url', required: true }],
  },
};
