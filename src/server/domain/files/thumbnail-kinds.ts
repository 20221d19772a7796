import { baseMediaType, RASTER_TYPES } from './image-probe.ts';

export type ThumbnailKind = 'image' | 'video' | 'audio';

/** What picture a file of this type gets: a scaled image, a poster frame, or a waveform; null for none. */
export function thumbnailKind(mediaType: string): ThumbnailKind | null {
  const type = baseMediaType(mediaType);
  if (RASTER_TYPES.has(type)) return 'image';
  if (type.startsWith('video/')) return 'video';
  if (type.startsWith('audio/')) return 'audio';
  return null;
}

/**
 * Whether the file has (or will have, on its first request) a thumbnail. Thumbnails are made once, when
 * first asked for, and kept; a file whose bytes gave none is marked and gets no thumbnail URL.
 */
export function hasThumbnail(file: {
  thumbnailKey: string | null;
  thumbnailFailed: boolean;
  mediaType: string;
  deletedAt: Date | null;
}): boolean {
  if (file.deletedAt) return false;
  if (file.thumbnailKey) return true;
  return !file.thumbnailFailed && thumbnailKind(file.mediaType) !== null;
}
