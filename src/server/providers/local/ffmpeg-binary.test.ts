import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledFfmpeg, ffmpegPath, lastErrorLine } from './ffmpeg-binary.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-binary-test-'));
  await writeFile(path.join(dir, 'ffmpeg'), '#!/bin/sh\nexit 0\n');
  await chmod(path.join(dir, 'ffmpeg'), 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('ffmpegPath', () => {
  it('prefers FFMPEG_PATH, then ffmpeg on the PATH, then the bundled build', () => {
    expect(ffmpegPath({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg' }, dir)).toBe('/opt/ffmpeg/bin/ffmpeg');
    expect(ffmpegPath({}, ['/nonexistent', dir].join(path.delimiter))).toBe(path.join(dir, 'ffmpeg'));
    expect(ffmpegPath({}, '/nonexistent')).toBe(bundledFfmpeg());
    expect(bundledFfmpeg()).toMatch(/@ffmpeg-installer/);
  });
});

describe('lastErrorLine', () => {
  it('skips the generic trailers and the context address', () => {
    expect(
      lastErrorLine(
        '[libx264 @ 0x31286400] width not divisible by 2 (99999x2)\n' +
          'Error initializing output stream 0:0 -- Error while opening encoder for output stream #0:0\n',
      ),
    ).toBe('libx264: width not divisible by 2 (99999x2)');
    expect(lastErrorLine('a\nb: Invalid data found when processing input\n\n')).toBe(
      'b: Invalid data found when processing input',
    );
    expect(lastErrorLine('Conversion failed!\n')).toBe('Conversion failed!');
    expect(lastErrorLine('')).toBe('ffmpeg failed without a message');
  });
});
