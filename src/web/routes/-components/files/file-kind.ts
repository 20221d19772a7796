import type { FileRecord } from '../../../../contract/files.ts';

export type MediaFamily = 'image' | 'video' | 'audio' | 'other';

export function familyOf(mediaType: string): MediaFamily {
  const family = mediaType.split('/')[0];
  return family === 'image' || family === 'video' || family === 'audio' ? family : 'other';
}

export const ORIGIN_LABELS: Record<FileRecord['origin'], string> = {
  upload: 'Uploaded',
  import: 'Imported',
  job: 'Generated',
};
