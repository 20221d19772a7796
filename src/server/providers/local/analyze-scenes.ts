import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Scene } from '../../../contract/video-analysis.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';

/** A frame's scene score: how different it is from the previous frame, 0..1. */
export interface FrameScore {
  time: number;
  score: number;
}

/** Frames that differ this much from the previous one start a new scene. */
export const CUT_THRESHOLD = 0.3;
/** Cuts closer than this to each other (or to either end) are flashes, not scenes. */
const MIN_SCENE_SECONDS = 0.5;
/** The report stays readable (and keyframes few): only the strongest cuts are kept. */
export const MAX_SCENES = 40;

/** Escapes a value for an ffmpeg filter option inside a filtergraph (two levels of escaping). */
export function filterValue(value: string): string {
  const option = value.replace(/[\\':]/g, '\\$&');
  return option.replace(/[\\'[\],;]/g, '\\$&');
}

/**
 * Reads what the `metadata=mode=print` filter wrote: `frame:N pts:P pts_time:T` then the frame's
 * `lavfi.scene_score=S`.
 */
export function parseSceneScores(text: string): FrameScore[] {
  const frames: FrameScore[] = [];
  let time: number | null = null;
  for (const line of text.split(/\r?\n/)) {
    const frame = /pts_time:(-?\d+(?:\.\d+)?)/.exec(line);
    if (frame) {
      time = Number(frame[1]);
      continue;
    }
    const score = /^lavfi\.scene_score=(\d+(?:\.\d+)?)/.exec(line);
    if (score && time !== null) {
      frames.push({ time, score: Number(score[1]) });
      time = null;
    }
  }
  return frames;
}

/**
 * Scores every frame of the first video stream (downscaled: cuts do not need detail). Resolves with all
 * frames in order; the last one also tells the length when the container does not.
 */
export async function scoreFrames(
  ffmpeg: string,
  file: string,
  workDir: string,
  durationSeconds: number | null,
  options: { signal?: AbortSignal; onProgress?: (fraction: number) => void },
): Promise<FrameScore[]> {
  const scores = path.join(workDir, 'scene-scores.txt');
  await runFfmpeg(
    ffmpeg,
    [
      ...['-protocol_whitelist', 'file', '-i', file, '-map', '0:v:0', '-an', '-sn', '-dn'],
      ...['-vf', `scale=320:-2,select='gte(scene,0)',metadata=mode=print:file=${filterValue(scores)}`],
      ...['-f', 'null', '-'],
    ],
    { signal: options.signal, expectedSeconds: durationSeconds, onProgress: options.onProgress },
  );
  return parseSceneScores(await readFile(scores, 'utf8').catch(() => ''));
}

/**
 * Scenes from frame scores: a cut where the score passes CUT_THRESHOLD, keeping the strongest cuts at
 * least MIN_SCENE_SECONDS apart, at most MAX_SCENES scenes. Scenes cover 0..duration without gaps.
 */
export function scenesFrom(frames: readonly FrameScore[], duration: number): Scene[] {
  const candidates = frames
    .filter(
      (f) => f.score > CUT_THRESHOLD && f.time >= MIN_SCENE_SECONDS && f.time <= duration - MIN_SCENE_SECONDS,
    )
    .sort((a, b) => b.score - a.score || a.time - b.time);
  const cuts: number[] = [];
  for (const candidate of candidates) {
    if (cuts.length >= MAX_SCENES - 1) break;
    if (cuts.every((time) => Math.abs(time - candidate.time) >= MIN_SCENE_SECONDS)) cuts.push(candidate.time);
  }
  const bounds = [0, ...cuts.sort((a, b) => a - b), duration];
  return bounds.slice(1).map((end, index) => ({
    index,
    start: round(bounds[index]!),
    end: round(end),
  }));
}

const round = (seconds: number) => Number(seconds.toFixed(3));
