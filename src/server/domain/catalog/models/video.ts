import type { ModelDefinition } from '../types.ts';
import { aspectRatios, durations, model, needsFiles, retired } from './define.ts';
import * as o from './native-options.ts';
import { offer } from './offer.ts';

const wide = aspectRatios('16:9', '9:16', '1:1');
const startFrame = needsFiles(1, 1);

/*
 * Veo 3.0 was retired upstream: fal's endpoint list no longer carries fal-ai/veo3 (checked for #26 on
 * 2026-11-27, the day used here: the docs we could read give no earlier shutdown day).
 */
/** OpenAI shut Sora 2 and its Videos API down on 2026-09-24 (help.openai.com: Sora discontinuation). */
const SORA_RETIRED = retired('2026-09-24', 'veo-3.1', 'OpenAI shut down the Videos API.');

const VEO_3_RETIRED_ON = '2026-11-27';
const VEO_3_NOTE = 'Veo 3.0 is no longer served by fal or Replicate.';
const VEO_3_RETIRED = retired(VEO_3_RETIRED_ON, 'veo-3.1', VEO_3_NOTE);

/**
 * Video models of external providers. A text-to-video model names its image-to-video variant of the
 * same family; a request with an image in `files` runs that variant (spec 4.2).
 */
export const VIDEO_MODELS: readonly ModelDefinition[] = [
  model(
    'kling-2.1-master',
    'video',
    'Kling 2.1 Master',
    "Kuaishou's top Kling tier: cinematic motion from a prompt.",
    [offer('fal', 'fal-ai/kling-video/v2.1/master/text-to-video', 'second', 28, 5, o.FAL_VIDEO)],
    {
      imageToVideoVariant: 'kling-2.1-master-i2v',
      fields: { duration: durations(5, 10), aspect_ratio: wide },
      estimatedDurationMs: 240_000,
    },
  ),
  model(
    'kling-2.1-master-i2v',
    'video',
    'Kling 2.1 Master (image-to-video)',
    'Kling 2.1 Master animating the start frame in `files`.',
    [offer('fal', 'fal-ai/kling-video/v2.1/master/image-to-video', 'second', 28, 5, o.FAL_VIDEO)],
    { fields: { duration: durations(5, 10), files: startFrame }, estimatedDurationMs: 240_000 },
  ),
  model(
    'kling-2.1-i2v',
    'video',
    'Kling 2.1 (image-to-video)',
    'Kling 2.1 standard tier; needs a start frame in `files`.',
    [offer('replicate', 'kwaivgi/kling-v2.1', 'second', 5, 5, o.REPLICATE_KLING)],
    { fields: { duration: durations(5, 10), files: startFrame }, estimatedDurationMs: 180_000 },
  ),
  model(
    'hailuo-02',
    'video',
    'MiniMax Hailuo 02',
    "MiniMax's Hailuo 02 at 768p: physics-aware motion.",
    [offer('fal', 'fal-ai/minimax/hailuo-02/standard/text-to-video', 'second', 4.5, 6, o.FAL_HAILUO)],
    {
      imageToVideoVariant: 'hailuo-02-i2v',
      fields: { duration: durations(6, 10) },
      estimatedDurationMs: 180_000,
    },
  ),
  model(
    'hailuo-02-i2v',
    'video',
    'MiniMax Hailuo 02 (image-to-video)',
    'Hailuo 02 animating the start frame in `files`.',
    [offer('fal', 'fal-ai/minimax/hailuo-02/standard/image-to-video', 'second', 4.5, 6, o.FAL_HAILUO)],
    { fields: { duration: durations(6, 10), files: startFrame }, estimatedDurationMs: 180_000 },
  ),
  model(
    'veo-3.1',
    'video',
    'Veo 3.1',
    "Google's Veo 3.1 with generated sound, 4 to 8 s.",
    [
      // fal.ai/models/fal-ai/veo3.1 and replicate.com/google/veo-3.1: 4, 6 or 8 s, 16:9 or 9:16.
      offer('fal', 'fal-ai/veo3.1', 'second', 40, 8, o.FAL_VEO),
      offer('replicate', 'google/veo-3.1', 'second', 40, 8, o.REPLICATE_VEO),
    ],
    {
      imageToVideoVariant: 'veo-3.1-i2v',
      fields: { duration: durations(4, 6, 8), aspect_ratio: aspectRatios('16:9', '9:16') },
      estimatedDurationMs: 150_000,
    },
  ),
  model(
    'veo-3.1-i2v',
    'video',
    'Veo 3.1 (image-to-video)',
    'Veo 3.1 animating the start frame in `files`, with sound.',
    [offer('fal', 'fal-ai/veo3.1/image-to-video', 'second', 40, 8, o.FAL_VEO)],
    { fields: { duration: durations(4, 6, 8), files: startFrame }, estimatedDurationMs: 150_000 },
  ),
  model(
    'veo-3',
    'video',
    'Veo 3',
    "Google's Veo 3 with generated sound.",
    [
      offer('fal', 'fal-ai/veo3', 'second', 40, 8, o.FAL_VEO),
      offer('replicate', 'google/veo-3', 'second', 75, 8, o.REPLICATE_VEO),
    ],
    {
      imageToVideoVariant: 'veo-3-i2v',
      fields: { duration: durations(8), aspect_ratio: aspectRatios('16:9', '9:16') },
      estimatedDurationMs: 150_000,
      lifecycle: VEO_3_RETIRED,
    },
  ),
  model(
    'veo-3-i2v',
    'video',
    'Veo 3 (image-to-video)',
    'Veo 3 animating the start frame in `files`, with sound.',
    [offer('fal', 'fal-ai/veo3/image-to-video', 'second', 40, 8, o.FAL_VEO)],
    {
      fields: { duration: durations(8), files: startFrame },
      estimatedDurationMs: 150_000,
      lifecycle: retired(VEO_3_RETIRED_ON, 'veo-3.1-i2v', VEO_3_NOTE),
    },
  ),
  model(
    'luma-ray-2',
    'video',
    'Luma Ray 2',
    "Luma's Ray 2: realistic motion and camera control.",
    [
      offer('fal', 'fal-ai/luma-dream-machine/ray-2', 'second', 10, 5, o.FAL_VIDEO),
      // `luma/ray` on Replicate is Ray 1 (Dream Machine) with no duration input; Ray 2 is
      // luma/ray-2-720p (replicate.com/luma/ray-2-720p: duration 5 or 9, aspect_ratio incl. 1:1).
      offer('replicate', 'luma/ray-2-720p', 'second', 10, 5, o.REPLICATE_RAY),
    ],
    {
      imageToVideoVariant: 'luma-ray-2-i2v',
      fields: {
        duration: durations(5, 9),
        // No 1:1: fal's Ray 2 endpoints do not take it (a 1:1 request would silently become 4:3 there).
        aspect_ratio: aspectRatios('16:9', '9:16', '4:3', '3:4', '21:9', '9:21'),
      },
      estimatedDurationMs: 120_000,
    },
  ),
  model(
    'luma-ray-2-i2v',
    'video',
    'Luma Ray 2 (image-to-video)',
    'Ray 2 animating the start frame in `files`.',
    [offer('fal', 'fal-ai/luma-dream-machine/ray-2/image-to-video', 'second', 10, 5, o.FAL_VIDEO)],
    { fields: { duration: durations(5, 9), files: startFrame }, estimatedDurationMs: 120_000 },
  ),
  model(
    'wan-2.2',
    'video',
    'Wan 2.2',
    "Alibaba's open Wan 2.2 (A14B) text-to-video.",
    [
      offer('fal', 'fal-ai/wan/v2.2-a14b/text-to-video', 'second', 8, 5, o.FAL_VIDEO),
      offer('replicate', 'wan-video/wan-2.2-t2v-fast', 'second', 2, 5, o.REPLICATE_WAN),
    ],
    {
      imageToVideoVariant: 'wan-2.2-i2v',
      fields: { duration: durations(5), aspect_ratio: wide },
      estimatedDurationMs: 90_000,
    },
  ),
  model(
    'wan-2.2-i2v',
    'video',
    'Wan 2.2 (image-to-video)',
    'Wan 2.2 animating the start frame in `files`.',
    [
      offer('fal', 'fal-ai/wan/v2.2-a14b/image-to-video', 'second', 8, 5, o.FAL_VIDEO),
      offer('replicate', 'wan-video/wan-2.2-i2v-fast', 'second', 2, 5, o.REPLICATE_WAN),
    ],
    { fields: { duration: durations(5), files: startFrame }, estimatedDurationMs: 90_000 },
  ),
  model(
    'pixverse-4.5',
    'video',
    'PixVerse 4.5',
    'Fast stylised text-to-video.',
    [offer('fal', 'fal-ai/pixverse/v4.5/text-to-video', 'second', 3, 5, o.FAL_VIDEO)],
    {
      imageToVideoVariant: 'pixverse-4.5-i2v',
      fields: { duration: durations(5, 8), aspect_ratio: aspectRatios('16:9', '4:3', '1:1', '3:4', '9:16') },
      estimatedDurationMs: 60_000,
    },
  ),
  model(
    'pixverse-4.5-i2v',
    'video',
    'PixVerse 4.5 (image-to-video)',
    'PixVerse 4.5 animating the start frame in `files`.',
    [offer('fal', 'fal-ai/pixverse/v4.5/image-to-video', 'second', 3, 5, o.FAL_VIDEO)],
    { fields: { duration: durations(5, 8), files: startFrame }, estimatedDurationMs: 60_000 },
  ),
  model(
    'minimax-video-01',
    'video',
    'MiniMax Video-01',
    'Hailuo Video-01, 6 s at 720p; an image in `files` becomes its first frame.',
    [offer('replicate', 'minimax/video-01', 'second', 8.5, 6, o.REPLICATE_MINIMAX_VIDEO)],
    { fields: { duration: durations(6), files: needsFiles(0, 1) }, estimatedDurationMs: 180_000 },
  ),
  model(
    'seedance-1-pro',
    'video',
    'Seedance 1 Pro',
    "ByteDance's Seedance 1 Pro, up to 1080p, text or first frame.",
    [offer('replicate', 'bytedance/seedance-1-pro', 'second', 6, 5, o.REPLICATE_SEEDANCE)],
    {
      fields: {
        duration: durations(5, 10),
        aspect_ratio: aspectRatios('16:9', '4:3', '1:1', '3:4', '9:16', '21:9', '9:21'),
        files: needsFiles(0, 1),
      },
      estimatedDurationMs: 120_000,
    },
  ),
  model(
    'sora-2',
    'video',
    'Sora 2',
    "OpenAI's Sora 2 with synchronised sound; an image in `files` is the first frame.",
    [offer('openai', 'sora-2', 'second', 10, 4, o.OPENAI_SORA)],
    {
      fields: {
        duration: durations(4, 8, 12),
        aspect_ratio: aspectRatios('16:9', '9:16'),
        files: needsFiles(0, 1),
      },
      estimatedDurationMs: 120_000,
      lifecycle: SORA_RETIRED,
    },
  ),
  model(
    'sora-2-pro',
    'video',
    'Sora 2 Pro',
    'Sora 2 at higher fidelity.',
    [offer('openai', 'sora-2-pro', 'second', 30, 4, o.OPENAI_SORA)],
    {
      fields: {
        duration: durations(4, 8, 12),
        aspect_ratio: aspectRatios('16:9', '9:16'),
        files: needsFiles(0, 1),
      },
      estimatedDurationMs: 300_000,
      lifecycle: SORA_RETIRED,
    },
  ),
  model(
    'sync-lipsync-2',
    'video',
    'Sync Lipsync 2.0',
    'Moves the lips in a video (files[0]) to match speech (files[1]).',
    [offer('fal', 'fal-ai/sync-lipsync/v2', 'second', 5, 10, o.FAL_LIPSYNC)],
    { fields: { files: needsFiles(2, 2) }, estimatedDurationMs: 120_000 },
  ),
  model(
    'omnihuman',
    'video',
    'OmniHuman (avatar)',
    'A talking avatar from a portrait (files[0]) and speech (files[1]).',
    [offer('fal', 'fal-ai/bytedance/omnihuman', 'second', 14, 10, o.fields({}))],
    { fields: { files: needsFiles(2, 2) }, estimatedDurationMs: 240_000 },
  ),
  model(
    'topaz-video-upscale',
    'video',
    'Topaz video upscale',
    'Topaz Labs video upscaling and frame interpolation of files[0].',
    [offer('fal', 'fal-ai/topaz/upscale/video', 'second', 8, 10, o.FAL_VIDEO_UPSCALE)],
    { fields: { files: needsFiles(1, 1) }, estimatedDurationMs: 180_000 },
  ),
];
