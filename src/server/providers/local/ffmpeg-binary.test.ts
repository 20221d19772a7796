import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bundledBinary,
  describeMediaBinaries,
  findFfmpeg,
  findFfprobe,
  lastErrorLine,
} from './ffmpeg-binary.ts';

/** `dir` holds an ffmpeg and an ffprobe that print a version, as a system's would; `lone` only an ffmpeg. */
let dir: string;
let lone: string;
async function fakeBinary(at: string, name: string) {
  await writeFile(
    path.join(at, name),
    `#!/bin/sh\necho "${name} version 9.9-test Copyright (c) the FFmpeg developers"\n`,
  );
  await chmod(path.join(at, name), 0o755);
}
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-binary-test-'));
  lone = await mkdtemp(path.join(os.tmpdir(), 'ffmpeg-binary-lone-'));
  await fakeBinary(dir, 'ffmpeg');
  await fakeBinary(dir, 'ffprobe');
  await fakeBinary(lone, 'ffmpeg');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(lone, { recursive: true, force: true });
});

describe('which ffmpeg and ffprobe run', () => {
  it('ffmpeg: FFMPEG_PATH, then ffmpeg on the PATH (a system’s, Debian’s), then the bundled build', () => {
    expect(findFfmpeg({ FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg' }, dir)).toEqual({
      path: '/opt/ffmpeg/bin/ffmpeg',
      source: 'setting',
    });
    expect(findFfmpeg({}, ['/nonexistent', dir].join(path.delimiter))).toEqual({
      path: path.join(dir, 'ffmpeg'),
      source: 'path',
    });
    expect(findFfmpeg({}, '/nonexistent')).toEqual({
      path: bundledBinary('@ffmpeg-installer/ffmpeg', 'ffmpeg'),
      source: 'bundled',
    });
    expect(findFfmpeg({}, '/nonexistent').path).toMatch(/@ffmpeg-installer/);
  });

  it('ffprobe: FFPROBE_PATH, then the one beside FFMPEG_PATH, then ffprobe on the PATH, then the bundled build', () => {
    expect(findFfprobe({ FFPROBE_PATH: '/opt/probe', FFMPEG_PATH: path.join(dir, 'ffmpeg') }, dir)).toEqual({
      path: '/opt/probe',
      source: 'setting',
    });
    expect(findFfprobe({ FFMPEG_PATH: path.join(dir, 'ffmpeg') }, '/nonexistent')).toEqual({
      path: path.join(dir, 'ffprobe'),
      source: 'setting',
    });
    // No ffprobe beside that ffmpeg: the PATH's, else the bundled one.
    expect(findFfprobe({ FFMPEG_PATH: path.join(lone, 'ffmpeg') }, dir)).toEqual({
      path: path.join(dir, 'ffprobe'),
      source: 'path',
    });
    expect(findFfprobe({ FFMPEG_PATH: path.join(lone, 'ffmpeg') }, '/nonexistent').source).toBe('bundled');
    expect(findFfprobe({}, '/nonexistent').path).toMatch(/@ffprobe-installer/);
  });

  it('the start-up line names each binary, where it came from and its version', async () => {
    const facts = await describeMediaBinaries({ FFMPEG_PATH: path.join(dir, 'ffmpeg') });
    expect(facts).toEqual({
      ffmpeg: path.join(dir, 'ffmpeg'),
      ffmpeg_from: 'setting',
      ffmpeg_version: 'ffmpeg version 9.9-test',
      ffprobe: path.join(dir, 'ffprobe'),
      ffprobe_from: 'setting',
      ffprobe_version: 'ffprobe version 9.9-test',
      bundled: false,
    });
    const missing = await describeMediaBinaries({
      FFMPEG_PATH: '/nonexistent/ffmpeg',
      FFPROBE_PATH: '/nonexistent/ffprobe',
    });
    expect(missing.ffmpeg_version).toMatch(/^unknown \(/);
  });

  it('says when the bundled builds were made when they are the ones that run', async () => {
    const facts = await describeMediaBinaries({}, '/nonexistent');
    expect(facts).toMatchObject({ ffmpeg_from: 'bundled', ffprobe_from: 'bundled', bundled: true });
    // @ffmpeg-installer/ffmpeg 1.1.0 and @ffprobe-installer/ffprobe 2.1.2: their versions carry the day.
    expect(facts.bundled_built).toBe('ffmpeg built 2018-12-10, ffprobe built 2023-07-21');
    expect(facts.ffmpeg_version).toMatch(/^ffmpeg version N-\d+-g0e8eb07980-static/);
    const system = await describeMediaBinaries({ FFMPEG_PATH: path.join(dir, 'ffmpeg') });
    expect(system).not.toHaveProperty('bundled_built');
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
