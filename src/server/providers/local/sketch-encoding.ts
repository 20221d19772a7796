import type { Sharp } from 'sharp';
import type { SketchFormat } from '../../domain/catalog/models/local-options.ts';

/*
 * How a rendered sketch is written. Settings chosen by bench/image-encoding.ts on 1024×1024 sketches:
 * - Every format drops the alpha channel: the background covers the whole canvas, so alpha is a quarter
 *   of the pixels for nothing (PNG: smaller and faster, pixels unchanged).
 * - PNG stays lossless, with zlib at level 4 instead of 6 and no adaptive row filtering: adaptive
 *   filtering saves ~10% of the bytes of these gradients for 2-4 times the encoding time, and level 6
 *   saves ~4% for about half as much time again. A palette (libimagequant) would be a third of the bytes
 *   but costs several times the whole job and bands the gradients.
 * - WebP, AVIF and JPEG are lossy at settings where the drawing stays visually the same (PSNR ~44-47 dB
 *   against the lossless pixels) at a few percent of the PNG's bytes for those gradient sketches (about a
 *   third for today's flat composed scenes); effort kept low because a sketch job is CPU-bound work in
 *   the queue.
 */

export const SKETCH_MEDIA_TYPES = {
  png: 'image/png',
  webp: 'image/webp',
  avif: 'image/avif',
  jpeg: 'image/jpeg',
} as const satisfies Record<SketchFormat, string>;

export type SketchMediaType = (typeof SKETCH_MEDIA_TYPES)[SketchFormat];

export const SKETCH_EXTENSIONS: Record<SketchFormat, string> = {
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  jpeg: 'jpg',
};

/** The encoder of `format` applied to a rendered (opaque) sketch. */
export function encodeSketch(image: Sharp, format: SketchFormat): Sharp {
  const opaque = image.removeAlpha();
  switch (format) {
    case 'png':
      return opaque.png({ compressionLevel: 4, adaptiveFiltering: false });
    case 'webp':
      return opaque.webp({ quality: 90, effort: 2 });
    case 'avif':
      return opaque.avif({ quality: 60, effort: 0 });
    case 'jpeg':
      return opaque.jpeg({ quality: 90 });
  }
}
