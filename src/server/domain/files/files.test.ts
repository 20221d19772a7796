import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRecord } from '../../../contract/files.ts';
import { OutputEntry } from '../../../contract/jobs.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { insertJob, insertTeam, solidPng } from './file-test-support.ts';
import { findFile, recordJobInputs, storeFile, toOutputEntry } from './files.ts';
import { readOwnFile } from './read-own-file.ts';

/** The team's owner as a folder viewer: sees every file of the team. */
const ownerOf = (team: string) => ({ teamId: team, personId: null, role: 'owner' as const });

let t: TestApp;
let dataDir: string;
let teamId: string;
let otherTeamId: string;
beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'mc-files-'));
  t = await createTestApp({ DATA_DIR: dataDir });
  teamId = await insertTeam(t.db);
  otherTeamId = await insertTeam(t.db);
});
afterAll(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

async function lineage(fileId: string) {
  const { rows } = await t.db.query<{ job_id: string; role: string }>(
    'SELECT job_id, role FROM file_lineage WHERE file_id = $1 ORDER BY role, job_id',
    [fileId],
  );
  return rows;
}

describe('storeFile', () => {
  it('stores an image: File record, dimensions, thumbnail, bytes on disk under DATA_DIR/blobs', async () => {
    const data = await solidPng(1200, 600);
    const file = await storeFile(t.services, {
      teamId,
      name: 'wide picture.png',
      mediaType: 'image/png',
      data,
      origin: 'upload',
    });
    FileRecord.parse(file);
    expect(file.id).toMatch(/^file_[a-z2-7]{24}$/);
    expect(file.url).toBe(`${TEST_PUBLIC_URL}/media/${file.id}/wide%20picture.png`);
    expect(file.thumbnail_url).toBe(`${TEST_PUBLIC_URL}/media/${file.id}/thumbnail.webp`);
    expect(file.size_bytes).toBe(data.length);
    expect(file.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(file.metadata).toEqual({ width: 1200, height: 600 });
    expect(file).toMatchObject({
      origin: 'upload',
      job_id: null,
      workspace_id: null,
      media_type: 'image/png',
    });

    const { rows } = await t.db.query<{ storage_key: string; thumbnail_key: string }>(
      'SELECT storage_key, thumbnail_key FROM files WHERE id = $1',
      [file.id],
    );
    const stored = await fs.readFile(path.join(dataDir, 'blobs', rows[0]!.storage_key));
    expect(stored.equals(data)).toBe(true);
    const thumbnail = await sharp(path.join(dataDir, 'blobs', rows[0]!.thumbnail_key)).metadata();
    expect([thumbnail.format, thumbnail.width, thumbnail.height]).toEqual(['webp', 256, 128]);
  });

  it('does not enlarge a small image for its thumbnail', async () => {
    const file = await storeFile(t.services, {
      teamId,
      name: 'tiny.png',
      mediaType: 'image/png',
      data: await solidPng(40, 20),
      origin: 'upload',
    });
    const own = await readOwnFile(t.services, file.thumbnail_url!);
    const meta = await sharp(own!.body).metadata();
    expect([meta.width, meta.height]).toEqual([40, 20]);
  });

  it('stores other bytes without dimensions or thumbnail, and keeps caller metadata', async () => {
    const file = await storeFile(t.services, {
      teamId,
      name: 'notes.txt',
      mediaType: 'text/plain; charset=utf-8',
      data: Buffer.from('hello'),
      origin: 'upload',
      metadata: { duration_seconds: 1.5, sample_rate: 44100 },
    });
    expect(file.thumbnail_url).toBeNull();
    expect(file.metadata).toEqual({ duration_seconds: 1.5, sample_rate: 44100 });
    expect(file.media_type).toBe('text/plain; charset=utf-8');
  });

  it('stores an image it cannot read as plain bytes', async () => {
    const file = await storeFile(t.services, {
      teamId,
      name: 'broken.png',
      mediaType: 'image/png',
      data: Buffer.from('not really a png'),
      origin: 'upload',
    });
    expect(file.thumbnail_url).toBeNull();
    expect(file.metadata).toEqual({});
  });

  it('falls back to application/octet-stream for a malformed media type', async () => {
    const file = await storeFile(t.services, {
      teamId,
      name: 'x.bin',
      mediaType: 'text/html\r\nx-evil: 1',
      data: Buffer.from('x'),
      origin: 'upload',
    });
    expect(file.media_type).toBe('application/octet-stream');
  });

  it('takes a given id (an upload session id) and refuses it twice without touching the first file', async () => {
    const id = `file_${'a'.repeat(24)}`;
    const first = await storeFile(t.services, {
      id,
      teamId,
      name: 'a.txt',
      mediaType: 'text/plain',
      data: Buffer.from('first'),
      origin: 'upload',
    });
    expect(first.id).toBe(id);
    await expect(
      storeFile(t.services, {
        id,
        teamId,
        name: 'b.txt',
        mediaType: 'text/plain',
        data: Buffer.from('second'),
        origin: 'upload',
      }),
    ).rejects.toThrow(/duplicate key/);
    expect((await readOwnFile(t.services, first.url))!.body.toString()).toBe('first');
    const blobs = await fs.readdir(path.join(dataDir, 'blobs', 'files'), { recursive: true });
    const count = (await t.db.query('SELECT count(*)::int AS n FROM files')).rows[0].n as number;
    // The second attempt's blob was removed again: one blob per file row.
    expect(blobs.filter((b) => b.includes(path.sep)).length).toBe(count);
  });

  it('records lineage: output of its job, inputs of that job', async () => {
    const source = await storeFile(t.services, {
      teamId,
      name: 'source.png',
      mediaType: 'image/png',
      data: await solidPng(64, 64),
      origin: 'upload',
    });
    const foreign = await storeFile(t.services, {
      teamId: otherTeamId,
      name: 'theirs.png',
      mediaType: 'image/png',
      data: await solidPng(8, 8),
      origin: 'upload',
    });
    const jobId = await insertJob(t.db, teamId);
    const output = await storeFile(t.services, {
      teamId,
      name: 'edited.png',
      mediaType: 'image/png',
      data: await solidPng(32, 32),
      origin: 'job',
      jobId,
      inputFileIds: [source.id, foreign.id, source.id],
    });
    expect(output).toMatchObject({ origin: 'job', job_id: jobId });
    expect(await lineage(output.id)).toEqual([{ job_id: jobId, role: 'output' }]);
    expect(await lineage(source.id)).toEqual([{ job_id: jobId, role: 'input' }]);
    // Lineage never crosses teams.
    expect(await lineage(foreign.id)).toEqual([]);
    // Recording the same inputs again adds nothing.
    expect(await recordJobInputs(t.db, teamId, jobId, [source.id])).toBe(0);
    // Another team's job gets no links to this team's files.
    const theirJob = await insertJob(t.db, otherTeamId);
    expect(await recordJobInputs(t.db, teamId, theirJob, [source.id])).toBe(0);
    expect(await recordJobInputs(t.db, otherTeamId, theirJob, [source.id])).toBe(0);
  });

  it('files into a folder of the team, and refuses another team’s folder', async () => {
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO workspaces (team_id, name, slug) VALUES ($1, 'Mine', 'mine'), ($2, 'Theirs', 'theirs') RETURNING id`,
      [teamId, otherTeamId],
    );
    const [mine, theirs] = rows.map((r) => r.id) as [string, string];
    const inFolder = await storeFile(t.services, {
      teamId,
      folderId: mine,
      name: 'f.txt',
      mediaType: 'text/plain',
      data: Buffer.from('f'),
      origin: 'upload',
    });
    expect(inFolder.workspace_id).toBe(mine);
    for (const folderId of [theirs, 'not-a-uuid']) {
      await expect(
        storeFile(t.services, {
          teamId,
          folderId,
          name: 'g.txt',
          mediaType: 'text/plain',
          data: Buffer.from('g'),
          origin: 'upload',
        }),
      ).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('refuses inconsistent origins, foreign jobs and bad names', async () => {
    const base = { teamId, mediaType: 'text/plain', data: Buffer.from('x'), name: 'x.txt' };
    const jobId = await insertJob(t.db, teamId);
    await expect(storeFile(t.services, { ...base, origin: 'job' })).rejects.toThrow(/origin job/);
    await expect(storeFile(t.services, { ...base, origin: 'upload', jobId })).rejects.toThrow(/origin job/);
    await expect(
      storeFile(t.services, { ...base, origin: 'upload', inputFileIds: ['file_x'] }),
    ).rejects.toThrow(/need a jobId/);
    const theirJob = await insertJob(t.db, otherTeamId);
    await expect(storeFile(t.services, { ...base, origin: 'job', jobId: theirJob })).rejects.toThrow(
      /not a job of team/,
    );
    for (const name of ['', 'a/b', 'a\\b', 'x'.repeat(256)]) {
      await expect(storeFile(t.services, { ...base, origin: 'upload', name })).rejects.toThrow(
        /bad file name/,
      );
    }
    await expect(storeFile(t.services, { ...base, origin: 'upload', id: 'file_../x' })).rejects.toThrow(
      /bad file id/,
    );
    // The same-bytes rule is for bytes someone brings to their own team; an output is always its own file.
    await expect(
      storeFile(t.services, { ...base, origin: 'job', jobId, sameBytesFor: ownerOf(teamId) }),
    ).rejects.toThrow(/not job outputs/);
    await expect(
      storeFile(t.services, { ...base, origin: 'upload', sameBytesFor: ownerOf(otherTeamId) }),
    ).rejects.toThrow(/not job outputs/);
  });
});

describe('findFile', () => {
  it('finds a file of the team only', async () => {
    const file = await storeFile(t.services, {
      teamId,
      name: 'mine.txt',
      mediaType: 'text/plain',
      data: Buffer.from('mine'),
      origin: 'upload',
    });
    expect((await findFile(t.db, ownerOf(teamId), file.id))?.name).toBe('mine.txt');
    expect(await findFile(t.db, ownerOf(otherTeamId), file.id)).toBeNull();
    expect(await findFile(t.db, ownerOf(teamId), 'file_doesnotexistatall0000')).toBeNull();
    expect(await findFile(t.db, ownerOf(teamId), 'nonsense')).toBeNull();
  });
});

describe('toOutputEntry', () => {
  it('makes an output entry of the spec (2.2)', async () => {
    const file = await storeFile(t.services, {
      teamId,
      name: 'o.png',
      mediaType: 'image/png',
      data: await solidPng(10, 10),
      origin: 'upload',
    });
    const entry = OutputEntry.parse(toOutputEntry(file));
    expect(entry).toEqual({
      url: file.url,
      file_id: file.id,
      media_type: 'image/png',
      size_bytes: file.size_bytes,
      thumbnail_url: file.thumbnail_url,
    });
  });
});

describe('readOwnFile', () => {
  it('reads our own URLs from storage and ignores everything else', async () => {
    const data = await solidPng(300, 300);
    const file = await storeFile(t.services, {
      teamId,
      name: 'thumbnail.webp',
      mediaType: 'image/png',
      data,
      origin: 'upload',
    });
    // A file named like the thumbnail keeps a URL of its own.
    expect(file.url).toBe(`${TEST_PUBLIC_URL}/media/${file.id}/thumbnail.webp?original`);
    const original = await readOwnFile(t.services, file.url);
    expect(original).toMatchObject({ contentType: 'image/png', fileId: file.id, name: 'thumbnail.webp' });
    expect(original!.body.equals(data)).toBe(true);
    const thumbnail = await readOwnFile(t.services, file.thumbnail_url!);
    expect(thumbnail!.contentType).toBe('image/webp');
    expect((await sharp(thumbnail!.body).metadata()).width).toBe(256);

    expect(await readOwnFile(t.services, `https://elsewhere.example/media/${file.id}/x.png`)).toBeNull();
    expect(
      await readOwnFile(t.services, `${TEST_PUBLIC_URL}/media/file_unknownunknownunknown00/x`),
    ).toBeNull();
  });
});
