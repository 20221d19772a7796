import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { type Folder, FolderResponse } from '../../../contract/folders.ts';
import { createApiKey } from '../../domain/identity/api-keys.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let client: ReturnType<TestApp['clientFor']>;
let key: string;
beforeAll(async () => {
  t = await createTestApp({}, { work: false });
  key = (await signUp(t)).api_key;
  client = t.clientFor(key);
});
afterAll(() => t.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

async function teamIdOf(c: ReturnType<TestApp['clientFor']>) {
  return (await c.getMe({})).team.id;
}

describe('POST /v2/workspaces', () => {
  it('answers { workspace } with every field of spec 2.6', async () => {
    const response = await t.request('/v2/workspaces', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Client Shoots 2025' }),
    });
    expect(response.status).toBe(201);
    const body = FolderResponse.strict().parse(await response.json());
    expect(Object.keys(body.workspace).sort()).toEqual(
      ['created_at', 'file_count', 'id', 'name', 'slug', 'team_id', 'updated_at', 'visibility'].sort(),
    );
    expect(body.workspace).toMatchObject({
      name: 'Client Shoots 2025',
      slug: 'client-shoots-2025',
      visibility: 'team',
      team_id: await teamIdOf(client),
      file_count: 0,
    });
  });

  it('gives each folder its own UUID and a slug unique in the team', async () => {
    const a = (await client.createFolder({ body: { name: 'Renders' } })).workspace;
    const b = (await client.createFolder({ body: { name: 'renders!' } })).workspace;
    const c = (await client.createFolder({ body: { name: '  Renders  ' } })).workspace;
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    expect([a.slug, b.slug, c.slug]).toEqual(['renders', 'renders-2', 'renders-3']);
    // Another team may use the same slug.
    const other = t.clientFor((await signUp(t)).api_key);
    expect((await other.createFolder({ body: { name: 'Renders' } })).workspace.slug).toBe('renders');
    // A name with no letters or digits still gets a slug.
    expect((await client.createFolder({ body: { name: '!!!' } })).workspace.slug).toBe('folder');
  });

  it('refuses a missing or non-string name with 422 naming name', async () => {
    for (const body of [{}, { name: 42 }, { name: '' }, { name: 'x'.repeat(101) }]) {
      const response = await t.request('/v2/workspaces', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(422);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_request');
      expect(error.message).toContain('name');
    }
  });

  it('answers 422 workspace_owner_unresolvable for a key with no person', async () => {
    const service = await createApiKey(t.db, t.services.keys.encryption, {
      teamId: await teamIdOf(client),
      personId: null,
      name: 'service',
      revealable: false,
    });
    const e = await failure(t.clientFor(service.secret).createFolder({ body: { name: 'Bots' } }));
    expect(e).toMatchObject({ status: 422, code: 'workspace_owner_unresolvable' });
  });
});

describe('listing, get by id or slug, rename', () => {
  it('lists newest first with a cursor, gets by id or slug, renames keeping the slug', async () => {
    const own = t.clientFor((await signUp(t)).api_key);
    const made: Folder[] = [];
    for (const name of ['One', 'Two', 'Three'])
      made.push((await own.createFolder({ body: { name } })).workspace);
    const first = await own.listFolders({ query: { limit: 2 } });
    expect(first.data.map((f) => f.name)).toEqual(['Three', 'Two']);
    const second = await own.listFolders({ query: { limit: 2, cursor: first.next_cursor! } });
    expect(second.data.map((f) => f.name)).toEqual(['One']);
    expect(second.next_cursor).toBeNull();
    expect((await own.listFolders({ query: { q: 'tw' } })).data.map((f) => f.name)).toEqual(['Two']);

    const two = made[1]!;
    expect((await own.getFolder({ params: { id_or_slug: two.id } })).workspace).toEqual(two);
    expect((await own.getFolder({ params: { id_or_slug: 'two' } })).workspace).toEqual(two);
    const renamed = (await own.updateFolder({ params: { id_or_slug: 'two' }, body: { name: 'Second' } }))
      .workspace;
    expect(renamed).toMatchObject({ id: two.id, name: 'Second', slug: 'two' });
    expect(Date.parse(renamed.updated_at)).toBeGreaterThanOrEqual(Date.parse(two.updated_at));
    expect(await failure(own.updateFolder({ params: { id_or_slug: 'two' }, body: {} }))).toMatchObject({
      status: 422,
    });
  });

  it('counts the live files in a folder', async () => {
    const own = t.clientFor((await signUp(t)).api_key);
    const folder = (await own.createFolder({ body: { name: 'Counted' } })).workspace;
    const data = (text: string) => Buffer.from(text).toString('base64');
    const a = await own.uploadFile({
      body: { filename: 'a.txt', data: data('a') },
      headers: { 'x-workspace-id': 'counted' },
    });
    await own.uploadFile({ body: { filename: 'b.txt', data: data('b'), workspace_id: folder.id } });
    expect((await own.getFolder({ params: { id_or_slug: folder.id } })).workspace.file_count).toBe(2);
    await own.deleteFile({ params: { id: a.id } });
    expect((await own.getFolder({ params: { id_or_slug: folder.id } })).workspace.file_count).toBe(1);
  });

  it("answers another team's folder as unknown everywhere", async () => {
    const folder = (await client.createFolder({ body: { name: 'Private stuff' } })).workspace;
    const stranger = t.clientFor((await signUp(t)).api_key);
    for (const ref of [folder.id, folder.slug]) {
      expect(await failure(stranger.getFolder({ params: { id_or_slug: ref } }))).toMatchObject({
        status: 404,
        code: 'not_found',
      });
      expect(
        await failure(stranger.updateFolder({ params: { id_or_slug: ref }, body: { name: 'mine' } })),
      ).toMatchObject({ status: 404 });
    }
    expect((await stranger.listFolders({ query: {} })).data.map((f) => f.id)).not.toContain(folder.id);
    expect(await failure(stranger.getFolder({ params: { id_or_slug: 'no-such-folder' } }))).toMatchObject({
      status: 404,
    });
  });

  it('hides a private folder and its files from other members, not from owners', async () => {
    const owner = t.clientFor((await signUp(t)).api_key);
    const me = await owner.getMe({});
    const other = await t.clientFor((await signUp(t)).api_key).getMe({});
    await t.db.query(`INSERT INTO memberships (team_id, person_id, role) VALUES ($1, $2, 'member')`, [
      me.team.id,
      other.person!.id,
    ]);
    const memberKey = await createApiKey(t.db, t.services.keys.encryption, {
      teamId: me.team.id,
      personId: other.person!.id,
      name: 'member',
      revealable: false,
    });
    const member = t.clientFor(memberKey.secret);
    const hidden = (await owner.createFolder({ body: { name: 'Mine only', visibility: 'private' } }))
      .workspace;
    const shared = (await owner.createFolder({ body: { name: 'Everyone' } })).workspace;
    const data = (text: string) => Buffer.from(text).toString('base64');
    const secret = await owner.uploadFile({
      body: { filename: 's.txt', data: data('secret'), workspace_id: hidden.id },
    });
    const open = await owner.uploadFile({
      body: { filename: 'o.txt', data: data('open'), workspace_id: shared.id },
    });

    const folderIds = async (c: typeof owner) => (await c.listFolders({ query: {} })).data.map((f) => f.id);
    const fileIds = async (c: typeof owner) => (await c.listFiles({ query: {} })).data.map((f) => f.id);
    expect(await folderIds(member)).toEqual([shared.id]);
    expect(await fileIds(member)).toEqual([open.id]);
    expect(await failure(member.getFolder({ params: { id_or_slug: hidden.slug } }))).toMatchObject({
      status: 404,
    });
    expect(await folderIds(owner)).toEqual([shared.id, hidden.id]);
    expect(await fileIds(owner)).toEqual([open.id, secret.id]);
    // A member may rename a shared folder but not make it private.
    expect(
      await failure(
        member.updateFolder({ params: { id_or_slug: shared.id }, body: { visibility: 'private' } }),
      ),
    ).toMatchObject({ status: 403, code: 'forbidden' });
    expect(
      (await member.updateFolder({ params: { id_or_slug: shared.id }, body: { name: 'All of us' } }))
        .workspace.name,
    ).toBe('All of us');
  });

  it('has no delete route', async () => {
    const folder = (await client.createFolder({ body: { name: 'Kept' } })).workspace;
    const response = await t.request(`/v2/workspaces/${folder.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(405);
  });
});
