import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { FileArchive } from '../../../contract/files.ts';
import { createApiKey } from '../../domain/identity/api-keys.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

/* Many files as one zip (#29): each file checked against the team and its folder's visibility, twice. */

type Client = ReturnType<TestApp['clientFor']>;
let t: TestApp;
let owner: Client;
let member: Client;
let memberId: string;
let teamId: string;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
  owner = t.clientFor((await signUp(t)).api_key);
  teamId = (await owner.getMe({})).team.id;
  const me = await t.clientFor((await signUp(t)).api_key).getMe({});
  memberId = me.person!.id;
  await t.db.query('INSERT INTO memberships (team_id, person_id, role) VALUES ($1, $2, $3)', [
    teamId,
    memberId,
    'member',
  ]);
  const key = await createApiKey(t.db, t.services.keys.encryption, {
    teamId,
    personId: memberId,
    name: 'member',
    revealable: false,
  });
  member = t.clientFor(key.secret);
});
afterAll(() => t.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );
const upload = (client: Client, filename: string, text: string, workspace_id?: string) =>
  client.uploadFile({ body: { filename, data: Buffer.from(text).toString('base64'), workspace_id } });

/** The names a zip lists in its central directory (signature PK\1\2, name length at 28, name at 46). */
function zipNames(zip: Buffer): string[] {
  const names: string[] = [];
  for (let at = zip.indexOf('PK\x01\x02'); at >= 0; at = zip.indexOf('PK\x01\x02', at + 4)) {
    const length = zip.readUInt16LE(at + 28);
    names.push(zip.subarray(at + 46, at + 46 + length).toString('utf8'));
  }
  return names;
}

describe('POST /v2/files/archive and its link', () => {
  it('streams the files as one zip, names kept apart, its size known before the first byte', async () => {
    const a = await upload(owner, 'notes.txt', 'first notes');
    const b = await upload(owner, 'notes.txt', 'second notes');
    const c = await upload(owner, 'plan.txt', 'the plan');
    const archive = FileArchive.parse(
      await owner.createFileArchive({ body: { file_ids: [a.id, b.id, c.id], name: 'Campaign' } }),
    );
    expect(archive).toMatchObject({
      name: 'Campaign.zip',
      file_count: 3,
      size_bytes: 11 + 12 + 8,
      expires_in: 600,
    });
    // A plain link: no bearer, as a browser opens it.
    const response = await t.request(new URL(archive.url).pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="Campaign\.zip"/);
    const zip = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get('content-length'))).toBe(zip.length);
    expect(zipNames(zip)).toEqual(['notes.txt', 'notes (2).txt', 'plan.txt']);
    for (const text of ['first notes', 'second notes', 'the plan']) expect(zip.includes(text)).toBe(true);
  });

  it("refuses another team's file, and a file in a private folder hidden from the caller, like an unknown one", async () => {
    const stranger = t.clientFor((await signUp(t)).api_key);
    const theirs = await upload(stranger, 'theirs.txt', 'not yours');
    const secret = (await owner.createFolder({ body: { name: 'Owner only', visibility: 'private' } }))
      .workspace;
    const hidden = await upload(owner, 'hidden.txt', 'owner only', secret.id);
    const open = await upload(owner, 'open.txt', 'for everyone');
    for (const id of [theirs.id, hidden.id, 'file_nosuchfile00']) {
      const refused = await failure(member.createFileArchive({ body: { file_ids: [open.id, id] } }));
      expect(refused).toMatchObject({ status: 404, code: 'not_found', message: `No file ${id}.` });
    }
    // The owner sees the private folder: both files.
    const archive = await owner.createFileArchive({ body: { file_ids: [open.id, hidden.id] } });
    expect(archive.file_count).toBe(2);
  });

  it('checks again when the link is opened: a deleted file is left out, a person who left gets nothing', async () => {
    const kept = await upload(owner, 'kept.txt', 'still here');
    const gone = await upload(owner, 'gone.txt', 'deleted soon');
    const mine = await member.createFileArchive({ body: { file_ids: [kept.id, gone.id] } });
    await owner.deleteFile({ params: { id: gone.id } });
    const zip = Buffer.from(await (await t.request(new URL(mine.url).pathname)).arrayBuffer());
    expect(zipNames(zip)).toEqual(['kept.txt']);

    await t.db.query('DELETE FROM memberships WHERE team_id = $1 AND person_id = $2', [teamId, memberId]);
    expect((await t.request(new URL(mine.url).pathname)).status).toBe(404);
    const altered = mine.url.replace(/.$/, (ch) => (ch === 'A' ? 'B' : 'A'));
    expect((await t.request(new URL(altered).pathname)).status).toBe(403);
  });
});
