import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODELS } from '../../domain/catalog/models.ts';
import {
  checkCatalog,
  elevenLabsListing,
  elevenLabsVoiceSamples,
  falListing,
  type ListingConfig,
  openaiListing,
  replicateListing,
  reportLines,
} from './model-listings.ts';

/*
 * One local server answering as each provider's documented listing API does, with the auth header each
 * documents: fal's model search (`endpoint_id` filters, cursor pages), Replicate's GET model/version
 * (404 when gone), OpenAI's GET /models (`data[].id`, `shutdown_date`), ElevenLabs' GET /models.
 */
const FAL_LISTED = new Map([
  ['fal-ai/flux/schnell', 'active'],
  ['fal-ai/wizper', 'deprecated'],
]);
const REPLICATE_LISTED = new Set([
  '/models/black-forest-labs/flux-schnell',
  '/models/meta/musicgen/versions/abc',
]);
const OPENAI_LISTED = [{ id: 'gpt-image-2' }, { id: 'tts-1', shutdown_date: '2027-01-06' }];
const ELEVENLABS_LISTED = [{ model_id: 'eleven_v3' }];
/** ElevenLabs' GET /v1/voices (GetVoicesResponse): a voice without a usable sample URL is left out. */
const ELEVENLABS_VOICES = {
  voices: [
    { voice_id: 'aria', name: 'Aria', category: 'premade', preview_url: 'https://cdn.example/aria.mp3' },
    { voice_id: 'cloned', name: 'Mine', category: 'cloned', preview_url: null },
    { voice_id: 'odd', name: 'Odd', category: 'premade', preview_url: 'javascript:alert(1)' },
  ],
};

let server: Server;
let base: string;
const seen: { path: string; auth: string | undefined }[] = [];

function answer(req: IncomingMessage): [number, unknown] {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname === '/fal/models') {
    if (req.headers.authorization !== 'Key fal-key') return [401, { detail: 'Unauthorized' }];
    const asked = url.searchParams.getAll('endpoint_id').filter((id) => FAL_LISTED.has(id));
    // One model a page, so the cursor is followed.
    const at = Number(url.searchParams.get('cursor') ?? 0);
    const id = asked[at];
    return [
      200,
      {
        models: id ? [{ endpoint_id: id, metadata: { status: FAL_LISTED.get(id) } }] : [],
        has_more: at + 1 < asked.length,
        next_cursor: at + 1 < asked.length ? String(at + 1) : null,
      },
    ];
  }
  if (url.pathname.startsWith('/replicate/models/')) {
    if (req.headers.authorization !== 'Bearer r8-token') return [401, { detail: 'Unauthenticated' }];
    const path = url.pathname.slice('/replicate'.length);
    return REPLICATE_LISTED.has(path) ? [200, { url: path }] : [404, { detail: 'Not found.' }];
  }
  if (url.pathname === '/openai/models') {
    if (req.headers.authorization !== 'Bearer sk-test') return [401, { error: { message: 'bad key' } }];
    return [200, { object: 'list', data: OPENAI_LISTED }];
  }
  if (url.pathname === '/elevenlabs/models') {
    if (req.headers['xi-api-key'] !== 'xi-key') return [401, { detail: 'invalid_api_key' }];
    return [200, ELEVENLABS_LISTED];
  }
  if (url.pathname === '/elevenlabs/voices') {
    if (req.headers['xi-api-key'] !== 'xi-key') return [401, { detail: 'invalid_api_key' }];
    return [200, ELEVENLABS_VOICES];
  }
  return [404, {}];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization });
    const [status, body] = answer(req);
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = (): ListingConfig => ({
  FAL_KEY: 'fal-key',
  FAL_API_URL: `${base}/fal`,
  REPLICATE_API_TOKEN: 'r8-token',
  REPLICATE_API_URL: `${base}/replicate`,
  OPENAI_API_KEY: 'sk-test',
  OPENAI_BASE_URL: `${base}/openai`,
  ELEVENLABS_API_KEY: 'xi-key',
  ELEVENLABS_API_URL: `${base}/elevenlabs`,
});

describe('provider model listings', () => {
  it("finds fal ids through its model search, following pages, and reports fal's deprecations", async () => {
    const r = await falListing(config(), ['fal-ai/flux/schnell', 'fal-ai/veo3', 'fal-ai/wizper']);
    expect(r).toMatchObject({
      notChecked: null,
      missing: ['fal-ai/veo3'],
      deprecated: [{ id: 'fal-ai/wizper' }],
    });
  });

  it('asks Replicate for each model, and for the version when one is pinned', async () => {
    const r = await replicateListing(config(), [
      'black-forest-labs/flux-schnell',
      'meta/musicgen:abc',
      'luma/ray-9',
    ]);
    expect(r.missing).toEqual(['luma/ray-9']);
    expect(seen.map((s) => s.path)).toContain('/replicate/models/meta/musicgen/versions/abc');
  });

  it("reads OpenAI's model list with its shutdown dates, and ElevenLabs' speech models", async () => {
    const openai = await openaiListing(config(), ['gpt-image-2', 'tts-1', 'dall-e-3']);
    expect(openai).toMatchObject({
      missing: ['dall-e-3'],
      deprecated: [{ id: 'tts-1', date: '2027-01-06' }],
    });
    const eleven = await elevenLabsListing(
      config(),
      ['eleven_v3', 'eleven_v9', 'music_v1'],
      new Set(['eleven_v3', 'eleven_v9']),
    );
    expect(eleven).toMatchObject({ missing: ['eleven_v9'], unlisted: ['music_v1'] });
  });

  it('reads the sample URL ElevenLabs lists for each voice, keeping only web addresses', async () => {
    const samples = await elevenLabsVoiceSamples(config());
    expect([...samples]).toEqual([['aria', 'https://cdn.example/aria.mp3']]);
    expect(seen.map((s) => s.path)).toContain('/elevenlabs/voices?show_legacy=true');
    await expect(elevenLabsVoiceSamples({ ...config(), ELEVENLABS_API_KEY: 'wrong' })).rejects.toThrow(
      'HTTP 401',
    );
  });

  it('says which providers it could not check without their keys, and asks nothing of them', async () => {
    const before = seen.length;
    const reports = await checkCatalog(
      {
        ...config(),
        FAL_KEY: undefined,
        REPLICATE_API_TOKEN: undefined,
        OPENAI_API_KEY: undefined,
        ELEVENLABS_API_KEY: undefined,
      },
      MODELS,
      '2026-11-27',
    );
    expect(seen.length).toBe(before);
    const lines = reportLines(reports);
    expect(lines[0]).toMatch(/No provider was checked/);
    for (const key of ['FAL_KEY', 'REPLICATE_API_TOKEN', 'OPENAI_API_KEY', 'ELEVENLABS_API_KEY'])
      expect(lines.join('\n')).toContain(key);
  });

  it('checks the whole catalog, skipping retired offers, and prints a table of what is missing', async () => {
    const reports = await checkCatalog(config(), MODELS, '2026-11-27');
    const fal = reports.find((r) => r.provider === 'fal')!;
    expect(fal.missing).toContain('fal-ai/veo3.1');
    expect(fal.missing).not.toContain('fal-ai/veo3');
    expect(reports.find((r) => r.provider === 'openai')!.missing).not.toContain('gpt-image-1');
    const lines = reportLines(reports);
    expect(lines[0]).toMatch(/^provider\s+model\s+status$/);
    expect(lines).toContainEqual(expect.stringMatching(/^fal\s+fal-ai\/veo3\.1\s+missing$/));
    expect(lines).toContainEqual(expect.stringMatching(/^elevenlabs: no listing API for .*music_v1/));
  });

  it('reports a provider that fails to answer as not checked, not as missing everything', async () => {
    const reports = await checkCatalog({ ...config(), OPENAI_API_KEY: 'sk-wrong' }, MODELS, '2026-11-27');
    expect(reports.find((r) => r.provider === 'openai')).toMatchObject({
      notChecked: expect.stringContaining('HTTP 401'),
      missing: [],
    });
  });
});
