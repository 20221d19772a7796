import { setImmediate as nextTurn } from 'node:timers/promises';
import { checkAborted, type EngineRunOptions, report } from './engine-run.ts';
import { type PreparedNote, prepareNote, renderNote, SAMPLE_RATE } from './music-instruments.ts';
import type { MusicPlan } from './music-plan.ts';
import type { NoteEvent } from './music-score.ts';
import { wavHeader } from './speech-wav.ts';

/** Frames per block: about 0.19 s of audio, a few milliseconds of work. */
const BLOCK = 8192;
const CHANNELS = 2;

/** Equal-power pan gains. */
const panGains = (pan: number) => {
  const angle = ((pan + 1) * Math.PI) / 4;
  return [Math.cos(angle), Math.sin(angle)] as const;
};

/** Loud peaks are rounded off instead of clipped. */
function limit(x: number): number {
  const size = Math.abs(x);
  if (size <= 0.8) return x;
  return Math.sign(x) * (0.8 + 0.2 * Math.tanh((size - 0.8) / 0.2));
}

/**
 * Renders the notes to a 44.1 kHz stereo 16-bit WAV of exactly `seconds` seconds, block by block: the
 * event loop gets a turn between blocks (HTTP stays responsive), and an abort stops at the next block.
 * Melody and harmony go through a ping-pong echo; the piece fades in over 10 ms and out over its last
 * seconds.
 */
export async function renderMusic(
  plan: MusicPlan,
  events: readonly NoteEvent[],
  seconds: number,
  options: EngineRunOptions & { progressFrom: number; progressTo: number },
): Promise<Buffer> {
  const frames = Math.round(seconds * SAMPLE_RATE);
  // Its own ArrayBuffer (offset 0), so the samples can be written through an aligned Int16Array.
  const wav = Buffer.from(new ArrayBuffer(44 + frames * CHANNELS * 2));
  wavHeader(SAMPLE_RATE, CHANNELS, frames * CHANNELS * 2).copy(wav, 0);
  // WAV is little-endian, as is every platform Node runs on.
  const samples = new Int16Array(wav.buffer, 44, frames * CHANNELS);
  const notes = events.map(prepareNote);
  const left = new Float32Array(BLOCK);
  const right = new Float32Array(BLOCK);
  const sendLeft = new Float32Array(BLOCK);
  const sendRight = new Float32Array(BLOCK);
  const scratch = new Float32Array(BLOCK);
  const echoFrames = Math.round(((60 / plan.tempo) * 0.75 * SAMPLE_RATE) | 0) || 1;
  const echoLeft = new Float32Array(echoFrames);
  const echoRight = new Float32Array(echoFrames);
  let echoAt = 0;
  const fadeIn = Math.round(0.01 * SAMPLE_RATE);
  const fadeOut = Math.min(Math.round(3 * SAMPLE_RATE), Math.round(frames * 0.2));
  let next = 0;
  let active: PreparedNote[] = [];

  for (let blockStart = 0; blockStart < frames; blockStart += BLOCK) {
    checkAborted(options.signal);
    const blockEnd = Math.min(frames, blockStart + BLOCK);
    const size = blockEnd - blockStart;
    left.fill(0);
    right.fill(0);
    sendLeft.fill(0);
    sendRight.fill(0);
    while (next < notes.length && notes[next]!.startFrame < blockEnd) active.push(notes[next++]!);
    active = active.filter((note) => note.endFrame > blockStart);

    for (const note of active) {
      const from = Math.max(blockStart, note.startFrame);
      const to = Math.min(blockEnd, note.endFrame);
      if (to <= from) continue;
      const count = to - from;
      scratch.fill(0, 0, count);
      renderNote(note, scratch, from - note.startFrame, count);
      const [gainLeft, gainRight] = panGains(note.event.pan);
      const at = from - blockStart;
      for (let i = 0; i < count; i++) {
        left[at + i]! += scratch[i]! * gainLeft;
        right[at + i]! += scratch[i]! * gainRight;
      }
      if (note.event.echo) {
        for (let i = 0; i < count; i++) {
          sendLeft[at + i]! += scratch[i]! * gainLeft;
          sendRight[at + i]! += scratch[i]! * gainRight;
        }
      }
    }

    for (let i = 0; i < size; i++) {
      // Ping-pong: each side's echo feeds the other.
      const fromLeft = echoLeft[echoAt]!;
      const fromRight = echoRight[echoAt]!;
      echoLeft[echoAt] = sendLeft[i]! + fromRight * 0.45;
      echoRight[echoAt] = sendRight[i]! + fromLeft * 0.45;
      if (++echoAt === echoFrames) echoAt = 0;
      const frame = blockStart + i;
      const fade = Math.min(1, frame / fadeIn, (frames - frame) / fadeOut);
      samples[frame * 2] = Math.round(limit((left[i]! + fromLeft * plan.echo) * fade) * 32767);
      samples[frame * 2 + 1] = Math.round(limit((right[i]! + fromRight * plan.echo) * fade) * 32767);
    }

    const done = blockEnd / frames;
    report(
      options,
      options.progressFrom + (options.progressTo - options.progressFrom) * done,
      'Synthesising audio',
    );
    await nextTurn();
  }
  return wav;
}
