import { describe, expect, it } from 'vitest';
import { isBlobKey } from '../../storage/blob-store.ts';
import { newBlobKey, newFileId, randomBase32 } from './file-ids.ts';
import { fileIdFromPublicUrl, mediaUrl, parseMediaUrl, thumbnailUrl } from './media-urls.ts';

const BASE = 'https://media.example.com';
const ID = 'file_abcdefghijklmnopqrstuvwx';

describe('file ids and blob keys', () => {
  it('makes file_ and 24 base32 characters, different every time', () => {
    const ids = new Set(Array.from({ length: 1000 }, newFileId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^file_[a-z2-7]{24}$/);
  });

  it('uses the whole base32 alphabet', () => {
    const seen = new Set(randomBase32(5000));
    expect(seen.size).toBe(32);
  });

  it('makes blob keys the stores accept', () => {
    expect(newBlobKey('files')).toMatch(/^files\/([a-z2-7]{2})\/\1[a-z2-7]{24}$/);
    expect(newBlobKey('thumbnails', '.webp')).toMatch(/^thumbnails\/[a-z2-7]{2}\/[a-z2-7]{26}\.webp$/);
    expect(isBlobKey(newBlobKey('files'))).toBe(true);
  });
});

describe('media URLs', () => {
  it('puts the encoded name after the id', () => {
    expect(mediaUrl(BASE, ID, 'sunset.png')).toBe(`${BASE}/media/${ID}/sunset.png`);
    expect(mediaUrl(BASE, ID, 'my photo #1?.png')).toBe(`${BASE}/media/${ID}/my%20photo%20%231%3F.png`);
    expect(mediaUrl(BASE, ID, 'été.jpg')).toBe(`${BASE}/media/${ID}/%C3%A9t%C3%A9.jpg`);
    expect(thumbnailUrl(BASE, ID)).toBe(`${BASE}/media/${ID}/thumbnail.webp`);
  });

  it('never makes a dot segment or the thumbnail URL for the file itself', () => {
    expect(mediaUrl(BASE, ID, '..')).toBe(`${BASE}/media/${ID}/file`);
    expect(mediaUrl(BASE, ID, '.')).toBe(`${BASE}/media/${ID}/file`);
    expect(new URL(mediaUrl(BASE, ID, '..')).pathname).toBe(`/media/${ID}/file`);
    expect(mediaUrl(BASE, ID, 'thumbnail.webp')).toBe(`${BASE}/media/${ID}/thumbnail.webp?original`);
  });

  it('reads back what it makes', () => {
    for (const name of ['a.png', 'my photo #1?.png', 'été.jpg', '..', 'thumbnail.webp', '50%.txt']) {
      expect(parseMediaUrl(BASE, mediaUrl(BASE, ID, name)), name).toEqual({ fileId: ID, thumbnail: false });
    }
    expect(parseMediaUrl(BASE, thumbnailUrl(BASE, ID))).toEqual({ fileId: ID, thumbnail: true });
    expect(fileIdFromPublicUrl(BASE, mediaUrl(BASE, ID, 'a.png'))).toBe(ID);
  });

  it('honours a PUBLIC_URL with a path', () => {
    const base = 'https://example.com/console';
    expect(fileIdFromPublicUrl(base, mediaUrl(base, ID, 'a.png'))).toBe(ID);
    expect(fileIdFromPublicUrl(base, `https://example.com/media/${ID}/a.png`)).toBeNull();
  });

  it.each([
    `https://other.example.com/media/${ID}/a.png`,
    `http://media.example.com/media/${ID}/a.png`,
    `https://media.example.com:8443/media/${ID}/a.png`,
    `https://user:pw@media.example.com/media/${ID}/a.png`,
    `${BASE}/media/${ID}`,
    `${BASE}/media/${ID}/`,
    `${BASE}/media/${ID}/a/b.png`,
    `${BASE}/media/job_123/a.png`,
    `${BASE}/media/file_x%2F..%2Fy/a.png`,
    `${BASE}/v2/files/${ID}`,
    `${BASE}/media/${ID}/%E0%A4%A.png`,
    'not a url',
    '',
  ])('is not one of ours: %s', (url) => {
    expect(fileIdFromPublicUrl(BASE, url)).toBeNull();
  });
});
