import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUSPICIOUS_INSTRUCTIONS_WARNING, VideoAnalysisReport } from '../../../contract/video-analysis.ts';
import { MODELS } from '../../domain/catalog/models.ts';
import { findPocketsphinx } from '../../domain/catalog/pocketsphinx-setup.ts';
import { needsProgram, POCKETSPHINX } from '../../testing/optional-program.ts';
import { createAnalyzeJob, MAX_VIDEO_BYTES } from './analyze-job.ts';
import { closeOcr } from './analyze-ocr.ts';
import {
  type AnalyzeTestMedia,
  INJECTION,
  makeAnalyzeTestMedia,
  SPOKEN,
  TITLE,
} from './analyze-test-media.ts';
import { AbortError, EngineInputError } from './engine-run.ts';
import { contextOf, failure, urlOf } from './engine-test-support.ts';
import { testFfmpeg, testFfprobe } from './ffmpeg-test-media.ts';

const model = MODELS.find((m) => m.id === 'video-analyze')!;
const offer = model.offers[0]!;

let dir: string;
let tmpRoot: string;
let media: AnalyzeTestMedia;
const job = (pocketsphinx = () => findPocketsphinx()) =>
  createAnalyzeJob({ ffmpeg: testFfmpeg, ffprobe: testFfprobe, pocketsphinx, tmpRoot });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'analyze-job-test-'));
  tmpRoot = path.join(dir, 'jobs');
  await mkdir(tmpRoot);
  media = await makeAnalyzeTestMedia(dir);
});
afterAll(async () => {
  await closeOcr();
  await rm(dir, { recursive: true, force: true });
});

async function analyze(file: string, prompt?: string, engine = job()) {
  const { context, progress } = contextOf();
  const body = { video_url: urlOf(file), ...(prompt ? { prompt } : {}) };
  const result = await engine({ model, offer, body }, context);
  const first = result.outputs[0];
  if (first?.kind !== 'inline') throw new Error('expected the report inline in outputs[0]');
  return {
    result,
    report: VideoAnalysisReport.parse(first.data),
    progress,
  };
}

const wordsOf = (text: string) => text.toLowerCase().match(/[a-z']+/g) ?? [];

describe('video-analyze: red then blue', () => {
  let run: Awaited<ReturnType<typeof analyze>>;
  beforeAll(async () => {
    run = await analyze(media.redBlue);
  });

  it('finds the cut near 1 s: two scenes, two keyframes as JPEGs inside the report', async () => {
    const { report, result } = run;
    expect(report.scenes).toHaveLength(2);
    expect(report.scenes[0]!.start).toBe(0);
    expect(report.scenes[1]!.start).toBeCloseTo(1, 1);
    expect(report.scenes[1]!.end).toBeCloseTo(2, 1);
    expect(report.keyframes.map((k) => k.scene_index)).toEqual([0, 1]);
    // Spec 4.2: the report is the only output; no file is created.
    expect(result.outputs).toHaveLength(1);
    for (const keyframe of report.keyframes) {
      const jpeg = Buffer.from(keyframe.image.slice('data:image/jpeg;base64,'.length), 'base64');
      const metadata = await sharp(jpeg).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual([
        'jpeg',
        keyframe.width,
        keyframe.height,
      ]);
      expect(keyframe.width).toBe(240);
    }
    expect(result).toMatchObject({ billedUnits: { jobs: 1 }, providerStatus: 'succeeded' });
  });

  it('describes each scene by its colours', () => {
    const [red, blue] = run.report.visual_timeline;
    expect(red!.dominant_colors[0]).toMatchObject({ name: 'red' });
    expect(blue!.dominant_colors[0]).toMatchObject({ name: 'blue' });
    expect(red!.dominant_colors[0]!.share).toBeGreaterThan(0.9);
    expect(red!.brightness).toBeGreaterThan(0.1);
    expect(red!.brightness).toBeLessThan(0.4);
    expect(run.report.summary).toContain('2 scenes');
    expect(run.report.summary).toMatch(/red and blue|blue and red/);
  });

  it('reports the facts ffprobe gives', async () => {
    const { stdout } = await promisify(execFile)(testFfprobe(), [
      ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', media.redBlue],
    ]);
    const probed = JSON.parse(stdout) as {
      format: { duration: string; format_name: string };
      streams: Array<{ codec_name: string; width: number; height: number }>;
    };
    const { facts } = run.report;
    expect(facts.size_bytes).toBe((await stat(media.redBlue)).size);
    expect(facts.container).toBe(probed.format.format_name);
    expect(facts.duration_seconds).toBeCloseTo(Number(probed.format.duration), 3);
    expect(facts.video).toMatchObject({
      codec: probed.streams[0]!.codec_name,
      width: 320,
      height: 240,
      fps: 10,
      pixel_format: 'yuv420p',
      rotation: 0,
    });
    expect(facts.audio).toBeNull();
  });

  it('says why there is no transcript, and finds no text or instructions in plain colours', () => {
    expect(run.report.transcript).toBeNull();
    expect(run.report.transcript_unavailable_reason).toBe('The video has no sound.');
    expect(run.report.on_screen_text).toEqual([]);
    expect(run.report.suspicious_instructions).toEqual([]);
    expect(run.report.focus).toBeNull();
  });

  it('reports progress that only grows, stage by stage', () => {
    const fractions = run.progress.map(([fraction]) => fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    const messages = run.progress.map(([, message]) => message);
    expect(messages).toContain('Finding scene cuts');
    expect(messages.some((m) => m.startsWith('Reading frames'))).toBe(true);
  });
});

describe('video-analyze: slides with text and speech', () => {
  let run: Awaited<ReturnType<typeof analyze>>;
  beforeAll(async () => {
    run = await analyze(media.slides, 'What does the quarterly report say about the weather?');
  });

  it('reads the on-screen text with times and confidence', () => {
    const title = run.report.on_screen_text.find((entry) => entry.text.includes('QUARTERLY'));
    expect(title).toMatchObject({ text: TITLE });
    expect(title!.start).toBeLessThan(2);
    expect(title!.confidence).toBeGreaterThan(80);
    const injection = run.report.on_screen_text.find((entry) => entry.text.includes('PREVIOUS'));
    expect(injection?.start).toBeGreaterThanOrEqual(2);
    expect(run.report.visual_timeline[0]!.text).toContain(TITLE);
  });

  it('reports the on-screen order to an AI agent, with the fixed warning', () => {
    expect(run.report.suspicious_instructions).toContainEqual(
      expect.objectContaining({ source: 'on_screen_text', text: INJECTION }),
    );
    const entry = run.report.suspicious_instructions.find((s) => s.text === INJECTION)!;
    expect(entry.time).toBeGreaterThanOrEqual(2);
    expect(entry.reason).toContain('ignore');
    expect(run.report.suspicious_instructions_warning).toBe(SUSPICIOUS_INSTRUCTIONS_WARNING);
    expect(run.report.summary).toContain('suspicious_instructions');
  });

  it('transcribes the speech', (context) => {
    needsProgram(POCKETSPHINX, context);
    const transcript = run.report.transcript!;
    expect(run.report.transcript_unavailable_reason).toBeNull();
    const heard = new Set(wordsOf(transcript.text));
    const spoken = wordsOf(SPOKEN);
    expect(spoken.filter((word) => heard.has(word)).length / spoken.length).toBeGreaterThanOrEqual(0.6);
    expect(transcript.segments[0]!.start).toBeLessThan(1);
  });

  it('answers the focus prompt with the matching text and speech, with times', (context) => {
    needsProgram(POCKETSPHINX, context);
    const focus = run.report.focus!;
    expect(focus.keywords).toEqual(expect.arrayContaining(['quarterly', 'report', 'weather']));
    expect(focus.matches).toContainEqual(expect.objectContaining({ source: 'on_screen_text', text: TITLE }));
    expect(focus.matches.some((m) => m.source === 'transcript' && m.text.includes('weather'))).toBe(true);
    expect(focus.answer).toContain(TITLE);
  });

  it('leaves the transcript out with a reason when no recogniser is installed', async () => {
    const { report } = await analyze(
      media.slides,
      undefined,
      job(() => null),
    );
    expect(report.transcript).toBeNull();
    expect(report.transcript_unavailable_reason).toContain('pocketsphinx-en-us');
    expect(report.on_screen_text.some((entry) => entry.text === TITLE)).toBe(true);
  });
});

describe('video-analyze: answers the question asked', () => {
  // The question from issue #32, which the old engine answered with "Neither the on-screen text nor the
  // speech mentions 'text'".
  const QUESTION = 'What text appears, and what is said?';

  it('quotes the on-screen text and the speech in the summary and the focus', async (context) => {
    needsProgram(POCKETSPHINX, context);
    const { report } = await analyze(media.slides, QUESTION);
    const answer = report.focus!.answer;
    expect(answer).not.toContain('mentions');
    expect(answer).toMatch(/^The on-screen text reads “QUARTERLY REPORT 2026” \(seen (at|from) [\d.]+ s/);
    expect(answer).toContain('The speech says “');
    const said = answer.slice(answer.indexOf('The speech says'));
    const heard: string[] = wordsOf(said);
    expect(['weather', 'sunny', 'world'].filter((word) => heard.includes(word)).length).toBeGreaterThan(0);
    expect(report.summary.startsWith(answer)).toBe(true);
  });

  it('says plainly what it could not determine', async () => {
    const unheard = await analyze(
      media.slides,
      QUESTION,
      job(() => null),
    );
    expect(unheard.report.summary).toContain('The on-screen text reads “QUARTERLY REPORT 2026”');
    expect(unheard.report.summary).toContain('I could not determine what is said: No speech recogniser');
    const { report } = await analyze(media.redBlue, `${QUESTION} How many scenes are there?`);
    expect(report.focus!.answer).toBe(
      'No on-screen text was found. No speech was found: the video has no sound. It has 2 scenes, with cuts at 1 s.',
    );
    const dog = await analyze(media.redBlue, 'Is there a dog?');
    expect(dog.report.summary).toContain('I cannot identify objects, people or actions');
  });
});

describe('video-analyze: refusals and stopping', () => {
  it('refuses a video over 100 MB before writing anything', async () => {
    const { context } = contextOf();
    const big = {
      ...context,
      readInput: async () => ({ body: Buffer.allocUnsafe(MAX_VIDEO_BYTES + 1), contentType: 'video/mp4' }),
    };
    const error = await failure(job()({ model, offer, body: { video_url: 'https://in.test/big.mp4' } }, big));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('100 MB');
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('refuses a still picture and a file that is not media', async () => {
    const still = await failure(analyze(media.still));
    expect(still).toBeInstanceOf(EngineInputError);
    expect(still.message).toContain('not a video');
    const junk = path.join(dir, 'junk.mp4');
    await writeFile(junk, 'not a video at all\n'.repeat(40));
    const error = await failure(analyze(junk));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('video_url');
    expect(error.message).not.toContain(tmpRoot);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('stops ffmpeg, the recogniser and OCR when the signal aborts, leaving no temp dir', async () => {
    const controller = new AbortController();
    const { context, progress } = contextOf(controller.signal);
    const running = job()({ model, offer, body: { video_url: urlOf(media.long) } }, context);
    const poll = setInterval(() => {
      if (progress.some(([, message]) => message.startsWith('Reading frames')))
        controller.abort(new Error('stop'));
    }, 10);
    const error = await failure(running).finally(() => clearInterval(poll));
    expect(error).toBeInstanceOf(AbortError);
    // It stopped where it was, not after a full analysis: the run never reported its end.
    expect(progress.map(([, message]) => message)).not.toContain('Writing the report');
    expect(await readdir(tmpRoot)).toEqual([]);
    expect(childProcesses()).toEqual([]);
  });
});

/** Command lines of live child processes of this one (Linux /proc). */
function childProcesses(): string[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .flatMap((pid) => {
      try {
        const parent = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
        if (Number(parent) !== process.pid) return [];
        return [readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')];
      } catch {
        return [];
      }
    })
    .filter((cmdline) => /ffmpeg|ffprobe|pocketsphinx/.test(cmdline));
}
