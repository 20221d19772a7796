import type { ModelDefinition, PriceUnit, ProviderOffer } from './types.ts';

/*
 * The model catalog. This first edition holds the offline local engines and a few external models;
 * the providers issue completes it to about 80 models. Prices are credits (cents) per unit.
 */

const noOptions = { type: 'object', properties: {}, additionalProperties: false };

function offer(
  provider: string,
  providerModelId: string,
  unit: PriceUnit,
  unitPrice: number,
  typicalUnits: number,
  optionsSchema: Record<string, unknown> = noOptions,
): ProviderOffer {
  const pricingId = `${provider}:${providerModelId}:${unit}`.replace(/[^a-zA-Z0-9:._-]/g, '-');
  return { provider, providerModelId, pricingId, unit, unitPrice, typicalUnits, optionsSchema };
}

const seedOption = {
  type: 'object',
  properties: {
    seed: { type: 'integer', minimum: 0, maximum: 4294967295, description: 'Same seed, same picture.' },
  },
  additionalProperties: false,
};

export const MODELS: readonly ModelDefinition[] = [
  {
    id: 'local-sketch',
    tool: 'image',
    displayName: 'Local procedural sketch',
    description:
      'Deterministic procedural sketches drawn from the prompt and seed, offline. Not a neural model.',
    offers: [offer('local', 'sketch', 'image', 1, 1, seedOption)],
    deterministic: true,
    estimatedDurationMs: 1_000,
  },
  {
    id: 'local-edit',
    tool: 'image',
    displayName: 'Local image edit',
    description:
      'Real edits of source images with sharp: resize, crop, rotate, format and colour operations.',
    offers: [offer('local', 'edit', 'image', 1, 1)],
  },
  {
    id: 'local-upscale',
    tool: 'image',
    displayName: 'Local upscale (2x/4x)',
    description: 'Lanczos upscaling of a source image with sharp.',
    offers: [offer('local', 'upscale', 'image', 2, 1)],
  },
  {
    id: 'flux-schnell',
    tool: 'image',
    displayName: 'FLUX.1 [schnell]',
    description: 'Fast text-to-image model by Black Forest Labs.',
    offers: [
      offer('fal', 'fal-ai/flux/schnell', 'image', 0.3, 1, {
        type: 'object',
        properties: {
          num_inference_steps: { type: 'integer', minimum: 1, maximum: 12 },
          seed: { type: 'integer' },
        },
        additionalProperties: false,
      }),
      offer('replicate', 'black-forest-labs/flux-schnell', 'image', 0.3, 1),
    ],
  },
  {
    id: 'gpt-image-1',
    tool: 'image',
    displayName: 'GPT Image 1',
    description: "OpenAI's image generation and editing model.",
    offers: [
      offer('openai', 'gpt-image-1', 'image', 4, 1, {
        type: 'object',
        properties: { quality: { type: 'string', enum: ['low', 'medium', 'high'] } },
        additionalProperties: false,
      }),
    ],
  },
  {
    id: 'local-motion',
    tool: 'video',
    displayName: 'Local motion (text-to-video sketch)',
    description: 'Pan-and-zoom video over a procedural sketch, encoded with ffmpeg, offline.',
    offers: [offer('local', 'motion', 'second', 1, 5)],
    imageToVideoVariant: 'local-motion-i2v',
  },
  {
    id: 'local-motion-i2v',
    tool: 'video',
    displayName: 'Local motion (image-to-video)',
    description: 'Pan and zoom over a start frame from `files`, encoded with ffmpeg, offline.',
    offers: [offer('local', 'motion-i2v', 'second', 1, 5)],
  },
  {
    id: 'video-analyze',
    tool: 'video',
    displayName: 'Video analysis',
    description:
      'Facts, scene cuts, keyframes, on-screen text and suspicious instructions from a video. Used by POST /v2/video/analyze.',
    offers: [offer('local', 'video-analyze', 'job', 5, 1)],
    deterministic: true,
    estimatedDurationMs: 10_000,
  },
  {
    id: 'local-flite',
    tool: 'speech',
    displayName: 'Flite (local speech)',
    description: 'Text to speech with CMU Flite compiled to WebAssembly, offline.',
    offers: [offer('local', 'flite', 'thousand_characters', 2, 0.2)],
  },
  {
    id: 'local-espeak',
    tool: 'speech',
    displayName: 'eSpeak NG (local speech)',
    description: 'Text to speech with eSpeak NG compiled to WebAssembly, many languages, offline.',
    offers: [offer('local', 'espeak-ng', 'thousand_characters', 2, 0.2)],
  },
  {
    id: 'tts-1',
    tool: 'speech',
    displayName: 'OpenAI TTS-1',
    description: "OpenAI's text-to-speech model.",
    offers: [offer('openai', 'tts-1', 'thousand_characters', 1.5, 0.2)],
  },
  {
    id: 'eleven-multilingual-v2',
    tool: 'speech',
    displayName: 'ElevenLabs Multilingual v2',
    description: 'Expressive multilingual speech by ElevenLabs.',
    offers: [
      offer('elevenlabs', 'eleven_multilingual_v2', 'thousand_characters', 30, 0.2, {
        type: 'object',
        properties: {
          stability: { type: 'number', minimum: 0, maximum: 1 },
          similarity_boost: { type: 'number', minimum: 0, maximum: 1 },
        },
        additionalProperties: false,
      }),
    ],
  },
  {
    id: 'local-procedural-music',
    tool: 'music',
    displayName: 'Local procedural music',
    description: 'Seeded procedural music shaped by the prompt, exact duration, offline.',
    offers: [offer('local', 'procedural-music', 'second', 0.1, 30, seedOption)],
  },
  {
    id: 'local-pocketsphinx',
    tool: 'transcription',
    displayName: 'PocketSphinx (local transcription)',
    description: 'Offline English speech recognition with timed segments.',
    offers: [offer('local', 'pocketsphinx', 'minute', 1, 1)],
  },
  {
    id: 'whisper-1',
    tool: 'transcription',
    displayName: 'OpenAI Whisper',
    description: "OpenAI's speech recognition model.",
    offers: [offer('openai', 'whisper-1', 'minute', 0.6, 1)],
  },
  {
    id: 'ffmpeg',
    tool: 'ffmpeg',
    displayName: 'ffmpeg',
    description: 'Declared ffmpeg operations run locally.',
    offers: [offer('local', 'ffmpeg', 'job', 1, 1)],
  },
  {
    id: 'local-render',
    tool: 'render',
    displayName: 'Local template render',
    description: 'Renders a template with values into an image, offline.',
    offers: [offer('local', 'render', 'image', 1, 1)],
  },
  {
    id: 'pipeline',
    tool: 'pipeline',
    displayName: 'Pipeline',
    description: 'Runs its steps in order; each step is billed as its own tool.',
    offers: [offer('local', 'pipeline', 'job', 0, 1)],
  },
];
