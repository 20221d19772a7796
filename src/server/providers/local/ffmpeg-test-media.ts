import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ffmpegPath, ffprobePath, runFfmpeg } from './ffmpeg-binary.ts';
import { type MediaInfo, probeMedia } from './ffmpeg-probe.ts';

/** Test support: tiny media made with ffmpeg's lavfi sources, and probing of what the engine wrote. */

export const testFfmpeg = () => ffmpegPath({ FFMPEG_PATH: process.env.FFMPEG_PATH || undefined });
/** The ffprobe the server would pick in this environment. */
export const testFfprobe = () =>
  ffprobePath({
    FFMPEG_PATH: process.env.FFMPEG_PATH || undefined,
    FFPROBE_PATH: process.env.FFPROBE_PATH || undefined,
  });

const picture = (size: string, seconds: number, rate = 10) =>
  `testsrc=size=${size}:rate=${rate}:duration=${seconds}`;
const tone = (seconds: number, frequency = 440) => `sine=frequency=${frequency}:duration=${seconds}`;
const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

export interface TestMedia {
  /** 320x240, 10 fps, 2 s, H.264 with a 440 Hz AAC tone. */
  clip: string;
  /** 160x120, 10 fps, 1 s, H.264, no sound. */
  silent: string;
  /** 2 s of 440 Hz in a WAV. */
  wav: string;
  /** Not media at all. */
  garbage: string;
}

export async function makeTestMedia(dir: string): Promise<TestMedia> {
  const binary = testFfmpeg();
  const out = (name: string) => path.join(dir, name);
  await runFfmpeg(binary, [
    ...['-f', 'lavfi', '-i', picture('320x240', 2)],
    ...['-f', 'lavfi', '-i', tone(2)],
    ...h264,
    ...['-c:a', 'aac', '-shortest', out('clip.mp4')],
  ]);
  await runFfmpeg(binary, ['-f', 'lavfi', '-i', picture('160x120', 1), ...h264, out('silent.mp4')]);
  await runFfmpeg(binary, ['-f', 'lavfi', '-i', tone(2), '-c:a', 'pcm_s16le', out('tone.wav')]);
  await writeFile(out('garbage.mp4'), 'this is not a video, just some text\n'.repeat(20));
  return {
    clip: out('clip.mp4'),
    silent: out('silent.mp4'),
    wav: out('tone.wav'),
    garbage: out('garbage.mp4'),
  };
}

/** A longer clip (160x120, 25 fps) for runs that must still be busy when they are stopped. */
export async function makeLongClip(dir: string, seconds: number): Promise<string> {
  const file = path.join(dir, `long-${seconds}.mp4`);
  await runFfmpeg(testFfmpeg(), ['-f', 'lavfi', '-i', picture('160x120', seconds, 25), ...h264, file]);
  return file;
}

/** Probes bytes the engine returned (written next to the inputs first). */
export async function probeBytes(dir: string, name: string, data: Buffer): Promise<MediaInfo> {
  const file = path.join(dir, `probe-${Date.now()}-${name}`);
  await writeFile(file, data);
  return probeMedia(testFfmpeg(), file, name);
}
