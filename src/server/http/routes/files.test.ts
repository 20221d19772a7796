import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { FilePage, FileRecord, UploadSession } from '../../../contract/files.ts';
import { insertJob } from '../../domain/files/file-test-support.ts';
import { storeFile } from '../../domain/files/files.ts';
import { createTestApp, signUp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;
let png: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  client = t.clientFor((await signUp(t)).api_key);
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#cc3333' } })
    .png()
    .toBuffer();
});
afterAll(() => t.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

describe('POST /v2/files (small direct upload) and GET /v2/files/{id}', () => {
  it('stores the bytes, detects their type, and serves them at the file URL', async () => {
    const file = FileRecord.parse(
      await client.uploadFile({ body: { filename: 'red.png', data: png.toString('base64') } }),
    );
    expect(file).toMatchObject({
      name: 'red.png',
      media_type: 'image/png',
      size_bytes: png.length,
      origin: 'upload',
    });
    expect(file.url.startsWith(`${TEST_PUBLIC_URL}/media/`)).toBe(true);
    const served = await t.request(new URL(file.url).pathname);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    expect(await client.getFile({ params: { id: file.id } })).toEqual(file);

    // An uploaded file is an input like any other.
    const job = await client.createImage({
      body: {
        model: 'local-upscale',
        files: [{ url: file.url }],
        provider_options: { local: { factor: 2 } },
      },
    });
    const done = await waitForTerminal(client, job.id);
    expect(done.status).toBe('completed');
  });

  it("answers another team's file like a missing one, and refuses what it cannot take", async () => {
    const file = await client.uploadFile({ body: { filename: 'mine.png', data: png.toString('base64') } });
    const stranger = t.clientFor((await signUp(t)).api_key);
    expect(await failure(stranger.getFile({ params: { id: file.id } }))).toMatchObject({ status: 404 });
    const tooBig = Buffer.alloc(512 * 1024 + 1).toString('base64');
    expect(await failure(client.uploadFile({ body: { filename: 'big.bin', data: tooBig } }))).toMatchObject({
      status: 422,
    });
    expect(
      await failure(
        client.uploadFile({
          body: { filename: 'x.png', data: png.toString('base64') },
          headers: { 'x-workspace-id': 'nope' },
        }),
      ),
    ).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('POST /v2/files with bytes the team already has (one rule with the upload sessions)', () => {
  /** A team of its own (the rule is per team), a folder in it, and a PNG no other test sends. */
  async function freshTeam() {
    const own = t.clientFor((await signUp(t)).api_key);
    const folder = await own.createFolder({ body: { name: 'Campaign' } });
    const bytes = await sharp({ create: { width: 12, height: 9, channels: 3, background: '#12ab34' } })
      .png()
      .toBuffer();
    return { own, folder: folder.workspace, data: bytes.toString('base64'), bytes };
  }

  const ids = (page: { data: Array<{ id: string }> }) => page.data.map((f) => f.id);
  const storedRows = async (fileId: string) =>
    (
      await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM files WHERE team_id = (SELECT team_id FROM files WHERE id = $1)',
        [fileId],
      )
    ).rows[0]!.n;

  it('answers the file already stored, and stores nothing more', async () => {
    const { own, data } = await freshTeam();
    const first = FileRecord.parse(await own.uploadFile({ body: { filename: 'logo.png', data } }));
    const again = FileRecord.parse(await own.uploadFile({ body: { filename: 'logo-copy.png', data } }));
    expect(again).toEqual(first);
    expect(await storedRows(first.id)).toBe(1);
    expect(ids(await own.listFiles({}))).toEqual([first.id]);
  });

  it('stores one file when the same bytes arrive in several requests at once', async () => {
    const { own, data } = await freshTeam();
    // Every request may have written its copy before it saw another's row: all but the file's are removed.
    const put = vi.spyOn(t.services.blobs, 'put');
    const deleted = vi.spyOn(t.services.blobs, 'delete');
    let answers: FileRecord[];
    let putKeys: string[];
    let deletedKeys: string[];
    try {
      answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => own.uploadFile({ body: { filename: `logo-${i}.png`, data } })),
      );
      putKeys = put.mock.calls.map(([key]) => key);
      deletedKeys = deleted.mock.calls.map(([key]) => key);
    } finally {
      put.mockRestore();
      deleted.mockRestore();
    }
    expect(new Set(answers.map((file) => file.id)).size).toBe(1);
    expect(await storedRows(answers[0]!.id)).toBe(1);
    const kept = putKeys.filter((key) => !deletedKeys.includes(key));
    const { rows } = await t.db.query<{ storage_key: string; thumbnail_key: string | null }>(
      'SELECT storage_key, thumbnail_key FROM files WHERE id = $1',
      [answers[0]!.id],
    );
    expect(kept.sort()).toEqual([rows[0]!.storage_key, rows[0]!.thumbnail_key].filter(Boolean).sort());
  });

  it('answers it the same way as the session path does for the same bytes', async () => {
    const { own, data, bytes } = await freshTeam();
    const first = FileRecord.parse(await own.uploadFile({ body: { filename: 'logo.png', data } }));
    const hash = createHash('sha256').update(bytes).digest('hex');
    const session = UploadSession.parse(
      await own.createUploadSession({ body: { hash, size: bytes.length } }),
    );
    expect(session).toMatchObject({ deduplicated: true, file_id: first.id, file: first });
  });

  it('leaves the file where it is when the upload names a folder; the answer says where it is', async () => {
    const { own, folder, data } = await freshTeam();
    const loose = FileRecord.parse(await own.uploadFile({ body: { filename: 'logo.png', data } }));
    const into = FileRecord.parse(
      await own.uploadFile({
        body: { filename: 'logo.png', data },
        headers: { 'x-workspace-id': folder.slug },
      }),
    );
    expect(into).toEqual(loose);
    expect(into.workspace_id).toBeNull();
    expect(ids(await own.listFiles({ query: { folder: folder.id } }))).toEqual([]);
    // Moving it there is the caller's choice (the console offers it), with the link it was given.
    const moved = await own.updateFile({ params: { id: into.id }, body: { workspace_id: folder.id } });
    expect(moved.workspace_id).toBe(folder.id);
  });
});

describe('GET /v2/files (the Files picker)', () => {
  /** A new team with: two uploads (one in a folder), a text file, and an output of a job. */
  async function teamWithFiles() {
    const own = t.clientFor((await signUp(t)).api_key);
    const data = png.toString('base64');
    const cat = await own.uploadFile({ body: { filename: 'Cat 100%.png', data } });
    const { rows } = await t.db.query<{ team_id: string }>('SELECT team_id FROM files WHERE id = $1', [
      cat.id,
    ]);
    const teamId = rows[0]!.team_id;
    const folder = await t.db.query<{ id: string }>(
      `INSERT INTO workspaces (team_id, name, slug) VALUES ($1, 'Shoot', 'shoot') RETURNING id`,
      [teamId],
    );
    const folderId = folder.rows[0]!.id;
    // Other bytes than the cat's: the same bytes would be answered with the cat (same-bytes.ts).
    const dogBytes = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3333cc' } })
      .png()
      .toBuffer();
    const dog = await own.uploadFile({
      body: { filename: 'dog.png', data: dogBytes.toString('base64') },
      headers: { 'x-workspace-id': folderId },
    });
    const notes = await own.uploadFile({
      body: {
        filename: 'notes.txt',
        data: Buffer.from('hello').toString('base64'),
        media_type: 'text/plain',
      },
    });
    const jobId = await insertJob(t.db, teamId);
    const output = await storeFile(t.services, {
      teamId,
      name: 'edited.png',
      mediaType: 'image/png',
      data: png,
      origin: 'job',
      jobId,
    });
    return { own, cat, dog, notes, output, folderId, jobId };
  }

  const ids = (page: { data: Array<{ id: string }> }) => page.data.map((f) => f.id);

  it('pages through the files, newest first, with an opaque cursor', async () => {
    const { own, cat, dog, notes, output } = await teamWithFiles();
    const first = FilePage.parse(await own.listFiles({ query: { limit: 3 } }));
    expect(ids(first)).toEqual([output.id, notes.id, dog.id]);
    expect(first.next_cursor).toEqual(expect.any(String));
    expect(first.data[0]).toEqual(await own.getFile({ params: { id: output.id } }));
    const second = FilePage.parse(await own.listFiles({ query: { limit: 3, cursor: first.next_cursor! } }));
    expect(ids(second)).toEqual([cat.id]);
    expect(second.next_cursor).toBeNull();
    const all = FilePage.parse(await own.listFiles({ query: {} }));
    expect(ids(all)).toEqual([output.id, notes.id, dog.id, cat.id]);
    expect(all.next_cursor).toBeNull();
  });

  it('filters by folder, media type, origin, job and name', async () => {
    const { own, cat, dog, notes, output, folderId, jobId } = await teamWithFiles();
    const list = async (query: Record<string, string>) =>
      ids(FilePage.parse(await own.listFiles({ query: query as never })));
    expect(await list({ folder: folderId })).toEqual([dog.id]);
    expect(await list({ folder: 'none' })).toEqual([output.id, notes.id, cat.id]);
    expect(await list({ media_type: 'image/*' })).toEqual([output.id, dog.id, cat.id]);
    expect(await list({ media_type: 'text/plain' })).toEqual([notes.id]);
    expect(await list({ media_type: 'video/*,TEXT/PLAIN' })).toEqual([notes.id]);
    expect(await list({ media_type: 'audio/*' })).toEqual([]);
    expect(await list({ origin: 'job' })).toEqual([output.id]);
    expect(await list({ origin: 'upload,import' })).toEqual([notes.id, dog.id, cat.id]);
    expect(await list({ job: jobId })).toEqual([output.id]);
    expect(await list({ q: 'DOG' })).toEqual([dog.id]);
    // The name text is taken literally: % and _ are not wildcards.
    expect(await list({ q: '100%' })).toEqual([cat.id]);
    expect(await list({ q: '_' })).toEqual([]);
    expect(await list({ q: 'png', media_type: 'image/*', origin: 'upload' })).toEqual([dog.id, cat.id]);
  });

  it("never lists another team's files, and refuses a bad cursor or filter", async () => {
    const { own, cat } = await teamWithFiles();
    const stranger = t.clientFor((await signUp(t)).api_key);
    const theirs = FilePage.parse(await stranger.listFiles({ query: {} }));
    expect(theirs).toEqual({ data: [], next_cursor: null });
    await stranger.uploadFile({ body: { filename: 'cat.png', data: png.toString('base64') } });
    const strangers = FilePage.parse(await stranger.listFiles({ query: { q: 'cat' } }));
    expect(strangers.data).toHaveLength(1);
    expect(ids(strangers)).not.toContain(cat.id);
    expect(ids(FilePage.parse(await own.listFiles({ query: { q: 'cat' } })))).toEqual([cat.id]);

    const bad = await failure(own.listFiles({ query: { cursor: 'not-a-cursor' } }));
    expect(bad).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(JSON.stringify(bad?.details)).toContain('query.cursor');
    expect(await failure(own.listFiles({ query: { media_type: 'image' } }))).toMatchObject({ status: 422 });
    expect(await failure(own.listFiles({ query: { folder: 'nope' } }))).toMatchObject({ status: 422 });
    const anonymous = await t.request('/v2/files');
    expect(anonymous.status).toBe(401);
  });
});
