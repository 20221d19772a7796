import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Preset as PresetSchema, type Preset as PresetType } from '../../../contract/presets.ts';
import { ELEVENLABS_PREMADE_VOICES } from '../../domain/presets/elevenlabs-voices.ts';
import {
  type ElevenLabsProtocolServer,
  startElevenLabsServer,
} from '../../providers/remote/testing/elevenlabs-protocol-server.ts';
import { person } from '../../testing/team-test-support.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';

/*
 * Provider voices on a server where ElevenLabs is enabled (a stand-in answering as its API reference
 * shows) and OpenAI is not: ElevenLabs' voices take the sample URL ElevenLabs lists for them, OpenAI's
 * (which OpenAI publishes no sample for) have none.
 */
let eleven: ElevenLabsProtocolServer;
let t: TestApp;
let dataDir: string;
beforeAll(async () => {
  eleven = await startElevenLabsServer();
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'voice-samples-route-test-'));
  t = await createTestApp(
    { ELEVENLABS_API_KEY: eleven.key, ELEVENLABS_API_URL: eleven.url, DATA_DIR: dataDir },
    { work: false },
  );
});
afterAll(async () => {
  await t.close();
  await eleven.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function voicesOf(namespace: string): Promise<PresetType[]> {
  const page = await t.clientFor(null).listPresets({ query: { namespace, type: 'voice', limit: 100 } });
  return page.data.map((p) => PresetSchema.parse(p));
}

const listingRequests = () => eleven.requests.filter((r) => r.method === 'GET' && r.path === '/v1/voices');

describe('voice samples of provider voices', () => {
  it('gives each ElevenLabs voice the preview_url ElevenLabs lists for it (earlier default voices too), reading the listing once', async () => {
    // Showing presets is what first asks the listing; this waits for that one request to answer.
    await voicesOf('elevenlabs');
    await t.services.voiceSamples.refresh();
    const voices = await voicesOf('elevenlabs');
    expect(voices).toHaveLength(ELEVENLABS_PREMADE_VOICES.length);
    for (const voice of voices) {
      expect(voice.preview_url).toBe(eleven.sampleUrl(String(voice.metadata.voice)));
    }
    const rachel = voices.find((v) => v.name === 'Rachel')!;
    expect(rachel.status).toBe('deprecated');
    expect(rachel.preview_url).toBe(eleven.sampleUrl('21m00Tcm4TlvDq8ikWAM'));

    // The provider's sample is real audio at the provider, public (no key needed to play it).
    const sample = await fetch(rachel.preview_url);
    expect(sample.status).toBe(200);
    expect(sample.headers.get('content-type')).toBe('audio/mpeg');

    await voicesOf('elevenlabs');
    await t.clientFor(null).getPreset({ params: { id: rachel.id } });
    const asked = listingRequests();
    expect(asked).toHaveLength(1);
    expect(asked[0]!.query.get('show_legacy')).toBe('true');
    expect(asked[0]!.headers['xi-api-key']).toBe(eleven.key);
  });

  it('answers 404 at this server for an ElevenLabs voice, naming the provider sample', async () => {
    await t.services.voiceSamples.refresh();
    const [aria] = (await voicesOf('elevenlabs')).filter((v) => v.name === 'Aria');
    const response = await t.request(`/v2/presets/${aria!.id}/preview`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
      aria!.preview_url,
    );
  });

  it('gives OpenAI voices no sample: OpenAI publishes none, and none is made here', async () => {
    const voices = await voicesOf('openai');
    expect(voices.length).toBeGreaterThan(10);
    expect(voices.every((v) => v.preview_url === '')).toBe(true);
  });

  it("gives a team preset saved with an ElevenLabs voice that voice's sample", async () => {
    await t.services.voiceSamples.refresh();
    const aria = (await voicesOf('elevenlabs')).find((v) => v.name === 'Aria')!;
    const ada = await person(t);
    const saved = await ada.client.createPreset({
      body: {
        name: 'Narration',
        tool: 'speech',
        fragment: { model: 'eleven-multilingual-v2', voice: aria.id, text: 'Hello' },
      },
    });
    expect(saved.preview_url).toBe(eleven.sampleUrl(String(aria.metadata.voice)));
  });
});
