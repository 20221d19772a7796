import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const body = { model: 'local-sketch', prompt: 'the same lighthouse at dusk', aspect_ratio: '1:1' } as const;

describe('the result cache', () => {
  it("never answers one team's request from another team's job", async () => {
    const a = await person(t);
    const b = await person(t);
    const first = await waitForTerminal(a.client, (await a.client.createImage({ body })).id);
    expect(first.pricing.cached).toBe(false);

    const second = await waitForTerminal(b.client, (await b.client.createImage({ body })).id);
    expect(second.status).toBe('completed');
    expect(second.pricing).toMatchObject({ cached: false, actual: 1 });
    const fileId = second.output!.outputs[0]!.file_id!;
    expect(fileId).not.toBe(first.output!.outputs[0]!.file_id);
    // B's output is B's own file.
    expect((await b.client.getFile({ params: { id: fileId } })).id).toBe(fileId);
  });

  it('answers the same team from its own earlier job, and not across its folders', async () => {
    const a = await person(t);
    const prompt = { ...body, prompt: 'a harbour crane' };
    const first = await waitForTerminal(a.client, (await a.client.createImage({ body: prompt })).id);
    const again = await waitForTerminal(a.client, (await a.client.createImage({ body: prompt })).id);
    expect(again.pricing).toMatchObject({ cached: true, actual: 0 });
    expect(again.output).toEqual(first.output);

    const folder = await a.client.createFolder({ body: { name: 'Private work', visibility: 'private' } });
    const filed = await waitForTerminal(
      a.client,
      (await a.client.createImage({ body: prompt, headers: { 'x-workspace-id': folder.workspace.id } })).id,
    );
    expect(filed.pricing).toMatchObject({ cached: false });
  });
});
