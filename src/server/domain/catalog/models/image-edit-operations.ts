import { z } from 'zod';

/*
 * The steps of local-edit, as its options schema publishes them: catalog data, so it lives in domain; the
 * image engine that applies them imports it from here.
 */

/** No side of an edited or upscaled image may exceed this (an RGBA 8192² frame is already 256 MB raw). */
export const MAX_OUTPUT_EDGE = 8192;

const Side = z.int().min(1).max(MAX_OUTPUT_EDGE);

/** One edit step; `edit` applies them in the order given. */
export const EditOperation = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('resize'),
    width: Side.optional(),
    height: Side.optional(),
    fit: z.enum(['cover', 'contain', 'fill', 'inside', 'outside']).default('cover'),
  }),
  z.object({
    op: z.literal('crop'),
    left: z.int().min(0),
    top: z.int().min(0),
    width: Side,
    height: Side,
  }),
  z.object({ op: z.literal('rotate'), degrees: z.number().min(-360).max(360) }),
  z.object({
    op: z.literal('format'),
    to: z.enum(['png', 'jpeg', 'webp', 'avif']),
    quality: z.int().min(1).max(100).optional(),
  }),
  z.object({ op: z.literal('grayscale') }),
  z.object({ op: z.literal('blur'), sigma: z.number().min(0.3).max(100).default(3) }),
  z.object({
    op: z.literal('tint'),
    color: z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: 'must be #rrggbb' }),
  }),
]);
export type EditOperation = z.input<typeof EditOperation>;
export const EditOperations = z.array(EditOperation).min(1).max(20);
