import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Transcript } from '../../../contract/transcript.ts';
import {
  type Keyframe,
  SUSPICIOUS_INSTRUCTIONS_WARNING,
  type TimelineEntry,
  type VideoAnalysisReport,
  type VideoFacts,
} from '../../../contract/video-analysis.ts';
import {
  POCKETSPHINX_INSTALL_HINT,
  type PocketsphinxSetup,
} from '../../domain/catalog/pocketsphinx-setup.ts';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { probeVideoFacts } from './analyze-ffprobe.ts';
import { type FrameSample, grabFrame, mapLimit, planSamples } from './analyze-frames.ts';
import { type OcrLine, readTextLines } from './analyze-ocr.ts';
import { describePicture, thumbnail } from './analyze-picture.ts';
import { summaryFor } from './analyze-question.ts';
import { scenesFrom, scoreFrames } from './analyze-scenes.ts';
import type { SummaryInput } from './analyze-summary.ts';
import { findSuspicious, type Passage } from './analyze-suspicious.ts';
import { collectOnScreenText, isMeaningfulLine } from './analyze-text.ts';
import { AbortError, checkAborted, EngineInputError } from './engine-run.ts';
import type { LocalEngine } from './local-provider.ts';
import { transcribeMedia } from './transcribe-audio.ts';

export interface AnalyzeJobOptions {
  /** The ffmpeg binary (resolved on first use): see ffmpegPath. */
  ffmpeg: () => string;
  /** The ffprobe binary: see ffprobePath. */
  ffprobe: () => string;
  /** The speech recogniser, or null when it is not installed: see findPocketsphinx. */
  pocketsphinx: () => PocketsphinxSetup | null;
  /** Where each job's temp dir is made (default the system's). */
  tmpRoot?: string;
}

/** Spec 4.2: videos up to 100 MB. */
export const MAX_VIDEO_BYTES = 100 * 1024 * 1024;
/**
 * Speech is recognised at about a third of real time: only the start of long videos is transcribed, so an
 * analysis still settles in well under a minute.
 */
export const TRANSCRIPT_MAX_SECONDS = 120;
/** Frames grabbed at once (OCR itself runs one frame at a time on the shared worker). */
const FRAME_CONCURRENCY = 3;

const READ_END = 0.05;
const WORK_START = 0.1;
const WORK_END = 0.97;
/** Share of the visual work for scoring frames; grabbing, describing and reading them takes the rest. */
const SCORING = 0.3;

interface SampleResult {
  sample: FrameSample;
  lines: OcrLine[];
  keyframe: {
    data: Buffer;
    width: number;
    height: number;
    described: Awaited<ReturnType<typeof describePicture>>;
  } | null;
}

interface Visuals {
  facts: VideoFacts;
  duration: number;
  scenes: ReturnType<typeof scenesFrom>;
  samples: SampleResult[];
}

/**
 * The local `video-analyze` engine (`POST /video/analyze`): facts (ffprobe), scene cuts and a keyframe per
 * scene (ffmpeg), colours (sharp), on-screen text (tesseract.js, offline), speech (PocketSphinx when
 * installed), a summary, an optional focus on `prompt`, and passages that read like instructions to an AI
 * agent. The report is outputs[0] (inline JSON, see VideoAnalysisReport) and the only output: spec 4.2
 * says an analysis creates no file, so keyframes travel in the report as small JPEG data: URIs.
 */
export function createAnalyzeJob(options: AnalyzeJobOptions): LocalEngine {
  return async (input, context): Promise<RunResult> => {
    const { video_url: url, prompt } = input.body;
    if (typeof url !== 'string' || !url) throw new EngineInputError('video_url is required.');
    const focusPrompt = typeof prompt === 'string' && prompt.trim() ? prompt.trim() : null;
    const ffmpeg = options.ffmpeg();
    checkAborted(context.signal);

    context.progress(0, 'Reading the video');
    // The fetcher stops at the limit, so a huge video is refused without being read whole.
    const { body } = await context.readInput(url, { maxBytes: MAX_VIDEO_BYTES });
    if (body.length > MAX_VIDEO_BYTES) {
      throw new EngineInputError(
        `video_url is ${(body.length / 1024 / 1024).toFixed(1)} MB; videos up to 100 MB can be analyzed.`,
      );
    }
    checkAborted(context.signal);
    const dir = await mkdtemp(path.join(options.tmpRoot ?? os.tmpdir(), 'analyze-job-'));
    // Stops both halves when the job is cancelled or when either half fails.
    const inner = new AbortController();
    const cancel = () => inner.abort(context.signal.reason);
    context.signal.addEventListener('abort', cancel, { once: true });
    try {
      const file = path.join(dir, 'input');
      await writeFile(file, body);
      context.progress(READ_END, 'Reading the facts of the video');
      const facts = await probeVideoFacts(options.ffprobe(), file, body.length, 'video_url', inner.signal);

      const pocketsphinx = facts.audio ? options.pocketsphinx() : null;
      const speechShare = pocketsphinx ? 0.4 : 0;
      const done = { visual: 0, speech: 0 };
      let reported = 0;
      const progress = (part: keyof typeof done, fraction: number, message: string) => {
        done[part] = fraction;
        const overall = (1 - speechShare) * done.visual + speechShare * done.speech;
        reported = Math.max(reported, WORK_START + (WORK_END - WORK_START) * overall);
        context.progress(reported, message);
      };
      context.progress(WORK_START, 'Finding scene cuts');

      const guard = <T>(work: Promise<T>) =>
        work.catch((error: unknown) => {
          inner.abort(error);
          throw error;
        });
      const [visuals, speech] = await Promise.allSettled([
        guard(analyzeVisuals(ffmpeg, file, dir, facts, inner.signal, (f, m) => progress('visual', f, m))),
        guard(
          transcribeSpeech(ffmpeg, file, dir, facts, pocketsphinx, inner.signal, (f, m) =>
            progress('speech', f, m),
          ),
        ),
      ]);
      if (context.signal.aborted) throw new AbortError(context.signal.reason);
      if (visuals.status === 'rejected') throw visuals.reason;
      if (speech.status === 'rejected') throw speech.reason;

      context.progress(WORK_END, 'Writing the report');
      const report = buildReport(visuals.value, speech.value, focusPrompt);
      return {
        outputs: [{ kind: 'inline', mediaType: 'application/json', data: report }],
        billedUnits: { jobs: 1 },
        providerStatus: 'succeeded',
      };
    } finally {
      context.signal.removeEventListener('abort', cancel);
      await rm(dir, { recursive: true, force: true });
    }
  };
}

async function analyzeVisuals(
  ffmpeg: string,
  file: string,
  dir: string,
  probed: VideoFacts,
  signal: AbortSignal,
  progress: (fraction: number, message: string) => void,
): Promise<Visuals> {
  const frames = await scoreFrames(ffmpeg, file, dir, probed.duration_seconds, {
    signal,
    onProgress: (fraction) => progress(SCORING * fraction, 'Finding scene cuts'),
  });
  const last = frames.at(-1);
  if (!last) throw new EngineInputError('video_url has no frames ffmpeg can decode.');
  // Containers written while recording (WebM from a browser) may not say how long they are.
  const duration = probed.duration_seconds ?? last.time + 1 / (probed.video?.fps ?? 25);
  const facts = { ...probed, duration_seconds: Number(duration.toFixed(3)) };
  const scenes = scenesFrom(frames, duration);
  const planned = planSamples(scenes, duration);

  let finished = 0;
  const samples = await mapLimit(planned, FRAME_CONCURRENCY, async (sample, index): Promise<SampleResult> => {
    checkAborted(signal);
    const png = await grabFrame(ffmpeg, file, sample.time, path.join(dir, `frame-${index}.png`), signal);
    if (!png && sample.keyframe) {
      throw new EngineInputError(`video_url has no readable frame at ${sample.time.toFixed(1)} s.`);
    }
    const keyframe =
      png && sample.keyframe ? { ...(await thumbnail(png)), described: await describePicture(png) } : null;
    checkAborted(signal);
    const lines = png ? await readTextLines(png) : [];
    finished += 1;
    progress(
      SCORING + ((1 - SCORING) * finished) / planned.length,
      `Reading frames: ${finished} of ${planned.length}`,
    );
    return { sample, lines, keyframe };
  });
  return { facts, duration, scenes, samples };
}

type Speech = { transcript: Transcript; reason: null } | { transcript: null; reason: string };

async function transcribeSpeech(
  ffmpeg: string,
  file: string,
  dir: string,
  facts: VideoFacts,
  pocketsphinx: PocketsphinxSetup | null,
  signal: AbortSignal,
  progress: (fraction: number, message: string) => void,
): Promise<Speech> {
  if (!facts.audio) return { transcript: null, reason: 'The video has no sound.' };
  if (!pocketsphinx) {
    return {
      transcript: null,
      reason: `No speech recogniser is installed on this server. ${POCKETSPHINX_INSTALL_HINT}`,
    };
  }
  try {
    const transcript = await transcribeMedia({
      ffmpeg,
      pocketsphinx,
      file,
      workDir: dir,
      durationSeconds: facts.duration_seconds,
      maxSeconds: TRANSCRIPT_MAX_SECONDS,
      signal,
      onProgress: progress,
    });
    return { transcript, reason: null };
  } catch (error) {
    if (signal.aborted) throw error;
    // The picture analysis is still worth having: say why the speech is missing instead of failing.
    return { transcript: null, reason: `Speech recognition failed: ${(error as Error).message}` };
  }
}

function buildReport(visuals: Visuals, speech: Speech, prompt: string | null): VideoAnalysisReport {
  const { facts, scenes, samples } = visuals;
  const onScreenText = collectOnScreenText(
    samples.map(({ sample, lines }) => ({ time: sample.time, lines })),
  );

  const keyframes: Keyframe[] = [];
  const timeline: TimelineEntry[] = [];
  for (const scene of scenes) {
    const result = samples.find((s) => s.sample.keyframe && s.sample.sceneIndex === scene.index);
    const keyframe = result?.keyframe;
    if (!result || !keyframe) continue;
    keyframes.push({
      scene_index: scene.index,
      time: result.sample.time,
      image: `data:image/jpeg;base64,${keyframe.data.toString('base64')}`,
      width: keyframe.width,
      height: keyframe.height,
    });
    timeline.push({
      scene_index: scene.index,
      start: scene.start,
      end: scene.end,
      ...keyframe.described,
      text: onScreenText
        .filter((entry) => entry.start < scene.end && entry.end >= scene.start)
        .map((entry) => entry.text),
    });
  }

  // Whole lines first, then each frame's lines together (an order split over two lines), then speech.
  const segments = speech.transcript?.segments ?? [];
  const passages: Passage[] = [
    ...onScreenText.map((entry) => ({
      source: 'on_screen_text' as const,
      time: entry.start,
      text: entry.text,
    })),
    ...samples.map(({ sample, lines }) => ({
      source: 'on_screen_text' as const,
      time: sample.time,
      text: lines
        .filter(isMeaningfulLine)
        .map((line) => line.text)
        .join(' '),
    })),
    ...segments.map((segment) => ({
      source: 'transcript' as const,
      time: segment.start,
      text: segment.text,
    })),
    ...segments.slice(1).map((segment, index) => ({
      source: 'transcript' as const,
      time: segments[index]!.start,
      text: `${segments[index]!.text} ${segment.text}`,
    })),
  ];
  const suspicious = findSuspicious(passages);

  const input: SummaryInput = {
    facts,
    scenes,
    timeline,
    onScreenText,
    transcript: speech.transcript,
    transcriptUnavailableReason: speech.reason,
    transcriptMaxSeconds: TRANSCRIPT_MAX_SECONDS,
    suspicious,
  };
  const { summary, focus } = summaryFor(input, prompt);
  const report: VideoAnalysisReport = {
    summary,
    focus,
    facts,
    scenes,
    keyframes,
    visual_timeline: timeline,
    on_screen_text: onScreenText,
    transcript: speech.transcript,
    transcript_unavailable_reason: speech.reason,
    suspicious_instructions: suspicious,
    suspicious_instructions_warning: SUSPICIOUS_INSTRUCTIONS_WARNING,
  };
  return report;
}
