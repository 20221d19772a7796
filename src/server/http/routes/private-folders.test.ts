import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import type { Folder } from '../../../contract/folders.ts';
import { createApiKey } from '../../domain/identity/api-keys.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

type Client = ReturnType<TestApp['clientFor']>;

let t: TestApp;
let owner: Client;
let member: Client;
let manager: Client;
let stranger: Client;
let hidden: Folder;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '1000' }, { work: false });
  owner = t.clientFor((await signUp(t)).api_key);
  const teamId = (await owner.getMe({})).team.id;
  member = await joined(teamId, 'member');
  manager = await joined(teamId, 'manager');
  stranger = t.clientFor((await signUp(t)).api_key);
  hidden = (await owner.createFolder({ body: { name: 'Owner only', visibility: 'private' } })).workspace;
});
afterAll(() => t.close());

/** A new person added to the team with `role`, calling with a key of that team bound to them. */
async function joined(teamId: string, role: 'member' | 'manager'): Promise<Client> {
  const me = await t.clientFor((await signUp(t)).api_key).getMe({});
  await t.db.query('INSERT INTO memberships (team_id, person_id, role) VALUES ($1, $2, $3)', [
    teamId,
    me.person!.id,
    role,
  ]);
  const key = await createApiKey(t.db, t.services.keys.encryption, {
    teamId,
    personId: me.person!.id,
    name: role,
    revealable: false,
  });
  return t.clientFor(key.secret);
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );
const data = Buffer.from('bytes').toString('base64');
const notFound = { status: 404, code: 'not_found' };

describe("another member's private folder", () => {
  it('cannot be filed into by a plain member, by id or slug, exactly like an unknown folder', async () => {
    for (const ref of [hidden.id, hidden.slug]) {
      const headers = { 'x-workspace-id': ref };
      expect(
        await failure(member.createImage({ body: { model: 'local-sketch', prompt: 'x' }, headers })),
      ).toMatchObject(notFound);
      expect(
        await failure(member.uploadFile({ body: { filename: 'a.txt', data, workspace_id: ref } })),
      ).toMatchObject(notFound);
      expect(await failure(member.createUploadSession({ body: {}, headers }))).toMatchObject(notFound);
      const theirs = await stranger.uploadFile({ body: { filename: 'shared.txt', data } });
      expect(
        await failure(member.importFile({ body: { url: theirs.url, workspace_id: ref } })),
      ).toMatchObject(notFound);
      const mine = await member.uploadFile({ body: { filename: 'mine.txt', data } });
      expect(
        await failure(member.updateFile({ params: { id: mine.id }, body: { workspace_id: ref } })),
      ).toMatchObject(notFound);
      expect((await member.getFile({ params: { id: mine.id } })).workspace_id).toBeNull();
    }
    // The same answer as a folder that does not exist: nothing tells the private one is there.
    const unknown = await failure(
      member.createUploadSession({ body: {}, headers: { 'x-workspace-id': 'no-such-folder' } }),
    );
    const hiddenOne = await failure(
      member.createUploadSession({ body: {}, headers: { 'x-workspace-id': hidden.slug } }),
    );
    expect(hiddenOne?.message.replace(hidden.slug, 'X')).toBe(
      unknown?.message.replace('no-such-folder', 'X'),
    );
    const { rows } = await t.db.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM files WHERE folder_id = $1)::int
            + (SELECT count(*) FROM jobs WHERE folder_id = $1)::int AS n`,
      [hidden.id],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('is filed into by its creator and by a manager', async () => {
    for (const [who, label] of [
      [owner, 'owner'],
      [manager, 'manager'],
    ] as const) {
      // Bytes of each step's own: the same bytes again would be answered with the file that has them.
      const data = (step: string) => Buffer.from(`${label} ${step}`).toString('base64');
      const headers = { 'x-workspace-id': hidden.slug };
      const job = await who.createImage({ body: { model: 'local-sketch', prompt: 'x' }, headers });
      expect(job.folder_id).toBe(hidden.id);
      const uploaded = await who.uploadFile({
        body: { filename: 'a.txt', data: data('upload'), workspace_id: hidden.id },
      });
      expect(uploaded.workspace_id).toBe(hidden.id);
      expect((await who.createUploadSession({ body: {}, headers })).session_id).toBeTruthy();
      const theirs = await stranger.uploadFile({ body: { filename: 'shared.txt', data: data('import') } });
      const copy = await who.importFile({ body: { url: theirs.url }, headers });
      expect(copy.workspace_id).toBe(hidden.id);
      const loose = await who.uploadFile({ body: { filename: 'loose.txt', data: data('loose') } });
      const moved = await who.updateFile({ params: { id: loose.id }, body: { workspace_id: hidden.id } });
      expect(moved.workspace_id).toBe(hidden.id);
    }
  });

  it('hides its files from a plain member: get, rename, move, delete and lineage are 404', async () => {
    const secret = await owner.uploadFile({
      body: {
        filename: 'secret.txt',
        data: Buffer.from('only mine').toString('base64'),
        workspace_id: hidden.id,
      },
    });
    const id = secret.id;
    expect(await failure(member.getFile({ params: { id } }))).toMatchObject(notFound);
    expect(await failure(member.updateFile({ params: { id }, body: { name: 'x.txt' } }))).toMatchObject(
      notFound,
    );
    expect(await failure(member.updateFile({ params: { id }, body: { workspace_id: null } }))).toMatchObject(
      notFound,
    );
    expect(await failure(member.deleteFile({ params: { id } }))).toMatchObject(notFound);
    expect(await failure(member.getFileLineage({ params: { id }, query: {} }))).toMatchObject(notFound);
    // Nor is it offered as a deduplicated upload of the same bytes.
    const hash = secret.hash!;
    expect((await member.createUploadSession({ body: { hash } })).deduplicated).toBe(false);
    expect(await manager.createUploadSession({ body: { hash } })).toMatchObject({
      deduplicated: true,
      file_id: id,
    });
    // Nor by the inline upload: the member's own copy is stored (its own record, in no folder).
    const only = Buffer.from('only mine').toString('base64');
    const copy = await member.uploadFile({ body: { filename: 'copy.txt', data: only } });
    expect(copy.id).not.toBe(id);
    expect(copy.workspace_id).toBeNull();
    expect(await manager.uploadFile({ body: { filename: 'copy.txt', data: only } })).toMatchObject({ id });
    await member.deleteFile({ params: { id: copy.id } });
    // Untouched, and still there for those who may see the folder.
    expect(await owner.getFile({ params: { id } })).toEqual(secret);
    expect((await manager.getFile({ params: { id } })).name).toBe('secret.txt');
    expect((await manager.getFileLineage({ params: { id }, query: {} })).root).toBe(id);
  });

  it("leaves its files out of a plain member's lineage graph, edges included", async () => {
    const input = await member.uploadFile({ body: { filename: 'in.txt', data } });
    const output = await owner.uploadFile({
      body: { filename: 'out.txt', data: Buffer.from('out').toString('base64'), workspace_id: hidden.id },
    });
    const job = await owner.createImage({ body: { model: 'local-sketch', prompt: 'x' } });
    await t.db.query(
      `INSERT INTO file_lineage (file_id, job_id, role) VALUES ($1, $3, 'input'), ($2, $3, 'output')`,
      [input.id, output.id, job.id],
    );
    const seen = async (who: Client) => {
      const graph = await who.getFileLineage({ params: { id: input.id }, query: {} });
      return { nodes: graph.nodes.map((n) => n.id).sort(), edges: graph.edges.map((e) => e.to).sort() };
    };
    expect(await seen(member)).toEqual({ nodes: [input.id, job.id].sort(), edges: [job.id] });
    expect(await seen(manager)).toEqual({
      nodes: [input.id, job.id, output.id].sort(),
      edges: [job.id, output.id].sort(),
    });
  });
});
