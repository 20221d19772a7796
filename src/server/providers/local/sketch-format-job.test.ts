import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';
import { waitForTerminal } from '../../testing/wait-for-terminal.ts';

/** local-sketch's output_format through the API: the catalog, the refusal and the job's stored output. */

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp({ SIGNUP_CREDITS: '1000' });
  key = (await signUp(t)).api_key;
});
afterAll(() => t.close());

describe('local-sketch output_format over HTTP', () => {
  it("is listed in GET /v2/tools/image?model=local-sketch's provider options", async () => {
    const tool = await t
      .clientFor(key)
      .getTool({ params: { tool_key: 'image' }, query: { model: 'local-sketch' } });
    type Schema = { properties?: Record<string, Schema>; enum?: string[] };
    const schema = tool.input_schema as Schema;
    const local = schema.properties?.provider_options?.properties?.local;
    expect(local?.properties?.output_format?.enum).toEqual(['png', 'webp', 'avif', 'jpeg']);
  });

  it('answers an unknown format with 422 naming the field', async () => {
    const error = await t
      .clientFor(key)
      .createImage({
        body: { model: 'local-sketch', prompt: 'x', provider_options: { local: { output_format: 'gif' } } },
      })
      .then(
        () => null,
        (e: unknown) => e as ApiError,
      );
    expect(error).toMatchObject({ status: 422, code: 'invalid_request' });
    expect(JSON.stringify(error?.details)).toContain('provider_options.local.output_format');
  });

  it.each([
    ['webp', 'image/webp', '.webp'],
    ['avif', 'image/avif', '.avif'],
    ['none (the default)', 'image/png', '.png'],
  ])(
    '%s: the stored output has the media type, size and extension of what was written',
    async (format, mediaType, extension) => {
      const client = t.clientFor(key);
      const created = await client.createImage({
        body: {
          model: 'local-sketch',
          prompt: 'a lighthouse at dusk',
          ...(mediaType === 'image/png' ? {} : { provider_options: { local: { output_format: format } } }),
        },
      });
      const done = await waitForTerminal(t.clientFor(key), created.id);
      expect(done.status).toBe('completed');
      const output = done.output!.outputs[0]!;
      expect(output.media_type).toBe(mediaType);
      const media = await t.request(new URL(output.url!).pathname);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-type')).toBe(mediaType);
      expect(Buffer.from(await media.arrayBuffer()).length).toBe(output.size_bytes);
      const file = await client.getFile({ params: { id: output.file_id! } });
      expect(file).toMatchObject({ media_type: mediaType, size_bytes: output.size_bytes });
      expect(file.name.endsWith(extension)).toBe(true);
      // A thumbnail was made from it: the file store read the format.
      expect(file.thumbnail_url).not.toBeNull();
    },
  );
});
