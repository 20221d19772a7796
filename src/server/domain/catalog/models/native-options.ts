import type { JsonSchema } from '../types.ts';

/*
 * JSON Schemas of provider-native fields (`provider_options.<provider>`) shared by model families. Only
 * fields the providers document for the family are listed; anything else is refused, so a typo is a 422
 * rather than a silently ignored setting.
 */

export function fields(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, additionalProperties: false };
}

const seed: JsonSchema = {
  type: 'integer',
  minimum: 0,
  maximum: 2_147_483_647,
  description: 'Same seed, same output.',
};
const negativePrompt: JsonSchema = { type: 'string', maxLength: 2000, description: 'What to keep out.' };
const guidance = (max: number): JsonSchema => ({
  type: 'number',
  minimum: 0,
  maximum: max,
  description: 'Prompt adherence.',
});
const steps = (max: number): JsonSchema => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  description: 'Denoising steps.',
});
const count = (max: number): JsonSchema => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  description: 'Images per request.',
});
const safety: JsonSchema = { type: 'boolean', description: "The provider's safety checker." };

export const FAL_FLUX = fields({
  seed,
  num_inference_steps: steps(50),
  guidance_scale: guidance(20),
  num_images: count(4),
  enable_safety_checker: safety,
  output_format: { enum: ['jpeg', 'png'] },
});
export const FAL_FLUX_SCHNELL = fields({
  seed,
  num_inference_steps: steps(12),
  num_images: count(4),
  enable_safety_checker: safety,
});
export const FAL_FLUX_PRO = fields({
  seed,
  num_images: count(4),
  safety_tolerance: { enum: ['1', '2', '3', '4', '5', '6'], description: '1 strictest, 6 most permissive.' },
  output_format: { enum: ['jpeg', 'png'] },
  raw: { type: 'boolean', description: 'Less processed, more natural images (ultra only).' },
});
export const FAL_IMAGE_BASIC = fields({ seed, num_images: count(4), negative_prompt: negativePrompt });
export const FAL_STYLE = fields({
  style: {
    type: 'string',
    maxLength: 100,
    description: 'A style name the model documents, e.g. realistic_image.',
  },
  colors: {
    type: 'array',
    maxItems: 5,
    items: {
      type: 'object',
      properties: { r: { type: 'integer' }, g: { type: 'integer' }, b: { type: 'integer' } },
    },
  },
});
export const FAL_EDIT = fields({
  seed,
  guidance_scale: guidance(20),
  strength: { type: 'number', minimum: 0, maximum: 1 },
  num_inference_steps: steps(50),
});
export const FAL_UPSCALE = fields({
  scale: { type: 'number', minimum: 1, maximum: 8, description: 'Upscale factor.' },
  creativity: { type: 'number', minimum: 0, maximum: 1 },
  resemblance: { type: 'number', minimum: 0, maximum: 1 },
});
/** fal.ai/models/fal-ai/clarity-upscaler: the factor is `upscale_factor` (1 to 4, default 2), not `scale`. */
export const FAL_CLARITY_UPSCALER = fields({
  upscale_factor: { type: 'number', minimum: 1, maximum: 4, description: 'Upscale factor (default 2).' },
  creativity: { type: 'number', minimum: 0, maximum: 1 },
  resemblance: { type: 'number', minimum: 0, maximum: 1 },
  guidance_scale: guidance(20),
  num_inference_steps: steps(200),
  negative_prompt: negativePrompt,
  seed,
});
/** Hailuo 02 standard on fal: `resolution` is "512P" or "768P" (capital P; 1080P is the pro tier). */
export const FAL_HAILUO = fields({
  prompt_optimizer: { type: 'boolean' },
  resolution: { enum: ['512P', '768P'] },
});
export const FAL_VIDEO = fields({
  negative_prompt: negativePrompt,
  cfg_scale: guidance(1),
  seed,
  prompt_optimizer: { type: 'boolean' },
  resolution: { enum: ['480p', '540p', '580p', '720p', '768p', '1080p'] },
});
export const FAL_VEO = fields({
  negative_prompt: negativePrompt,
  generate_audio: { type: 'boolean', description: 'Generate a soundtrack with the video.' },
  enhance_prompt: { type: 'boolean' },
  seed,
  resolution: { enum: ['720p', '1080p'] },
});
export const FAL_LIPSYNC = fields({ sync_mode: { enum: ['cut_off', 'loop', 'bounce', 'silence', 'remap'] } });
export const FAL_VIDEO_UPSCALE = fields({
  upscale_factor: { type: 'number', minimum: 1, maximum: 4 },
  target_fps: { type: 'integer', minimum: 16, maximum: 60 },
});
export const FAL_KOKORO = fields({ speed: { type: 'number', minimum: 0.1, maximum: 5 } });
export const FAL_MINIMAX_SPEECH = fields({
  voice_setting: {
    type: 'object',
    properties: {
      speed: { type: 'number', minimum: 0.5, maximum: 2 },
      vol: { type: 'number', minimum: 0.01, maximum: 10 },
      pitch: { type: 'integer', minimum: -12, maximum: 12 },
      emotion: { enum: ['happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised', 'neutral'] },
    },
    additionalProperties: false,
  },
  language_boost: { type: 'string', maxLength: 40 },
});
export const FAL_STABLE_AUDIO = fields({ steps: steps(1000), seed });
export const FAL_LYRIA = fields({ negative_prompt: negativePrompt, seed });
/** fal's v1.5 names the lyrics `prompt` (10 to 600 characters) and the style `lyrics_prompt`. */
export const FAL_MINIMAX_MUSIC = fields({
  prompt: {
    type: 'string',
    minLength: 10,
    maxLength: 600,
    description: 'Lyrics, with [verse] and [chorus] tags. Without them the song is instrumental.',
  },
});
export const FAL_WHISPER = fields({
  task: { enum: ['transcribe', 'translate'] },
  chunk_level: { enum: ['segment', 'word'] },
  diarize: { type: 'boolean' },
  num_speakers: { type: 'integer', minimum: 1, maximum: 20 },
});

export const REPLICATE_FLUX = fields({
  seed,
  num_outputs: count(4),
  num_inference_steps: steps(50),
  guidance: guidance(10),
  output_format: { enum: ['webp', 'jpg', 'png'] },
  output_quality: { type: 'integer', minimum: 0, maximum: 100 },
  disable_safety_checker: { type: 'boolean' },
  go_fast: { type: 'boolean' },
  megapixels: { enum: ['1', '0.25'] },
});
export const REPLICATE_FLUX_SCHNELL = fields({
  seed,
  num_outputs: count(4),
  num_inference_steps: steps(4),
  output_format: { enum: ['webp', 'jpg', 'png'] },
  output_quality: { type: 'integer', minimum: 0, maximum: 100 },
  disable_safety_checker: { type: 'boolean' },
  go_fast: { type: 'boolean' },
  megapixels: { enum: ['1', '0.25'] },
});
export const REPLICATE_IMAGE_BASIC = fields({
  seed,
  negative_prompt: negativePrompt,
  output_format: { enum: ['webp', 'jpg', 'png'] },
});
/**
 * black-forest-labs/flux-kontext-pro's page lists every input (prompt, input_image, aspect_ratio,
 * prompt_upsampling, seed, output_format, safety_tolerance up to 6): no negative prompt.
 */
export const REPLICATE_KONTEXT = fields({
  seed,
  prompt_upsampling: { type: 'boolean' },
  safety_tolerance: { type: 'integer', minimum: 0, maximum: 6 },
});
/** bytedance/seedream-3's page: seed and guidance_scale 1..10 (no negative prompt, no output format). */
export const REPLICATE_SEEDREAM = fields({
  seed,
  guidance_scale: { type: 'number', minimum: 1, maximum: 10 },
});
export const REPLICATE_STYLE = fields({
  style: { type: 'string', maxLength: 100 },
  style_type: { type: 'string', maxLength: 40 },
  magic_prompt_option: { enum: ['Auto', 'On', 'Off'] },
});
export const REPLICATE_ESRGAN = fields({
  scale: { type: 'number', minimum: 0, maximum: 10 },
  face_enhance: { type: 'boolean' },
});
/*
 * Replicate's video models each take their own inputs (one schema per model's API page,
 * replicate.com/<owner>/<name>/versions/<id>/api, as the stand-in transcribes them): a field the page does
 * not list is refused by Replicate, so it is not offered here.
 */
/** kwaivgi/kling-v2.1 lists mode, duration, prompt, start_image, end_image and negative_prompt only. */
export const REPLICATE_KLING = fields({ negative_prompt: negativePrompt });
/** minimax/video-01: prompt, first_frame_image, subject_reference and prompt_optimizer. */
export const REPLICATE_MINIMAX_VIDEO = fields({ prompt_optimizer: { type: 'boolean' } });
/** luma/ray-2-720p: prompt, start/end image, duration, aspect_ratio, loop (and camera concepts). */
export const REPLICATE_RAY = fields({ loop: { type: 'boolean' } });
/** wan-video/wan-2.2-*-fast: frames_per_second 5..24 (the length is num_frames at this rate), sample_shift 1..20. */
export const REPLICATE_WAN = fields({
  seed,
  go_fast: { type: 'boolean' },
  sample_shift: { type: 'number', minimum: 1, maximum: 20 },
  frames_per_second: { type: 'integer', minimum: 5, maximum: 24 },
});
/** bytedance/seedance-1-pro: seed and camera_fixed (its resolution and fps enums are not spelled out). */
export const REPLICATE_SEEDANCE = fields({ seed, camera_fixed: { type: 'boolean' } });
/** replicate.com/google/veo-3.1 (and veo-3): 720p or 1080p, sound on by default. */
export const REPLICATE_VEO = fields({
  seed,
  negative_prompt: negativePrompt,
  resolution: { enum: ['720p', '1080p'] },
  generate_audio: { type: 'boolean' },
});
export const REPLICATE_MUSICGEN = fields({
  model_version: { enum: ['stereo-melody-large', 'stereo-large', 'melody-large', 'large'] },
  temperature: { type: 'number', minimum: 0, maximum: 2 },
  top_k: { type: 'integer', minimum: 0, maximum: 500 },
  output_format: { enum: ['wav', 'mp3'] },
  seed,
});
export const REPLICATE_MINIMAX_MUSIC = fields({ lyrics: { type: 'string', maxLength: 600 } });
export const REPLICATE_MINIMAX_SPEECH = fields({
  speed: { type: 'number', minimum: 0.5, maximum: 2 },
  pitch: { type: 'integer', minimum: -12, maximum: 12 },
  emotion: { enum: ['auto', 'happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised', 'neutral'] },
  language_boost: { type: 'string', maxLength: 40 },
});
export const REPLICATE_KOKORO = fields({ speed: { type: 'number', minimum: 0.1, maximum: 5 } });
export const REPLICATE_WHISPER = fields({
  transcription: { enum: ['plain text', 'srt', 'vtt'] },
  translate: { type: 'boolean' },
  temperature: { type: 'number', minimum: 0, maximum: 1 },
  initial_prompt: { type: 'string', maxLength: 1000 },
});

export const OPENAI_GPT_IMAGE = fields({
  quality: { enum: ['low', 'medium', 'high', 'auto'] },
  background: { enum: ['transparent', 'opaque', 'auto'] },
  output_format: { enum: ['png', 'jpeg', 'webp'] },
  output_compression: { type: 'integer', minimum: 0, maximum: 100 },
  moderation: { enum: ['low', 'auto'] },
  n: count(10),
});
export const OPENAI_DALLE3 = fields({
  quality: { enum: ['standard', 'hd'] },
  style: { enum: ['vivid', 'natural'] },
});
export const OPENAI_DALLE2 = fields({ n: count(10) });
export const OPENAI_SORA = fields({ size: { enum: ['1280x720', '720x1280', '1792x1024', '1024x1792'] } });
export const OPENAI_TTS = fields({
  speed: { type: 'number', minimum: 0.25, maximum: 4 },
  response_format: { enum: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] },
});
export const OPENAI_TTS_INSTRUCTED = fields({
  speed: { type: 'number', minimum: 0.25, maximum: 4 },
  response_format: { enum: ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] },
  instructions: { type: 'string', maxLength: 4000, description: 'How to speak: tone, pace, accent.' },
});
export const OPENAI_TRANSCRIBE = fields({
  prompt: { type: 'string', maxLength: 1000, description: 'Vocabulary or style hints.' },
  temperature: { type: 'number', minimum: 0, maximum: 1 },
});

export const ELEVENLABS_TTS = fields({
  voice_settings: {
    type: 'object',
    properties: {
      stability: { type: 'number', minimum: 0, maximum: 1 },
      similarity_boost: { type: 'number', minimum: 0, maximum: 1 },
      style: { type: 'number', minimum: 0, maximum: 1 },
      use_speaker_boost: { type: 'boolean' },
      speed: { type: 'number', minimum: 0.7, maximum: 1.2 },
    },
    additionalProperties: false,
  },
  language_code: { type: 'string', maxLength: 10 },
  seed: { type: 'integer', minimum: 0, maximum: 4_294_967_295 },
  output_format: {
    enum: ['mp3_44100_128', 'mp3_44100_192', 'mp3_22050_32', 'pcm_16000', 'pcm_44100', 'opus_48000_128'],
  },
});
export const ELEVENLABS_MUSIC = fields({ force_instrumental: { type: 'boolean' } });
export const ELEVENLABS_SCRIBE = fields({
  diarize: { type: 'boolean' },
  num_speakers: { type: 'integer', minimum: 1, maximum: 32 },
  tag_audio_events: { type: 'boolean' },
});
