import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.ts';
import { testFfmpeg } from '../../providers/local/ffmpeg-test-media.ts';
import { speak } from '../../providers/local/speech-engine.ts';
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
});
