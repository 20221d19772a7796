import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Transcript } from '../../../contract/transcript.ts';
import { MODELS } from '../../domain/catalog/models.ts';
import { findPocketsphinx, POCKETSPHINX_BINARY } from '../../domain/catalog/pocketsphinx-setup.ts';
import { needsProgram, POCKETSPHINX } from '../../testing/optional-program.ts';
import { AbortError, EngineInputError } from './engine-run.ts';
import { contextOf, failure, urlOf } from './engine-test-support.ts';
import { runFfmpeg } from './ffmpeg-binary.ts';
import { testFfmpeg } from './ffmpeg-test-media.ts';
import { createTranscribeJob } from './transcribe-job.ts';
import { speechWav } from './transcribe-test-speech.ts';

const model = MODELS.find((m) => m.id === 'local-pocketsphinx')!;
const offer = model.offers[0]!;
const SENTENCE = 'hello world this is a test. the weather today is sunny and warm.';

let dir: string;
let tmpRoot: string;
let speech: string;
let speechVideo: string;
let longSpeech: string;
let silentVideo: string;
const job = () =>
  createTranscribeJob({ ffmpeg: testFfmpeg, pocketsphinx: () => findPocketsphinx(), tmpRoot });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'transcribe-job-test-'));
  tmpRoot = path.join(dir, 'jobs');
  await mkdir(tmpRoot);
  speech = await speechWav(dir, 'speech', SENTENCE);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Media made only for the recogniser's tests. */
async function makeRecognitionMedia() {
  const ffmpeg = testFfmpeg();
  speechVideo = path.join(dir, 'speech.mp4');
  await runFfmpeg(ffmpeg, [
    ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=5', '-i', speech],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', speechVideo],
  ]);
  longSpeech = path.join(dir, 'long.wav');
  await runFfmpeg(ffmpeg, ['-stream_loop', '8', '-i', speech, '-c:a', 'pcm_s16le', longSpeech]);
  silentVideo = path.join(dir, 'silent.mp4');
  await runFfmpeg(ffmpeg, [
    ...['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=1'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', silentVideo],
  ]);
}

async function transcribe(file: string, language?: string, signal?: AbortSignal) {
  const { context, progress, reads } = contextOf(signal);
  const body = { model: 'local-pocketsphinx', audio_url: urlOf(file), ...(language ? { language } : {}) };
  const result = await job()({ model, offer, body }, context);
  const [json, vtt] = result.outputs;
  if (json?.kind !== 'inline' || vtt?.kind !== 'file')
    throw new Error('expected inline JSON then a VTT file');
  return { result, transcript: Transcript.parse(json.data), json, vtt, progress, reads };
}

const wordsOf = (text: string) => text.toLowerCase().match(/[a-z']+/g) ?? [];

/** Share of the expected words that were recognised (order aside: synthetic speech is not perfect). */
function overlap(recognised: string, expected: string): number {
  const heard = new Set(wordsOf(recognised));
  const wanted = wordsOf(expected);
  return wanted.filter((word) => heard.has(word)).length / wanted.length;
}

describe('pocketsphinx engine: before the recogniser', () => {
  it.each(['fr', 'pt-BR', 'eng-x'])('refuses language %s without reading the input', async (language) => {
    const { context, reads } = contextOf();
    const body = { audio_url: urlOf(speech), language };
    const error = await failure(job()({ model, offer, body }, context));
    expect(error).toBeInstanceOf(EngineInputError);
    expect(error.message).toContain('English only');
    expect(error.message).toContain(language);
    expect(reads).toEqual([]);
  });

  it('says what to install when the recogniser is missing', async () => {
    const missing = createTranscribeJob({ ffmpeg: testFfmpeg, pocketsphinx: () => null, tmpRoot });
    const { context } = contextOf();
    const error = await failure(missing({ model, offer, body: { audio_url: urlOf(speech) } }, context));
    expect(error.message).toContain('apt-get install pocketsphinx pocketsphinx-en-us');
  });
});

describe('pocketsphinx engine', () => {
  beforeEach((context) => needsProgram(POCKETSPHINX, context));
  beforeAll(async () => {
    if (POCKETSPHINX.installed()) await makeRecognitionMedia();
  });

  it('transcribes synthesised speech: most words, increasing times, WebVTT, minutes billed', async () => {
    const { transcript, json, vtt, result, progress } = await transcribe(speech, 'en-US');
    expect(json.mediaType).toBe('application/json');
    expect(overlap(transcript.text, SENTENCE)).toBeGreaterThanOrEqual(0.6);
    expect(transcript.language).toBe('en');
    expect(transcript.duration_seconds).toBeGreaterThan(3);
    expect(transcript.duration_seconds).toBeLessThan(6);

    const words = transcript.segments.flatMap((segment) => segment.words ?? []);
    expect(words.length).toBeGreaterThanOrEqual(8);
    for (const [index, word] of words.entries()) {
      expect(word.end).toBeGreaterThan(word.start);
      if (index > 0) expect(word.start).toBeGreaterThanOrEqual(words[index - 1]!.end);
      expect(word.confidence).toBeGreaterThanOrEqual(0);
      expect(word.confidence).toBeLessThanOrEqual(1);
    }
    expect(words.at(-1)!.end).toBeLessThanOrEqual(transcript.duration_seconds);
    for (const segment of transcript.segments) {
      expect(segment.text).toBe(segment.words!.map((w) => w.word).join(' '));
      expect([segment.start, segment.end]).toEqual([segment.words![0]!.start, segment.words!.at(-1)!.end]);
    }

    expect(vtt).toMatchObject({ mediaType: 'text/vtt', name: 'transcript.vtt' });
    const cues = vtt.data.toString('utf8');
    expect(cues.startsWith('WEBVTT\n\n1\n00:00:0')).toBe(true);
    expect(cues).toContain(transcript.segments[0]!.text);

    expect(result.billedUnits.minutes).toBeCloseTo(transcript.duration_seconds / 60, 5);
    const fractions = progress.map(([fraction]) => fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(progress.some(([, message]) => message.startsWith('Recognising speech'))).toBe(true);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('transcribes the sound of a video', async () => {
    const { transcript } = await transcribe(speechVideo);
    expect(overlap(transcript.text, SENTENCE)).toBeGreaterThanOrEqual(0.6);
    expect(transcript.duration_seconds).toBeGreaterThan(3);
  });

  it('refuses media without sound, and files that are not media', async () => {
    const silent = await failure(transcribe(silentVideo));
    expect(silent).toBeInstanceOf(EngineInputError);
    expect(silent.message).toContain('no sound');
    const junk = path.join(dir, 'junk.wav');
    await writeFile(junk, 'not audio'.repeat(50));
    expect(await failure(transcribe(junk))).toBeInstanceOf(EngineInputError);
    expect(await readdir(tmpRoot)).toEqual([]);
  });

  it('kills the recogniser when the signal aborts and leaves no temp dir', async () => {
    const controller = new AbortController();
    const { context, progress } = contextOf(controller.signal);
    const running = job()({ model, offer, body: { audio_url: urlOf(longSpeech) } }, context);
    const poll = setInterval(() => {
      if (progress.some(([, message]) => message.startsWith('Recognising')))
        controller.abort(new Error('stop'));
    }, 20);
    const error = await failure(running).finally(() => clearInterval(poll));
    expect(error).toBeInstanceOf(AbortError);
    // It stopped where it was, not after a full recognition: the run never reported its end.
    expect(progress.map(([, message]) => message)).not.toContain('Done');
    expect(await readdir(tmpRoot)).toEqual([]);
    expect(childProcessesRunning(POCKETSPHINX_BINARY)).toEqual([]);
  });
});

/** Pids of live child processes of this one running `binary` (Linux /proc). */
function childProcessesRunning(binary: string): string[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((pid) => /^\d+$/.test(pid))
    .filter((pid) => {
      try {
        const parent = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1];
        return (
          Number(parent) === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(binary)
        );
      } catch {
        return false;
      }
    });
}
