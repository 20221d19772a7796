import { readFile, rm } from 'node:fs/promises';
import type { Scene } from '../../../contract/video-analysis.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';

/** A frame to look at: the keyframe of a scene, or an extra sample read for on-screen text. */
export interface FrameSample {
  time: number;
  sceneIndex: number;
  keyframe: boolean;
}

/** Extra samples for text come at most this often (more sparsely in long videos)... */
const TEXT_STEP_SECONDS = 3;
/** ...and all samples together stay under this count, so a long video still settles quickly. */
const MAX_SAMPLES = 60;
/** Grabbed frames are at most this wide: enough for OCR of captions, small enough to be quick. */
export const FRAME_MAX_WIDTH = 1280;

const round = (seconds: number) => Number(seconds.toFixed(3));

/**
 * One keyframe per scene (its middle: away from fades at the cuts), plus samples every few seconds for
 * text that shows only during part of a long scene.
 */
export function planSamples(scenes: readonly Scene[], duration: number): FrameSample[] {
  const last = Math.max(0, duration - 0.05);
  const keyframes = scenes.map((scene) => ({
    time: round(Math.min(last, (scene.start + scene.end) / 2)),
    sceneIndex: scene.index,
    keyframe: true,
  }));
  const room = Math.max(0, MAX_SAMPLES - keyframes.length);
  const step = Math.max(TEXT_STEP_SECONDS, duration / Math.max(1, room));
  const extra: FrameSample[] = [];
  for (let time = step / 2; time < duration && extra.length < room; time += step) {
    if (keyframes.some((k) => Math.abs(k.time - time) < step / 2)) continue;
    const scene = scenes.find((s) => time >= s.start && time < s.end) ?? scenes.at(-1);
    extra.push({ time: round(Math.min(last, time)), sceneIndex: scene?.index ?? 0, keyframe: false });
  }
  return [...keyframes, ...extra].sort((a, b) => a.time - b.time);
}

/**
 * The frame at `time` as a PNG (at most FRAME_MAX_WIDTH wide, upright), or null when there is no frame
 * there (a time past the last frame).
 */
export async function grabFrame(
  ffmpeg: string,
  file: string,
  time: number,
  out: string,
  signal?: AbortSignal,
): Promise<Buffer | null> {
  await runFfmpeg(
    ffmpeg,
    [
      ...['-ss', time.toFixed(3), '-protocol_whitelist', 'file', '-i', file],
      ...['-map', '0:v:0', '-frames:v', '1', '-an', '-sn', '-dn'],
      ...['-vf', `scale='min(${FRAME_MAX_WIDTH},iw)':-2`, '-c:v', 'png', '-f', 'image2', out],
    ],
    { signal },
  );
  const data = await readFile(out).catch(() => null);
  await rm(out, { force: true });
  return data && data.length > 0 ? data : null;
}

/**
 * Runs `task` over `items`, `limit` at a time, results in order. On a failure no new task starts and the
 * first error is thrown once the running ones have settled (no child process outlives the call).
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (!failure && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw (failure as { error: unknown }).error;
  return results;
}
