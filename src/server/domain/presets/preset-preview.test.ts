import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { testFfmpeg } from '../../providers/local/ffmpeg-test-media.ts';
import { sketch } from '../../providers/local/image-engine.ts';
import { speak } from '../../providers/local/speech-engine.ts';
import { IMAGE_STYLES, imageStylePresetId } from './image-styles.ts';
import { PresetPreviews } from './preset-preview.ts';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'preset-preview-test-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const log = createLogger('silent');
const preview = { kind: 'local-speech', engine: 'espeak-ng', voice: 'de', language: 'de' } as const;

describe('PresetPreviews', () => {
  it('speaks a sample once for concurrent requests, and reads it back from DATA_DIR after a restart', async () => {
    const previews = new PresetPreviews({
      dataDir,
      draw: (prompt, style) => sketch({ prompt, seed: 0, longEdge: 64, ...(style ? { style } : {}) }),
      speak: (voice, text) => speak(voice, text, { binary: testFfmpeg() }),
      log,
    });
    const [a, b] = await Promise.all([
      previews.sample('preset_0000000000de', preview),
      previews.sample('preset_0000000000de', preview),
    ]);
    expect(a).toBe(b);
    expect(a.mediaType).toBe('audio/mpeg');
    expect(await readdir(path.join(dataDir, 'preset-previews'))).toHaveLength(1);
    // A new process (no ffmpeg at all) serves the same bytes from disk.
    const restarted = new PresetPreviews({
      dataDir,
      draw: (prompt, style) => sketch({ prompt, seed: 0, longEdge: 64, ...(style ? { style } : {}) }),
      speak: () => {
        throw new Error('no synthesis expected');
      },
      log,
    });
    const fromDisk = await restarted.sample('preset_0000000000de', preview);
    expect(fromDisk.data.equals(a.data)).toBe(true);
    expect(fromDisk.etag).toBe(a.etag);
  });

  it('works without a writable DATA_DIR, and tries again after a failure', async () => {
    // DATA_DIR is a file here, so nothing can be made under it.
    const notADirectory = path.join(dataDir, 'a-file');
    await writeFile(notADirectory, 'x');
    let calls = 0;
    const previews = new PresetPreviews({
      dataDir: notADirectory,
      draw: (prompt, style) => sketch({ prompt, seed: 0, longEdge: 64, ...(style ? { style } : {}) }),
      speak: (voice, text) => {
        calls++;
        if (calls === 1) throw new Error('ffmpeg missing');
        return speak(voice, text, { binary: testFfmpeg() });
      },
      log,
    });
    await expect(previews.sample('preset_0000000000aa', preview)).rejects.toThrow('ffmpeg missing');
    const sample = await previews.sample('preset_0000000000aa', preview);
    expect(sample.data.length).toBeGreaterThan(1000);
  });

  it('draws a style sample as a PNG once, each style its own picture, then reads it from DATA_DIR', async () => {
    const dir = path.join(dataDir, 'styles');
    let drawn = 0;
    const draw = (prompt: string, style: Parameters<typeof sketch>[0]['style']) => {
      drawn++;
      return sketch({ prompt, seed: 0, longEdge: 64, ...(style ? { style } : {}) });
    };
    const previews = new PresetPreviews({
      dataDir: dir,
      draw,
      speak: () => Promise.reject(new Error('no')),
      log,
    });
    const [ink, neon] = IMAGE_STYLES.filter((s) => ['ink-sketch', 'neon-noir'].includes(s.slug));
    const sample = (id: string, slug: string) =>
      previews.sample(id, { kind: 'local-image', style: imageStylePresetId(slug), prompt: 'a lighthouse' });
    const a = await sample('preset_0000000000a1', ink!.slug);
    const b = await sample('preset_0000000000b2', neon!.slug);
    expect(a.mediaType).toBe('image/png');
    expect(a.data.subarray(1, 4).toString()).toBe('PNG');
    expect(a.data.equals(b.data)).toBe(false);
    expect(drawn).toBe(2);
    const restarted = new PresetPreviews({
      dataDir: dir,
      draw: () => Promise.reject(new Error('no drawing expected')),
      speak: () => Promise.reject(new Error('no')),
      log,
    });
    const again = await restarted.sample('preset_0000000000a1', {
      kind: 'local-image',
      style: imageStylePresetId(ink!.slug),
      prompt: 'a lighthouse',
    });
    expect(again.data.equals(a.data)).toBe(true);
  });
});
