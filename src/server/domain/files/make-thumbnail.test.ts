import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestMedia, type TestMedia } from '../../providers/local/ffmpeg-test-media.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { insertTeam } from './file-test-support.ts';
import { findFile, storeFile } from './files.ts';

/** The team's owner as a folder viewer: sees every file of the team. */
const ownerOf = (team: string) => ({ teamId: team, personId: null, role: 'owner' as const });

let t: TestApp;
let dir: string;
let media: TestMedia;
let teamId: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-thumbs-'));
  [t, media] = await Promise.all([
    createTestApp({ DATA_DIR: path.join(dir, 'data') }, { work: false }),
    makeTestMedia(dir),
  ]);
  teamId = await insertTeam(t.db);
});
afterAll(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

async function thumbnailOf(name: string, mediaType: string, file: string) {
  const record = await storeFile(t.services, {
    teamId,
    name,
    mediaType,
    data: await fs.readFile(file),
    origin: 'upload',
  });
  expect(record.thumbnail_url).toBe(`${record.url.slice(0, record.url.lastIndexOf('/'))}/thumbnail.webp`);
  const response = await t.request(new URL(record.thumbnail_url!).pathname);
  return { record, response };
}

describe('thumbnails made on first request', () => {
  it('gives a video a poster frame, made once and kept', async () => {
    const { record, response } = await thumbnailOf('clip.mp4', 'video/mp4', media.clip);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    const picture = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(picture.format).toBe('webp');
    expect(Math.max(picture.width, picture.height)).toBeLessThanOrEqual(256);
    expect(picture.width / picture.height).toBeCloseTo(320 / 240, 1);
    const stored = await findFile(t.db, ownerOf(teamId), record.id);
    expect(stored?.thumbnailKey).toMatch(/^thumbnails\//);
    // A second request serves the kept picture.
    const again = await t.request(new URL(record.thumbnail_url!).pathname);
    expect((await findFile(t.db, ownerOf(teamId), record.id))?.thumbnailKey).toBe(stored?.thumbnailKey);
    expect(again.status).toBe(200);
  });

  it('gives audio a waveform picture', async () => {
    const { response } = await thumbnailOf('tone.wav', 'audio/wav', media.wav);
    expect(response.status).toBe(200);
    const picture = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(picture.width).toBeGreaterThan(picture.height);
  });

  it('marks bytes that give no picture, and then offers no thumbnail', async () => {
    const { record, response } = await thumbnailOf('garbage.mp4', 'video/mp4', media.garbage);
    expect(response.status).toBe(404);
    const stored = await findFile(t.db, ownerOf(teamId), record.id);
    expect(stored?.thumbnailFailed).toBe(true);
    const listed = await t.db.query('SELECT thumbnail_key FROM files WHERE id = $1', [record.id]);
    expect(listed.rows[0].thumbnail_key).toBeNull();
  });
});
