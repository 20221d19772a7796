import { FileId } from '../../../contract/files.ts';

/** The last path segment of a thumbnail URL. */
export const THUMBNAIL_NAME = 'thumbnail.webp';

/**
 * `{PUBLIC_URL}/media/<file_id>/<name>`: public, no credential (the unguessable id is the capability).
 * The name segment is cosmetic: the file is served by id, so a URL handed out before a rename keeps
 * working. Two names cannot be a path segment and get a stand-in: `.` and `..` (URL parsers collapse
 * them), and `thumbnail.webp`, which would be the thumbnail's URL, gets `?original`.
 */
export function mediaUrl(publicUrl: string, fileId: string, name: string): string {
  const segment = name === '.' || name === '..' ? 'file' : encodeURIComponent(name);
  return `${publicUrl}/media/${fileId}/${segment}${name === THUMBNAIL_NAME ? '?original' : ''}`;
}

export function thumbnailUrl(publicUrl: string, fileId: string): string {
  return `${publicUrl}/media/${fileId}/${THUMBNAIL_NAME}`;
}

export interface MediaRef {
  fileId: string;
  /** The URL names the thumbnail rather than the file itself. */
  thumbnail: boolean;
}

/** Which variant a media path asks for, from its name segment and whether `?original` is present. */
export function wantsThumbnail(nameSegment: string, original: boolean): boolean {
  return nameSegment === THUMBNAIL_NAME && !original;
}

/** Reads one of our own media URLs (as mediaUrl and thumbnailUrl make them); null for any other URL. */
export function parseMediaUrl(publicUrl: string, url: string): MediaRef | null {
  let parsed: URL;
  let base: URL;
  try {
    parsed = new URL(url);
    base = new URL(publicUrl);
  } catch {
    return null;
  }
  if (parsed.origin !== base.origin || parsed.username !== '' || parsed.password !== '') return null;
  const prefix = `${base.pathname.replace(/\/+$/, '')}/media/`;
  if (!parsed.pathname.startsWith(prefix)) return null;
  const segments = parsed.pathname.slice(prefix.length).split('/');
  if (segments.length !== 2) return null;
  const [fileId, encodedName] = segments as [string, string];
  let name: string;
  try {
    name = decodeURIComponent(encodedName);
  } catch {
    return null;
  }
  if (!FileId.safeParse(fileId).success || name === '') return null;
  return { fileId, thumbnail: wantsThumbnail(name, parsed.searchParams.has('original')) };
}

/** The file id of one of our own media URLs, so a job can read the bytes from storage, not the network. */
export function fileIdFromPublicUrl(publicUrl: string, url: string): string | null {
  return parseMediaUrl(publicUrl, url)?.fileId ?? null;
}
