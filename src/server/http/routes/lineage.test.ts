import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { FileRecord, LineageGraph, UploadSession } from '../../../contract/files.ts';
import type { Job } from '../../../contract/jobs.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

/*
 * Files through their life with real local engines: upload (session + proxy PUT) → local-upscale →
 * local-edit, the graph around each, rename, move, delete (kept in the graph, marked deleted).
 */

let t: TestApp;
let key: string;
let client: ReturnType<TestApp['clientFor']>;
beforeAll(async () => {
  t = await createTestApp();
  key = (await signUp(t)).api_key;
  client = t.clientFor(key);
});
afterAll(() => t.close());

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as ApiError,
  );

async function upload(data: Buffer, filename: string): Promise<FileRecord> {
  const hash = createHash('sha256').update(data).digest('hex');
  const session = UploadSession.parse(
    await client.createUploadSession({ body: { filename, size: data.length, hash } }),
  );
  if (session.deduplicated) return session.file;
  const response = await t.request(session.proxy_url, {
    method: 'PUT',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'image/png' },
    body: new Uint8Array(data),
  });
  expect(response.status).toBe(200);
  return FileRecord.parse(((await response.json()) as { file: unknown }).file);
}

/** Node ids of the graph, files and jobs apart, and its edges as `from>to:relation`. */
function shape(graph: LineageGraph) {
  return {
    files: graph.nodes
      .filter((n) => n.kind === 'file')
      .map((n) => n.id)
      .sort(),
    jobs: graph.nodes
      .filter((n) => n.kind === 'job')
      .map((n) => n.id)
      .sort(),
    edges: graph.edges.map((e) => `${e.from}>${e.to}:${e.relation}`).sort(),
  };
}

describe('lineage of a three-step chain', () => {
  let source: FileRecord;
  let upscale: Job;
  let edit: Job;
  let big: string;
  let grey: string;

  beforeAll(async () => {
    const png = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#884422' } })
      .png()
      .toBuffer();
    const folder = (await client.createFolder({ body: { name: 'Chain' } })).workspace;
    source = await upload(png, 'source.png');
    upscale = await waitForTerminal(
      client,
      (
        await client.createImage({
          body: {
            model: 'local-upscale',
            files: [{ url: source.url }],
            provider_options: { local: { factor: 2 } },
          },
          headers: { 'x-workspace-id': folder.slug },
        })
      ).id,
    );
    expect(upscale.status).toBe('completed');
    big = upscale.output!.outputs[0]!.file_id!;
    edit = await waitForTerminal(
      client,
      (
        await client.createImage({
          body: {
            model: 'local-edit',
            files: [{ url: upscale.output!.outputs[0]!.url! }],
            provider_options: { local: { operations: [{ op: 'grayscale' }] } },
          },
          headers: { 'x-workspace-id': folder.id },
        })
      ).id,
    );
    expect(edit.status).toBe('completed');
    grey = edit.output!.outputs[0]!.file_id!;
    // X-Workspace-Id (slug or id) filed each job's output in the folder.
    for (const id of [big, grey]) {
      expect((await client.getFile({ params: { id } })).workspace_id).toBe(folder.id);
    }
    expect((await client.getFile({ params: { id: big } })).origin).toBe('job');
  });

  it('from the last output back to the upload', async () => {
    const graph = LineageGraph.parse(await client.getFileLineage({ params: { id: grey }, query: {} }));
    expect(graph.root).toBe(grey);
    expect(graph.truncated).toBe(false);
    expect(shape(graph)).toEqual({
      files: [source.id, big, grey].sort(),
      jobs: [upscale.id, edit.id].sort(),
      edges: [
        `${source.id}>${upscale.id}:input`,
        `${upscale.id}>${big}:output`,
        `${big}>${edit.id}:input`,
        `${edit.id}>${grey}:output`,
      ].sort(),
    });
    const job = graph.nodes.find((n) => n.kind === 'job' && n.id === edit.id);
    expect(job).toMatchObject({ job: { tool: 'image', model: 'local-edit', status: 'completed' } });
  });

  it('from the upload forward to what was made from it, and from the middle both ways', async () => {
    const fromSource = LineageGraph.parse(
      await client.getFileLineage({ params: { id: source.id }, query: {} }),
    );
    expect(shape(fromSource).files).toEqual([source.id, big, grey].sort());
    expect(shape(fromSource).edges).toHaveLength(4);
    const fromMiddle = LineageGraph.parse(await client.getFileLineage({ params: { id: big }, query: {} }));
    expect(shape(fromMiddle)).toEqual(shape(fromSource));
  });

  it('cuts the graph at depth and says so', async () => {
    const one = LineageGraph.parse(
      await client.getFileLineage({ params: { id: grey }, query: { depth: 1 } }),
    );
    expect(one.truncated).toBe(true);
    expect(shape(one)).toEqual({
      files: [big, grey].sort(),
      jobs: [edit.id],
      edges: [`${big}>${edit.id}:input`, `${edit.id}>${grey}:output`].sort(),
    });
    expect(
      await failure(client.getFileLineage({ params: { id: grey }, query: { depth: 11 } as never })),
    ).toMatchObject({ status: 422 });
  });

  it("answers another team's file as unknown", async () => {
    const stranger = t.clientFor((await signUp(t)).api_key);
    expect(await failure(stranger.getFileLineage({ params: { id: grey }, query: {} }))).toMatchObject({
      status: 404,
    });
  });

  it('keeps a deleted file in the graph, marked deleted, while it leaves lists, gets and its URL', async () => {
    await client.deleteFile({ params: { id: big } });
    expect(await failure(client.getFile({ params: { id: big } }))).toMatchObject({ status: 404 });
    expect((await client.listFiles({ query: {} })).data.map((f) => f.id)).not.toContain(big);
    expect((await t.request(new URL(upscale.output!.outputs[0]!.url!).pathname)).status).toBe(404);
    expect(await failure(client.deleteFile({ params: { id: big } }))).toMatchObject({ status: 404 });
    const graph = LineageGraph.parse(await client.getFileLineage({ params: { id: grey }, query: {} }));
    expect(shape(graph).files).toEqual([source.id, big, grey].sort());
    const node = graph.nodes.find((n) => n.id === big);
    expect(node).toMatchObject({ kind: 'file', deleted: true });
    expect(graph.nodes.find((n) => n.id === grey)).toMatchObject({ deleted: false });
  });
});

describe('rename, move and delete', () => {
  it('renames and moves a file between folders and out of them; the URL keeps working', async () => {
    const file = await client.uploadFile({
      body: { filename: 'a.txt', data: Buffer.from('abc').toString('base64') },
    });
    const folder = (await client.createFolder({ body: { name: 'Moves' } })).workspace;
    const renamed = await client.updateFile({ params: { id: file.id }, body: { name: 'b.txt' } });
    expect(renamed).toMatchObject({ name: 'b.txt', workspace_id: null });
    const moved = await client.updateFile({ params: { id: file.id }, body: { workspace_id: folder.slug } });
    expect(moved).toMatchObject({ name: 'b.txt', workspace_id: folder.id });
    const out = await client.updateFile({ params: { id: file.id }, body: { workspace_id: null } });
    expect(out.workspace_id).toBeNull();
    expect((await t.request(new URL(file.url).pathname)).status).toBe(200);
    expect(await failure(client.updateFile({ params: { id: file.id }, body: {} }))).toMatchObject({
      status: 422,
    });
    expect(
      await failure(client.updateFile({ params: { id: file.id }, body: { workspace_id: 'nope' } })),
    ).toMatchObject({ status: 404 });

    const stranger = t.clientFor((await signUp(t)).api_key);
    expect(
      await failure(stranger.updateFile({ params: { id: file.id }, body: { name: 'x.txt' } })),
    ).toMatchObject({ status: 404 });
    expect(await failure(stranger.deleteFile({ params: { id: file.id } }))).toMatchObject({ status: 404 });
    // Nor can a stranger move their file into our folder.
    const theirs = await stranger.uploadFile({
      body: { filename: 't.txt', data: Buffer.from('t').toString('base64') },
    });
    expect(
      await failure(stranger.updateFile({ params: { id: theirs.id }, body: { workspace_id: folder.id } })),
    ).toMatchObject({ status: 404 });
  });
});
