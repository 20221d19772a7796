import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '../../../client/api-error.ts';
import { Preset as PresetSchema, type Preset as PresetType } from '../../../contract/presets.ts';
import { FLITE_VOICES } from '../../domain/presets/speech-voices.ts';
import { probe } from '../../providers/local/engine-test-support.ts';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'presets-test-'));
  t = await createTestApp({ DATA_DIR: dataDir }, { work: false });
});
afterAll(async () => {
  await t.close();
  await rm(dataDir, { recursive: true, force: true });
});

const anonymous = () => t.clientFor(null);
const slt = FLITE_VOICES.find((v) => v.name === 'slt')!;

async function listAll(query: Record<string, string | number> = {}): Promise<PresetType[]> {
  const all: PresetType[] = [];
  let cursor: string | undefined;
  do {
    const page = await anonymous().listPresets({ query: { ...query, ...(cursor ? { cursor } : {}) } });
    all.push(...page.data.map((p) => PresetSchema.parse(p)));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

describe('GET /v2/presets', () => {
  it('lists every local voice without authentication, sorted by name, in pages', async () => {
    const first = await anonymous().listPresets({ query: { limit: 20 } });
    expect(first.data).toHaveLength(20);
    expect(first.next_cursor).toEqual(expect.any(String));
    const all = await listAll({ limit: 20 });
    expect(all.length).toBeGreaterThan(130);
    expect(new Set(all.map((p) => p.id)).size).toBe(all.length);
    // Sorted by name within each group: what runs here (local), then what does not (no provider keys).
    const runsHere = (p: PresetType) => p.namespace === 'local';
    const local = all.filter(runsHere).map((p) => p.name);
    expect(local).toEqual([...local].sort(new Intl.Collator('en').compare));
    expect(all.slice(0, 20)).toEqual(first.data);
  });

  it('lists what runs on this server first, then the active before the deprecated (newcomers see what they can use)', async () => {
    const all = await listAll({ limit: 50 });
    const firstElsewhere = all.findIndex((p) => p.namespace !== 'local');
    expect(firstElsewhere).toBeGreaterThan(0);
    // Every preset of a provider without its key (openai, elevenlabs here) comes after every local one.
    expect(all.slice(firstElsewhere).every((p) => p.namespace !== 'local')).toBe(true);
    expect(all.slice(firstElsewhere).map((p) => p.namespace)).toEqual(
      expect.arrayContaining(['openai', 'elevenlabs']),
    );
    const elsewhere = all.slice(firstElsewhere);
    const firstDeprecated = elsewhere.findIndex((p) => p.status === 'deprecated');
    if (firstDeprecated >= 0) {
      expect(elsewhere.slice(firstDeprecated).every((p) => p.status === 'deprecated')).toBe(true);
    }
    // The first page opens on a voice this server speaks.
    const first = await anonymous().listPresets({ query: { limit: 20, type: 'voice' } });
    expect(first.data[0]?.namespace).toBe('local');
    expect(first.data[0]?.status).toBe('active');
  });

  it('describes a voice as a ready-to-merge speech fragment with a preview URL', async () => {
    const all = await listAll({ limit: 100 });
    expect(all.find((p) => p.id === slt.presetId)).toEqual({
      id: slt.presetId,
      kind: 'provider_value',
      type: 'voice',
      namespace: 'local',
      name: 'Flite SLT',
      description: expect.stringContaining('female'),
      preview_url: `${TEST_PUBLIC_URL}/v2/presets/${slt.presetId}/preview`,
      metadata: {
        engine: 'flite',
        model: 'local-flite',
        voice: 'slt',
        language: 'en',
        gender: 'female',
        accent: 'America',
      },
      status: 'active',
      tools: { speech: { model: 'local-flite', voice: slt.presetId } },
    });
  });

  it('filters by type, namespace, tool, status, metadata and text', async () => {
    expect(await listAll({ type: 'style', tool: 'speech' })).toEqual([]);
    expect(await listAll({ namespace: 'nobody' })).toEqual([]);
    expect(await listAll({ tool: 'video' })).toEqual([]);
    // Only ElevenLabs' earlier default voices are deprecated.
    const deprecated = await listAll({ status: 'deprecated' });
    expect(deprecated.length).toBeGreaterThan(0);
    expect(new Set(deprecated.map((p) => p.namespace))).toEqual(new Set(['elevenlabs']));
    expect(
      (await listAll({ type: 'voice', namespace: 'local', tool: 'speech', status: 'active' })).length,
    ).toBe((await listAll({ namespace: 'local' })).filter((p) => p.type === 'voice').length);
    const female = await listAll({ metadata: 'gender:female', namespace: 'local' });
    expect(female.map((p) => p.metadata.voice)).toEqual(['slt']);
    const elevenFemale = await listAll({ metadata: 'gender:female', namespace: 'elevenlabs' });
    expect(elevenFemale.length).toBeGreaterThan(3);
    expect(elevenFemale.every((p) => p.metadata.gender === 'female')).toBe(true);
    // Same key: any of; different keys: all of.
    const frOrDe = await listAll({ metadata: 'language:fr,language:de,engine:espeak-ng' });
    expect(new Set(frOrDe.map((p) => p.metadata.language))).toEqual(new Set(['fr', 'de']));
    expect(frOrDe.map((p) => p.metadata.voice).sort()).toEqual(['de', 'fr-be', 'fr-ch', 'fr-fr']);
    const scots = await listAll({ q: 'English  SCOT', namespace: 'local' });
    expect(scots.map((p) => p.name).sort()).toEqual(['Flite AWB', 'eSpeak NG English (Scotland)'].sort());
    expect(await listAll({ q: 'scottish female' })).toEqual([]);
  });

  it('refuses a cursor it did not make and a malformed filter', async () => {
    const error = await anonymous()
      .listPresets({ query: { cursor: 'nonsense' } })
      .catch((e: ApiError) => e);
    expect((error as ApiError).status).toBe(422);
    const filter = await anonymous()
      .listPresets({ query: { metadata: 'female' } })
      .catch((e: ApiError) => e);
    expect((filter as ApiError).status).toBe(422);
  });
});

describe('GET /v2/presets/{id}', () => {
  it('answers a preset by id, without authentication', async () => {
    const preset = PresetSchema.parse(await anonymous().getPreset({ params: { id: slt.presetId } }));
    expect(preset).toMatchObject({ id: slt.presetId, name: 'Flite SLT', status: 'active' });
  });

  it('answers not_found for an unknown id and 422 for a malformed one', async () => {
    const unknown = await anonymous()
      .getPreset({ params: { id: 'preset_000000000000' } })
      .catch((e: ApiError) => e);
    expect(unknown).toMatchObject({ status: 404, code: 'not_found' });
    expect((await t.request('/v2/presets/voice-1')).status).toBe(422);
  });
});

describe('GET /v2/presets/{id}/preview', () => {
  it('speaks the sample once, caches it in memory and under DATA_DIR, and serves it cacheably', async () => {
    const response = await t.request(`/v2/presets/${slt.presetId}/preview`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400, immutable');
    const etag = response.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    const file = path.join(dataDir, 'sample.mp3');
    await writeFile(file, bytes);
    const probed = await probe(file);
    expect(probed.audio).toMatchObject({ codec_name: 'mp3', sample_rate: '16000' });
    expect(probed.seconds).toBeGreaterThan(2);

    const cached = await readdir(path.join(dataDir, 'preset-previews'));
    expect(cached).toEqual([expect.stringMatching(new RegExp(`^${slt.presetId}-[\\w-]{16}\\.mp3$`))]);

    const again = await t.request(`/v2/presets/${slt.presetId}/preview`);
    expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
    expect(again.headers.get('etag')).toBe(etag);
    const revalidated = await t.request(`/v2/presets/${slt.presetId}/preview`, {
      headers: { 'if-none-match': etag },
    });
    expect(revalidated.status).toBe(304);
  });

  it('honours Range requests', async () => {
    const full = Buffer.from(await (await t.request(`/v2/presets/${slt.presetId}/preview`)).arrayBuffer());
    const part = await t.request(`/v2/presets/${slt.presetId}/preview`, {
      headers: { range: 'bytes=10-19' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${full.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(full.subarray(10, 20))).toBe(true);
    const beyond = await t.request(`/v2/presets/${slt.presetId}/preview`, {
      headers: { range: `bytes=${full.length}-` },
    });
    expect(beyond.status).toBe(416);
  });

  it('speaks an espeak-ng voice in its own language, and 404s for unknown presets', async () => {
    const fr = (await listAll({ metadata: 'voice:fr-fr' }))[0]!;
    const response = await t.request(new URL(fr.preview_url!).pathname);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    // Real speech by the engine itself: an MP3 ffprobe reads, a sentence long.
    const file = path.join(dataDir, 'sample-fr.mp3');
    await writeFile(file, Buffer.from(await response.arrayBuffer()));
    const probed = await probe(file);
    expect(probed.audio).toMatchObject({ codec_name: 'mp3' });
    expect(probed.seconds).toBeGreaterThan(1.5);
    const unknown = await t.request('/v2/presets/preset_000000000000/preview');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});

describe('image style presets', () => {
  it('offers a dozen or more, each a tools.image fragment naming itself as the sketch style', async () => {
    const styles = await listAll({ type: 'style' });
    expect(styles.length).toBeGreaterThanOrEqual(12);
    for (const style of styles) {
      expect(style).toMatchObject({
        namespace: 'local',
        status: 'active',
        metadata: { engine: 'local-sketch' },
      });
      expect(style.tools).toEqual({
        image: { model: 'local-sketch', provider_options: { local: { style: style.id } } },
      });
      expect(style.preview_url).toBe(`${TEST_PUBLIC_URL}/v2/presets/${style.id}/preview`);
    }
    expect(await listAll({ tool: 'image' })).toEqual(styles);
    const noir = await listAll({ type: 'style', metadata: 'mood:dramatic,palette:monochrome' });
    expect(noir.map((p) => p.name)).toEqual(['Film noir']);
  });

  it('serves each style sample as a PNG, every style a different picture', async () => {
    const [first, second] = await listAll({ type: 'style', limit: 2 });
    const sample = async (preset: PresetType) => {
      const response = await t.request(new URL(preset.preview_url).pathname);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      return Buffer.from(await response.arrayBuffer());
    };
    const a = await sample(first!);
    expect(a.subarray(1, 4).toString()).toBe('PNG');
    expect(a.equals(await sample(second!))).toBe(false);
  });

  it('gives provider voices no sample when their provider is not enabled: an empty preview_url, no picture', async () => {
    const all = await listAll({ limit: 100 });
    expect(all.every((p) => typeof p.preview_url === 'string')).toBe(true);
    const provider = all.filter((p) => p.namespace === 'openai' || p.namespace === 'elevenlabs');
    expect(provider.length).toBeGreaterThan(30);
    expect(provider.every((p) => p.preview_url === '')).toBe(true);
    const local = all.filter((p) => p.namespace === 'local');
    expect(local.every((p) => p.preview_url.startsWith(`${TEST_PUBLIC_URL}/v2/presets/`))).toBe(true);
    const alloy = (await listAll({ namespace: 'openai', q: 'alloy' }))[0]!;
    const response = await t.request(`/v2/presets/${alloy.id}/preview`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: 'not_found', message: `Preset ${alloy.id} has no sample on this server.` },
    });
  });
});
