import { MediaType } from '../../../contract/files.ts';
import { baseMediaType } from './image-probe.ts';
import { sniffMediaType } from './sniff-media-type.ts';

/**
 * Passive types: a browser shows them and runs nothing in them, so they are served inline. Everything
 * else (HTML, SVG, XML, JavaScript, PDF, unknown bytes) is served as an attachment: files are served from
 * the console's own origin, where a document that runs script could read a session.
 */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/heic',
  'image/heif',
  'image/tiff',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/flac',
  'audio/mp4',
  'audio/webm',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'text/plain',
  'text/csv',
  'text/vtt',
  'text/markdown',
  'application/json',
  'application/x-subrip',
]);

export function servedInline(mediaType: string): boolean {
  return INLINE_TYPES.has(baseMediaType(mediaType));
}

/** Text types a client may name for bytes that are plain text: the bytes cannot tell CSV from prose. */
const TEXT_TYPES = new Set([
  'text/plain',
  'text/csv',
  'text/vtt',
  'text/markdown',
  'application/json',
  'application/x-subrip',
]);

/**
 * The type a received file is stored (and later served) as: what its first bytes show, never what the
 * client declared. The declared type only names which kind of plain text a text file is.
 */
export function storedMediaType(head: Buffer, declared: string | null | undefined): string {
  const detected = sniffMediaType(head);
  if (detected !== 'text/plain') return detected;
  const named = MediaType.safeParse(declared ?? '').data;
  const base = named ? baseMediaType(named) : '';
  if (!named || !TEXT_TYPES.has(base)) return detected;
  // The bytes were checked to be UTF-8, so that is the only charset a text file is stored with.
  return /;\s*charset=/i.test(named) ? `${base}; charset=utf-8` : base;
}
