import { describe, expect, it } from 'vitest';
import { EngineInputError } from './engine-run.ts';
import {
  containerOf,
  type Media,
  mediaTypeOf,
  planConcat,
  planResize,
  planStep,
} from './ffmpeg-operations.ts';
import type { MediaInfo } from './ffmpeg-probe.ts';

const source = { width: 320, height: 240 };

describe('planResize', () => {
  it.each([
    [
      { width: 160, height: 160, fit: 'cover' },
      true,
      [160, 160],
      ['scale=213:160', 'crop=160:160', 'setsar=1'],
    ],
    [{ width: 160, height: 160, fit: 'contain' }, true, [160, 120], ['scale=160:120', 'setsar=1']],
    [{ width: 100, height: 50, fit: 'stretch' }, true, [100, 50], ['scale=100:50', 'setsar=1']],
    [{ width: 101, height: 51, fit: 'stretch' }, true, [100, 50], ['scale=100:50', 'setsar=1']],
    [{ width: 101, height: 51, fit: 'stretch' }, false, [101, 51], ['scale=101:51', 'setsar=1']],
    [{ width: 100, fit: 'cover' }, true, [100, 76], ['scale=100:76', 'setsar=1']],
    [{ width: 100, fit: 'cover' }, false, [100, 75], ['scale=100:75', 'setsar=1']],
    [{ height: 60, fit: 'contain' }, true, [80, 60], ['scale=80:60', 'setsar=1']],
    [
      { width: 90, height: 200, fit: 'cover' },
      false,
      [90, 200],
      ['scale=267:200', 'crop=90:200', 'setsar=1'],
    ],
    [{ width: 90, height: 200, fit: 'contain' }, false, [90, 68], ['scale=90:68', 'setsar=1']],
  ] as const)('%j (even %s) → %j', (op, even, size, filters) => {
    const plan = planResize(source, op, even);
    expect([plan.width, plan.height]).toEqual(size);
    expect(plan.filters).toEqual(filters);
  });

  it('never goes below 2 pixels for H.264', () => {
    const plan = planResize({ width: 4000, height: 10 }, { width: 100, fit: 'cover' }, true);
    expect([plan.width, plan.height]).toEqual([100, 2]);
  });
});

const info = (over: Partial<MediaInfo>): MediaInfo => ({
  format: 'mov,mp4,m4a,3gp,3g2,mj2',
  durationSeconds: 2,
  video: { codec: 'h264', width: 320, height: 240, fps: 10 },
  audio: { codec: 'aac', sampleRate: 44100, channels: 'mono' },
  ...over,
});
const media = (over: Partial<MediaInfo>, label = 'files[0]'): Media => {
  const i = info(over);
  return { file: `/tmp/x/${label}`, label, info: i, container: containerOf(i) };
};

describe('containers', () => {
  it('keeps what the file already is', () => {
    expect(containerOf(info({}))).toBe('mp4');
    expect(containerOf(info({ video: null }))).toBe('m4a');
    const vp9 = { codec: 'vp9', width: 1, height: 1, fps: 1 };
    const opus = { codec: 'opus', sampleRate: 48000, channels: 'mono' };
    expect(containerOf(info({ format: 'matroska,webm', video: vp9, audio: opus }))).toBe('webm');
    // H.264 or AAC in Matroska is not WebM.
    expect(containerOf(info({ format: 'matroska,webm', video: vp9 }))).toBe('mkv');
    expect(containerOf(info({ format: 'matroska,webm' }))).toBe('mkv');
    expect(containerOf(info({ format: 'mp3', video: null }))).toBe('mp3');
    expect(containerOf(info({ format: 'png_pipe', audio: null }))).toBe('png');
    expect(
      containerOf(info({ format: 'jpeg_pipe', video: { codec: 'mjpeg', width: 1, height: 1, fps: 1 } })),
    ).toBe('jpg');
    expect(containerOf(info({ format: 'gif' }))).toBe('gif');
    expect(containerOf(info({ format: 'avi' }))).toBe('mp4');
  });

  it('names media types, sound-only variants included', () => {
    expect(mediaTypeOf('mp4', true)).toBe('video/mp4');
    expect(mediaTypeOf('mp4', false)).toBe('audio/mp4');
    expect(mediaTypeOf('webm', true)).toBe('video/webm');
    expect(mediaTypeOf('mp3', false)).toBe('audio/mpeg');
    expect(mediaTypeOf('wav', false)).toBe('audio/wav');
    expect(mediaTypeOf('jpg', true)).toBe('image/jpeg');
    expect(mediaTypeOf('png', true)).toBe('image/png');
    expect(mediaTypeOf('gif', true)).toBe('image/gif');
  });
});

describe('planStep and planConcat', () => {
  it('never builds a shell line: every input is a whitelisted local file', () => {
    const step = planStep({ op: 'resize', width: 100, fit: 'cover' }, media({}));
    expect(step.args.slice(0, 4)).toEqual(['-protocol_whitelist', 'file', '-i', '/tmp/x/files[0]']);
    expect(step.args).toContain('libx264');
    expect(step.container).toBe('mp4');
  });

  it('trims with an input seek and a length', () => {
    const step = planStep({ op: 'trim', start: 0.5, end: 1.5 }, media({}));
    expect(step.args.slice(0, 6)).toEqual([
      '-ss',
      '0.500',
      '-protocol_whitelist',
      'file',
      '-i',
      '/tmp/x/files[0]',
    ]);
    expect(step.args.slice(6, 8)).toEqual(['-t', '1.000']);
    expect(step.expectedSeconds).toBe(1);
  });

  it('refuses what cannot work before starting ffmpeg', () => {
    expect(() => planStep({ op: 'gif', fps: 10, width: 100 }, media({ video: null }))).toThrow(
      EngineInputError,
    );
    expect(() => planStep({ op: 'trim', start: 0, duration: 1 }, media({ format: 'png_pipe' }))).toThrow(
      'still image',
    );
    expect(() => planConcat([media({}), media({ video: null }, 'files[1]')])).toThrow(
      'files[1] has no picture',
    );
  });

  it('joins with the concat filter, adding silence where a file has none', () => {
    const step = planConcat([media({}), media({ audio: null, durationSeconds: 1 }, 'files[1]')]);
    const graph = step.args[step.args.indexOf('-filter_complex') + 1];
    expect(graph).toContain('anullsrc=channel_layout=stereo:sample_rate=48000,atrim=duration=1.000');
    expect(graph).toContain('[v0][a0][v1][a1]concat=n=2:v=1:a=1[v][a]');
    expect(step).toMatchObject({ container: 'mp4', expectedSeconds: 3 });
  });
});
