import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { TOOL_KEYS } from '../../../contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import { PriceCatalogEntry } from '../../../contract/pricing.ts';
import { ToolMetadata, ToolSummary } from '../../../contract/tools.ts';
import { createTestApp, signUp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await createTestApp();
  key = (await signUp(t)).api_key;
});
afterAll(() => t.close());

describe('GET /v2/pricing', () => {
  it('is public, follows the spec entry shape, and is grouped by tool in the spec order', async () => {
    const { data } = await t.clientFor(null).getPricing();
    expect(data.length).toBeGreaterThan(0);
    for (const entry of data) PriceCatalogEntry.parse(entry);
    const order = data.map((e) => TOOL_KEYS.indexOf(e.tool));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (const entry of data) {
      for (const p of entry.providers) {
        expect(p.model_key).toBe(`${p.provider}:${entry.model}`);
        expect(Number.isInteger(p.user_price_estimate_cents)).toBe(true);
      }
    }
  });

  it('lists no retired model as available, and says when and for what it was retired', async () => {
    const withKeys = await createTestApp(
      { FAL_KEY: 'k', REPLICATE_API_TOKEN: 'k', OPENAI_API_KEY: 'k', ELEVENLABS_API_KEY: 'k' },
      { work: false },
    );
    try {
      const { data } = await withKeys.clientFor(null).getPricing();
      const retired = data.filter((e) => e.lifecycle?.status === 'retired');
      expect(retired.map((e) => e.model)).toEqual(
        expect.arrayContaining(['gpt-image-1', 'dall-e-3', 'veo-3', 'sora-2']),
      );
      for (const entry of retired) {
        expect(entry.available, entry.model).toBe(false);
        expect(
          entry.providers.every((p) => !p.available),
          entry.model,
        ).toBe(true);
      }
      const gptImage1 = data.find((e) => e.model === 'gpt-image-1')!;
      expect(gptImage1.lifecycle).toMatchObject({ retired_on: '2026-10-23', replacement: 'gpt-image-2' });
      expect(gptImage1.providers[0]!.unavailable_reason).toContain('gpt-image-2');
      const whisper = data.find((e) => e.model === 'whisper-large-v3')!;
      expect(whisper.available).toBe(true);
      expect(whisper.providers.find((p) => p.provider === 'fal')).toMatchObject({ available: false });
      const tts = data.find((e) => e.model === 'tts-1')!;
      expect(tts).toMatchObject({
        available: true,
        lifecycle: { status: 'deprecated', retires_on: '2027-01-06' },
      });
      expect(data.find((e) => e.model === 'gpt-image-2')!.available).toBe(true);
    } finally {
      await withKeys.close();
    }
  });

  it('answers a revalidation with 304 and its ETag', async () => {
    const first = await t.request('/v2/pricing');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=60');
    const again = await t.request('/v2/pricing', { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('lists providers without a configured key as unavailable, saying how to enable them', async () => {
    const { data } = await t.clientFor(null).getPricing();
    const flux = data.find((e) => e.model === 'flux-schnell')!;
    const fal = flux.providers.find((p) => p.provider === 'fal')!;
    expect(fal.available).toBe(false);
    expect(fal.unavailable_reason).toContain('FAL_KEY');
    const local = data.find((e) => e.model === 'local-sketch')!;
    expect(local.available).toBe(true);
  });

  it('marks a provider available once its key is configured, and only that provider', async () => {
    const withKey = await createTestApp({ FAL_KEY: 'fal-test-key' }, { work: false });
    try {
      const { data } = await withKey.clientFor(null).getPricing();
      const flux = data.find((e) => e.model === 'flux-schnell')!;
      expect(flux.available).toBe(true);
      expect(flux.providers.find((p) => p.provider === 'fal')).toMatchObject({
        available: true,
        unavailable_reason: null,
      });
      expect(flux.providers.find((p) => p.provider === 'replicate')!.unavailable_reason).toContain(
        'REPLICATE_API_TOKEN',
      );
      expect(data.find((e) => e.model === 'gpt-image-1')!.available).toBe(false);
    } finally {
      await withKey.close();
    }
  });
});

describe('tools', () => {
  it('lists the eight tools of the spec', async () => {
    const { data } = await t.clientFor(key).listTools();
    expect(data.map((d) => ToolSummary.parse(d).tool_key)).toEqual([...TOOL_KEYS]);
  });

  it('describes each tool with its schemas, an example and its models', async () => {
    for (const tool_key of TOOL_KEYS) {
      const tool = ToolMetadata.parse(await t.clientFor(key).getTool({ params: { tool_key } }));
      expect(tool.tool_key).toBe(tool_key);
      expect(tool.input_schema.type).toBe('object');
      expect(tool.models.length).toBeGreaterThan(0);
      expect(tool.model).toBeNull();
    }
  });

  it("gives each tool its request body's schema and an example that the contract accepts", async () => {
    for (const tool_key of TOOL_KEYS) {
      const tool = await t.clientFor(key).getTool({ params: { tool_key } });
      const properties = tool.input_schema.properties as Record<string, { examples?: string[] }>;
      // Retired models stay listed (old jobs name them) but are not offered as examples.
      expect(properties.model?.examples, tool_key).toEqual(
        tool.models.filter((m) => m.lifecycle?.status !== 'retired').map((m) => m.model),
      );
      const parsed = TOOL_REQUEST_BODIES[tool_key].safeParse(tool.example);
      expect(parsed.success, `${tool_key}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(tool.models.map((m) => m.model)).toContain(tool.example.model);
    }
    const speech = await t.clientFor(key).getTool({ params: { tool_key: 'speech' } });
    expect(speech.input_schema.required).toContain('text');
    expect((speech.input_schema.properties as Record<string, { maxLength?: number }>).text?.maxLength).toBe(
      10000,
    );
    expect((speech.output_schema.properties as Record<string, unknown>).outputs).toBeTruthy();
  });

  it('enriches provider_options for a model, also when the model is pinned to a provider', async () => {
    for (const model of ['flux-schnell', 'fal:flux-schnell']) {
      const tool = await t.clientFor(key).getTool({ params: { tool_key: 'image' }, query: { model } });
      expect(tool.model).toBe('flux-schnell');
      const options = (
        tool.input_schema.properties as Record<string, { properties: Record<string, unknown> }>
      ).provider_options!;
      expect(Object.keys(options.properties)).toEqual(['fal', 'replicate']);
    }
  });

  it("lists each model's providers and, when none can run here, how to enable one", async () => {
    const tool = ToolMetadata.parse(await t.clientFor(key).getTool({ params: { tool_key: 'image' } }));
    const flux = tool.models.find((m) => m.model === 'flux-schnell')!;
    expect(flux.providers).toEqual(['fal', 'replicate']);
    expect(flux.available).toBe(false);
    expect(flux.unavailable_reason).toContain('FAL_KEY');
    expect(flux.unavailable_reason).toContain('REPLICATE_API_TOKEN');
    const sketch = tool.models.find((m) => m.model === 'local-sketch')!;
    expect(sketch).toMatchObject({ available: true, unavailable_reason: null, providers: ['local'] });
  });

  it("publishes a model's own limits over the tool's fields", async () => {
    const tool = await t
      .clientFor(key)
      .getTool({ params: { tool_key: 'video' }, query: { model: 'kling-2.1-master' } });
    const properties = tool.input_schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.duration?.enum).toEqual([5, 10]);
    expect(properties.aspect_ratio?.enum).toEqual(['16:9', '9:16', '1:1']);
    const variant = await t
      .clientFor(key)
      .getTool({ params: { tool_key: 'video' }, query: { model: 'kling-2.1-master-i2v' } });
    const files = (variant.input_schema.properties as Record<string, Record<string, unknown>>).files!;
    expect(files.minItems).toBe(1);
    expect(
      (files.items as Record<string, unknown>).type ?? (files.items as Record<string, unknown>).$ref,
    ).toBeTruthy();
  });

  it('leaves out of a model’s schema the fields it makes no use of: an upscaler asks for no aspect ratio or prompt', async () => {
    const upscale = await t
      .clientFor(key)
      .getTool({ params: { tool_key: 'image' }, query: { model: 'local-upscale' } });
    const properties = upscale.input_schema.properties as Record<string, unknown>;
    expect(properties).toHaveProperty('files');
    expect(properties).not.toHaveProperty('aspect_ratio');
    expect(properties).not.toHaveProperty('prompt');
    // The tool's own schema, for no model in particular, still has them.
    const image = await t.clientFor(key).getTool({ params: { tool_key: 'image' } });
    expect(image.input_schema.properties).toHaveProperty('aspect_ratio');
  });

  it('answers an unknown tool with 404 not_found and an unknown model with 404 model_not_found naming it', async () => {
    const unknownTool = await t
      .clientFor(key)
      .getTool({ params: { tool_key: 'hologram' } })
      .catch((e: ApiError) => e);
    expect(unknownTool).toMatchObject({ status: 404, code: 'not_found' });
    for (const model of ['no-such-model', 'fal:local-sketch', 'tts-1']) {
      const error = await t
        .clientFor(key)
        .getTool({ params: { tool_key: 'image' }, query: { model } })
        .catch((e: ApiError) => e);
      expect(error).toMatchObject({ status: 404, code: 'model_not_found' });
      expect((error as ApiError).message).toContain(model);
    }
  });
});
