import { z } from 'zod';
import { IMAGE_STYLES, imageStylePresetId } from '../../presets/image-styles.ts';
import { EditOperations } from './image-edit-operations.ts';

/*
 * `provider_options.local` of each local model: what its engine reads. The catalog publishes these as
 * JSON Schema (GET /v2/tools/{key}?model=) and requests are validated against them before a job is made.
 */

const Seed = z.int().min(0).max(4_294_967_295).meta({ description: 'Same seed, same result.' });

/** What a local sketch or upscale can be written as (a sketch: PNG, lossless, unless the request names another). */
export const SKETCH_FORMATS = ['png', 'webp', 'avif', 'jpeg'] as const;
export type SketchFormat = (typeof SKETCH_FORMATS)[number];

export const SketchOptions = z.strictObject({
  seed: Seed.optional(),
  // Each choice titled with the style's name, so a generated form lists names rather than ids.
  style: z
    .union(
      IMAGE_STYLES.map((style) => z.literal(imageStylePresetId(style.slug)).meta({ title: style.name })) as [
        z.ZodLiteral<string>,
        z.ZodLiteral<string>,
        ...z.ZodLiteral<string>[],
      ],
    )
    .optional()
    .meta({
      description: 'An image style preset id (GET /v2/presets?type=style): palette, shapes and finish.',
    }),
  output_format: z.enum(SKETCH_FORMATS).optional().meta({
    description:
      'Default png (lossless). webp, avif and jpeg are lossy and a small fraction of the bytes; avif is the smallest and the slowest to write.',
  }),
});

export const EditOptions = z.strictObject({
  operations: EditOperations.meta({
    description: 'Applied in order to files[0], for example [{"op":"grayscale"}].',
  }),
});

const Factor = z
  .union([z.literal(2), z.literal(4)])
  .optional()
  .meta({ description: '2 (default) or 4.' });

export const UpscaleOptions = z.strictObject({
  factor: Factor,
  output_format: z.enum(SKETCH_FORMATS).optional().meta({
    description:
      "Default: the input's format (PNG for formats other than PNG, JPEG and WebP). webp, avif and jpeg are lossy and far smaller than PNG.",
  }),
});

export const MOTION_KINDS = ['zoom-in', 'zoom-out', 'pan-left', 'pan-right'] as const;

/** local-motion and local-motion-i2v: a scene that moves (or a start frame), under a camera move. */
export const MotionOptions = z.strictObject({
  seed: Seed.optional(),
  motion: z.enum(MOTION_KINDS).optional().meta({ description: 'Camera move; default zoom-in.' }),
  fps: z.int().min(10).max(30).optional().meta({ description: 'Frames per second; default 24.' }),
});

export const VideoUpscaleOptions = z.strictObject({ factor: Factor });

export const VideoTrimOptions = z
  .strictObject({
    start: z.number().min(0).meta({ description: 'Seconds from the start of files[0].' }),
    end: z.number().positive().optional().meta({ description: 'Seconds; default: the end of the video.' }),
  })
  .refine((o) => o.end === undefined || o.end > o.start, { message: 'end must be after start' });

export const VideoConcatOptions = z.strictObject({});

/** local-audio-replace: the soundtrack of files[0] (video) replaced by files[1] (audio). */
export const AudioReplaceOptions = z.strictObject({
  length: z
    .enum(['video', 'audio', 'shortest'])
    .optional()
    .meta({ description: 'Which input sets the output length; default video (the audio is looped or cut).' }),
});

export const SpeechOptions = z.strictObject({
  rate: z.number().min(0.5).max(2).optional().meta({ description: 'Speaking rate; 1 is normal.' }),
});

export const EspeakOptions = z.strictObject({
  rate: z.number().min(0.5).max(2).optional().meta({ description: 'Speaking rate; 1 is normal.' }),
  pitch: z.int().min(0).max(99).optional().meta({ description: 'Base pitch, 0 to 99; default 50.' }),
});

export const MusicOptions = z.strictObject({
  seed: Seed.optional(),
  tempo: z
    .int()
    .min(40)
    .max(220)
    .optional()
    .meta({ description: 'Beats per minute; default from the prompt.' }),
  format: z.enum(['mp3', 'wav']).optional().meta({ description: 'Default mp3.' }),
});

export const NoOptions = z.strictObject({});
