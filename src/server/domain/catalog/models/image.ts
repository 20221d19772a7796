import type { ModelDefinition } from '../types.ts';
import { model, needsFiles, retired } from './define.ts';
import * as o from './native-options.ts';
import { offer } from './offer.ts';

/** Image models of external providers: generation, editing (source in `files`) and upscaling. */
export const IMAGE_MODELS: readonly ModelDefinition[] = [
  model(
    'flux-schnell',
    'image',
    'FLUX.1 [schnell]',
    'Fast text-to-image by Black Forest Labs, 1 to 4 steps.',
    [
      offer('fal', 'fal-ai/flux/schnell', 'image', 0.3, 1, o.FAL_FLUX_SCHNELL),
      offer('replicate', 'black-forest-labs/flux-schnell', 'image', 0.3, 1, o.REPLICATE_FLUX_SCHNELL),
    ],
    { estimatedDurationMs: 3_000 },
  ),
  model(
    'flux-dev',
    'image',
    'FLUX.1 [dev]',
    'Open-weight FLUX model with higher detail than schnell.',
    [
      offer('fal', 'fal-ai/flux/dev', 'image', 2.5, 1, o.FAL_FLUX),
      offer('replicate', 'black-forest-labs/flux-dev', 'image', 2.5, 1, o.REPLICATE_FLUX),
    ],
    { estimatedDurationMs: 8_000 },
  ),
  model(
    'flux-1.1-pro',
    'image',
    'FLUX1.1 [pro]',
    "Black Forest Labs' production model: prompt adherence and quality.",
    [
      offer('fal', 'fal-ai/flux-pro/v1.1', 'image', 4, 1, o.FAL_FLUX_PRO),
      offer('replicate', 'black-forest-labs/flux-1.1-pro', 'image', 4, 1, o.REPLICATE_FLUX),
    ],
    { estimatedDurationMs: 8_000 },
  ),
  model(
    'flux-1.1-pro-ultra',
    'image',
    'FLUX1.1 [pro] ultra',
    'FLUX1.1 [pro] at up to 4 megapixels, with a raw mode.',
    [offer('fal', 'fal-ai/flux-pro/v1.1-ultra', 'image', 6, 1, o.FAL_FLUX_PRO)],
    { estimatedDurationMs: 12_000 },
  ),
  model(
    'flux-kontext-pro',
    'image',
    'FLUX.1 Kontext [pro]',
    'Edits a source image from an instruction, keeping what the prompt does not change.',
    [
      offer('fal', 'fal-ai/flux-pro/kontext', 'image', 4, 1, o.FAL_FLUX_PRO),
      offer('replicate', 'black-forest-labs/flux-kontext-pro', 'image', 4, 1, o.REPLICATE_KONTEXT),
    ],
    { fields: { files: needsFiles(1, 1) }, estimatedDurationMs: 10_000 },
  ),
  model(
    'flux-dev-image-to-image',
    'image',
    'FLUX.1 [dev] image-to-image',
    'Repaints a source image towards the prompt; `strength` sets how far.',
    [offer('fal', 'fal-ai/flux/dev/image-to-image', 'image', 3, 1, o.FAL_EDIT)],
    { fields: { files: needsFiles(1, 1) }, estimatedDurationMs: 8_000 },
  ),
  model(
    'recraft-v3',
    'image',
    'Recraft V3',
    'Text-to-image with strong typography, vector and brand styles.',
    [
      offer('fal', 'fal-ai/recraft-v3', 'image', 4, 1, o.FAL_STYLE),
      offer('replicate', 'recraft-ai/recraft-v3', 'image', 4, 1, o.REPLICATE_STYLE),
    ],
    { estimatedDurationMs: 10_000 },
  ),
  model(
    'ideogram-v2',
    'image',
    'Ideogram 2.0',
    'Text-to-image that renders legible text in pictures.',
    [offer('fal', 'fal-ai/ideogram/v2', 'image', 8, 1, o.FAL_IMAGE_BASIC)],
    { estimatedDurationMs: 10_000 },
  ),
  model(
    'ideogram-v3-turbo',
    'image',
    'Ideogram 3.0 Turbo',
    'The fast tier of Ideogram 3.0.',
    [offer('replicate', 'ideogram-ai/ideogram-v3-turbo', 'image', 3, 1, o.REPLICATE_STYLE)],
    { estimatedDurationMs: 8_000 },
  ),
  model(
    'stable-diffusion-3.5-large',
    'image',
    'Stable Diffusion 3.5 Large',
    "Stability AI's 8B-parameter text-to-image model.",
    [
      offer('fal', 'fal-ai/stable-diffusion-v35-large', 'image', 6.5, 1, o.FAL_IMAGE_BASIC),
      offer('replicate', 'stability-ai/stable-diffusion-3.5-large', 'image', 6.5, 1, o.REPLICATE_IMAGE_BASIC),
    ],
    { estimatedDurationMs: 10_000 },
  ),
  model(
    'imagen-4',
    'image',
    'Imagen 4',
    "Google's text-to-image model.",
    [
      offer('replicate', 'google/imagen-4', 'image', 4, 1, o.REPLICATE_IMAGE_BASIC),
      offer('fal', 'fal-ai/imagen4/preview', 'image', 5, 1, o.FAL_IMAGE_BASIC),
    ],
    {
      estimatedDurationMs: 10_000,
      // Google shut every Imagen 4 model down on 2026-08-17 (Firebase AI Logic's Imagen migration guide,
      // Vertex AI deprecations); fal's endpoint list no longer carries fal-ai/imagen4/preview. Google
      // points to its Gemini image models, which this catalog does not offer yet.
      lifecycle: retired('2026-08-17', 'gpt-image-2', 'Google retired Imagen 4 on every API.'),
    },
  ),
  model(
    'hidream-i1-full',
    'image',
    'HiDream-I1 Full',
    'Open 17B-parameter text-to-image model.',
    [offer('fal', 'fal-ai/hidream-i1-full', 'image', 5, 1, o.FAL_IMAGE_BASIC)],
    { estimatedDurationMs: 15_000 },
  ),
  model(
    'seedream-3',
    'image',
    'Seedream 3.0',
    "ByteDance's bilingual text-to-image model, native 2K.",
    [offer('replicate', 'bytedance/seedream-3', 'image', 3, 1, o.REPLICATE_SEEDREAM)],
    { estimatedDurationMs: 10_000 },
  ),
  model(
    'gpt-image-2',
    'image',
    'GPT Image 2',
    "OpenAI's current image model: generation, and editing when `files` holds source images.",
    // developers.openai.com/api/docs/models/gpt-image-2 (default snapshot gpt-image-2-2026-04-21).
    [offer('openai', 'gpt-image-2', 'image', 4, 1, o.OPENAI_GPT_IMAGE)],
    { estimatedDurationMs: 30_000 },
  ),
  // OpenAI's deprecations page: gpt-image-1 shut down on 2026-10-23, dall-e-2 and dall-e-3 on 2026-05-12.
  model(
    'gpt-image-1',
    'image',
    'GPT Image 1',
    "OpenAI's first GPT image model (shut down by OpenAI).",
    [offer('openai', 'gpt-image-1', 'image', 4, 1, o.OPENAI_GPT_IMAGE)],
    { estimatedDurationMs: 30_000, lifecycle: retired('2026-10-23', 'gpt-image-2') },
  ),
  model(
    'dall-e-3',
    'image',
    'DALL·E 3',
    "OpenAI's DALL·E 3 (generation only, one image per request).",
    [offer('openai', 'dall-e-3', 'image', 4, 1, o.OPENAI_DALLE3)],
    {
      fields: { files: needsFiles(0, 0) },
      estimatedDurationMs: 15_000,
      lifecycle: retired('2026-05-12', 'gpt-image-2'),
    },
  ),
  model(
    'dall-e-2',
    'image',
    'DALL·E 2',
    "OpenAI's DALL·E 2: generation, and edits of a square PNG in `files`.",
    [offer('openai', 'dall-e-2', 'image', 2, 1, o.OPENAI_DALLE2)],
    {
      fields: { files: needsFiles(0, 1) },
      estimatedDurationMs: 10_000,
      lifecycle: retired('2026-05-12', 'gpt-image-2'),
    },
  ),
  model(
    'clarity-upscaler',
    'image',
    'Clarity upscaler',
    'Diffusion upscaler that adds plausible detail (it invents some).',
    [offer('fal', 'fal-ai/clarity-upscaler', 'image', 3, 1, o.FAL_CLARITY_UPSCALER)],
    { fields: { files: needsFiles(1, 1) }, ignores: ['aspect_ratio'], estimatedDurationMs: 20_000 },
  ),
  model(
    'real-esrgan',
    'image',
    'Real-ESRGAN',
    'GAN upscaler (2x to 4x) for photos, with optional face enhancement.',
    [
      offer(
        'replicate',
        'nightmareai/real-esrgan:f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
        'image',
        0.2,
        1,
        o.REPLICATE_ESRGAN,
      ),
      offer('fal', 'fal-ai/esrgan', 'image', 0.2, 1, o.FAL_UPSCALE),
    ],
    { fields: { files: needsFiles(1, 1) }, ignores: ['prompt', 'aspect_ratio'], estimatedDurationMs: 5_000 },
  ),
];
