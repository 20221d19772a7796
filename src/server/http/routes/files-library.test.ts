import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilePage, FileRecord } from '../../../contract/files.ts';
import { fileGeneratedBy } from '../../db/migrations/020-file-generated-by.ts';
import { insertJob } from '../../domain/files/file-test-support.ts';
import { storeFile } from '../../domain/files/files.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

/* Files as a library (#29): generated files named from their prompt and job, searchable by prompt, model and date. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function newTeam() {
  return t.clientFor((await signUp(t)).api_key);
}

describe('generated files', () => {
  it("are named from the prompt and the job, and keep the job's prompt and model", async () => {
    const client = await newTeam();
    const job = await client.createImage({
      body: { model: 'local-sketch', prompt: 'A Lighthouse at Dusk, seen from the sea!' },
    });
    const done = await waitForTerminal(client, job.id);
    expect(done.status).toBe('completed');
    const file = FileRecord.parse(
      await client.getFile({ params: { id: done.output!.outputs[0]!.file_id! } }),
    );
    const shortId = job.id.replace(/^job_/, '').slice(0, 8);
    expect(file.name).toBe(`a-lighthouse-at-dusk-seen-from-the-sea-${shortId}.png`);
    expect(file.metadata).toMatchObject({
      prompt: 'A Lighthouse at Dusk, seen from the sea!',
      model: 'local-sketch',
      tool: 'image',
    });
  });

  it('are found by words of their prompt, their model and their date, in any order', async () => {
    const client = await newTeam();
    const fox = await waitForTerminal(
      client,
      (await client.createImage({ body: { model: 'local-sketch', prompt: 'a red fox in snow' } })).id,
    );
    const foxFile = fox.output!.outputs[0]!.file_id!;
    const upload = await client.uploadFile({
      body: {
        filename: 'holiday.txt',
        data: Buffer.from('snow').toString('base64'),
        media_type: 'text/plain',
      },
    });
    const list = async (query: Record<string, string>) =>
      FilePage.parse(await client.listFiles({ query: query as never })).data.map((f) => f.id);
    expect(await list({ q: 'fox' })).toEqual([foxFile]);
    expect(await list({ q: 'snow fox' })).toEqual([foxFile]);
    expect(await list({ q: 'sketch' })).toEqual([foxFile]);
    expect(await list({ q: 'holiday' })).toEqual([upload.id]);
    expect(await list({ q: 'fox holiday' })).toEqual([]);
    const created = Date.parse(upload.created_at);
    const at = (ms: number) => new Date(ms).toISOString();
    expect(await list({ created_from: at(created + 60_000) })).toEqual([]);
    expect(await list({ created_to: at(Date.parse(fox.created_at) - 60_000) })).toEqual([]);
    expect(await list({ created_from: at(created - 60_000), created_to: at(created + 60_000) })).toEqual(
      expect.arrayContaining([upload.id, foxFile]),
    );
  });

  it('of video and sound carry their duration', async () => {
    const client = await newTeam();
    const done = await waitForTerminal(
      client,
      (await client.createVideo({ body: { model: 'local-motion', prompt: 'waves', duration: 1 } })).id,
    );
    expect(done.status).toBe('completed');
    const file = await client.getFile({ params: { id: done.output!.outputs[0]!.file_id! } });
    expect(file.name).toMatch(/^waves-[0-9a-f]{8}\.mp4$/);
    expect(file.metadata.duration_seconds).toBeCloseTo(1, 0);
  });

  it('made before their prompt was kept learn it from their job once, so search finds them too', async () => {
    const client = await newTeam();
    const teamId = (await client.getMe({})).team.id;
    const jobId = await insertJob(t.db, teamId);
    await t.db.query(`UPDATE jobs SET input = $2, model = 'local-edit', tool = 'image' WHERE id = $1`, [
      jobId,
      JSON.stringify({ prompt: '  an old harbour at noon ' }),
    ]);
    const old = await storeFile(t.services, {
      teamId,
      name: 'edited.png',
      mediaType: 'text/plain',
      data: Buffer.from('old'),
      origin: 'job',
      jobId,
    });
    expect(old.metadata).toEqual({});
    await t.db.query(fileGeneratedBy.sql);
    const found = FilePage.parse(await client.listFiles({ query: { q: 'harbour' } })).data;
    expect(found.map((f) => [f.id, f.name, f.metadata])).toEqual([
      [old.id, 'edited.png', { prompt: 'an old harbour at noon', model: 'local-edit', tool: 'image' }],
    ]);
  });
});
