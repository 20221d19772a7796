import sharp from 'sharp';

export const THUMBNAIL_MAX_EDGE = 256;

/** Raster types sharp reads. SVG is left out on purpose: it is a document, not pixels, and may be hostile. */
export const RASTER_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/tiff',
  'image/heif',
  'image/heic',
]);

export interface ImageFacts {
  width: number;
  height: number;
  /** WebP, at most 256 px on its long edge; null when it could not be made. */
  thumbnail: Buffer | null;
}

/**
 * Dimensions (as displayed, after EXIF orientation) and a thumbnail of a raster image. Null for other
 * types and for bytes sharp cannot read: a file is stored whether or not we can picture it.
 */
export async function probeImage(data: Buffer, mediaType: string): Promise<ImageFacts | null> {
  if (!RASTER_TYPES.has(baseMediaType(mediaType))) return null;
  let width: number;
  let height: number;
  try {
    const metadata = await sharp(data).metadata();
    width = metadata.autoOrient.width;
    height = metadata.autoOrient.height;
  } catch {
    return null;
  }
  if (!(width > 0 && height > 0)) return null;
  const thumbnail = await sharp(data, { autoOrient: true })
    .resize(THUMBNAIL_MAX_EDGE, THUMBNAIL_MAX_EDGE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer()
    .catch(() => null);
  return { width, height, thumbnail };
}

/** `image/PNG; charset=x` → `image/png`. */
export function baseMediaType(mediaType: string): string {
  return mediaType.split(';')[0]!.trim().toLowerCase();
}
