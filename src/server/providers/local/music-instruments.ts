import { hash2 } from './music-random.ts';
import type { Instrument, NoteEvent } from './music-score.ts';

/*
 * The instruments: additive and FM synthesis from a sine table, and noise drums. A note is rendered in
 * any slice (`offset` samples after its start): phases and decays are computed from the offset, so audio
 * rendered in blocks is the same whatever the block size.
 */

export const SAMPLE_RATE = 44_100;
const TABLE_BITS = 13;
const TABLE_SIZE = 1 << TABLE_BITS;
const SINE = Float32Array.from({ length: TABLE_SIZE }, (_, i) => Math.sin((2 * Math.PI * i) / TABLE_SIZE));
/** Partials above this would alias. */
const MAX_PARTIAL_HZ = 18_000;

interface Additive {
  kind: 'additive';
  /** [frequency ratio, amplitude, decay per second] */
  partials: ReadonlyArray<readonly [number, number, number]>;
}
interface Fm {
  kind: 'fm';
  ratio: number;
  index: number;
  indexDecay: number;
  decay: number;
}
type Voice = (Additive | Fm) & {
  /** Seconds. */
  attack: number;
  /** Seconds of fade after the note's length. */
  release: number;
  gain: number;
};

const saw = (count: number, decay: number, detune = 1): Array<[number, number, number]> =>
  Array.from({ length: count }, (_, k) => [(k + 1) * detune, 1 / (k + 1), decay * (1 + k * 0.3)]);

const VOICES: Record<Exclude<Instrument, 'kick' | 'snare' | 'hat'>, Voice> = {
  piano: {
    kind: 'additive',
    partials: [1, 2, 3, 4, 5, 6].map(
      (k) => [k * (1 + 0.0004 * k * k), 0.9 / k ** 1.4, 1.2 + k * 0.9] as const,
    ),
    attack: 0.004,
    release: 0.35,
    gain: 0.3,
  },
  bell: {
    kind: 'fm',
    ratio: 3.5,
    index: 2.2,
    indexDecay: 1.8,
    decay: 1.1,
    attack: 0.002,
    release: 1.6,
    gain: 0.22,
  },
  organ: {
    kind: 'additive',
    partials: [
      [0.5, 0.5, 0],
      [1, 0.8, 0],
      [2, 0.5, 0],
      [3, 0.25, 0],
      [4, 0.2, 0],
    ],
    attack: 0.02,
    release: 0.06,
    gain: 0.075,
  },
  strings: {
    kind: 'additive',
    partials: [...saw(6, 0), ...saw(4, 0, 1.004)],
    attack: 0.25,
    release: 0.4,
    gain: 0.055,
  },
  pad: {
    kind: 'additive',
    partials: [
      [1, 1, 0],
      [1.006, 0.8, 0],
      [2, 0.3, 0],
      [2.997, 0.12, 0],
    ],
    attack: 0.6,
    release: 0.8,
    gain: 0.08,
  },
  pluck: {
    kind: 'additive',
    partials: [1, 2, 3, 4, 5].map((k) => [k, 1 / k, 3 + k * 2.5] as const),
    attack: 0.002,
    release: 0.3,
    gain: 0.3,
  },
  flute: {
    kind: 'additive',
    partials: [
      [1, 1, 0.2],
      [2, 0.18, 0.3],
      [3, 0.06, 0.4],
    ],
    attack: 0.06,
    release: 0.1,
    gain: 0.2,
  },
  synth: {
    kind: 'additive',
    partials: [...saw(8, 0.8), ...saw(3, 0.8, 1.006)],
    attack: 0.008,
    release: 0.12,
    gain: 0.12,
  },
  bass: {
    kind: 'additive',
    partials: [
      [1, 1, 1.2],
      [2, 0.45, 2.5],
      [3, 0.15, 4],
    ],
    attack: 0.006,
    release: 0.08,
    gain: 0.38,
  },
};

/** Seconds the drums ring. */
const DRUM_SECONDS = { kick: 0.45, snare: 0.25, hat: 0.09 } as const;

/** A note ready to render: its frames and pitch worked out once. */
export interface PreparedNote {
  event: NoteEvent;
  /** Its index in the piece: seeds its noise. */
  id: number;
  startFrame: number;
  /** First frame after its last sound (release included). */
  endFrame: number;
  lengthFrames: number;
  frequency: number;
}

export function prepareNote(event: NoteEvent, id: number): PreparedNote {
  const startFrame = Math.max(0, Math.round(event.start * SAMPLE_RATE));
  const seconds =
    event.instrument === 'kick' || event.instrument === 'snare' || event.instrument === 'hat'
      ? DRUM_SECONDS[event.instrument]
      : event.length + VOICES[event.instrument].release;
  return {
    event,
    id,
    startFrame,
    endFrame: startFrame + Math.ceil(seconds * SAMPLE_RATE),
    lengthFrames: Math.round(event.length * SAMPLE_RATE),
    frequency: 440 * 2 ** ((event.midi - 69) / 12),
  };
}

/** Writes samples `offset .. offset + count` of the note (counted from its start) to `out[0 .. count]`, zeroed by the caller. */
export function renderNote(note: PreparedNote, out: Float32Array, offset: number, count: number): void {
  const { instrument, velocity } = note.event;
  if (instrument === 'kick') kick(out, offset, count, velocity * 0.6);
  else if (instrument === 'snare') snare(note.id, out, offset, count, velocity * 0.32);
  else if (instrument === 'hat') hat(note.id, out, offset, count, velocity * 0.1);
  else {
    const voice = VOICES[instrument];
    if (voice.kind === 'additive') additive(voice, note.frequency, out, offset, count);
    else fm(voice, note.frequency, out, offset, count);
    envelope(voice, note.lengthFrames, out, offset, count, velocity * voice.gain);
  }
}

function additive(voice: Additive, frequency: number, out: Float32Array, offset: number, count: number) {
  for (const [ratio, amplitude, decay] of voice.partials) {
    const hz = frequency * ratio;
    if (hz > MAX_PARTIAL_HZ) continue;
    const step = hz / SAMPLE_RATE;
    let phase = (step * offset) % 1;
    let level = amplitude * Math.exp((-decay * offset) / SAMPLE_RATE);
    const fall = Math.exp(-decay / SAMPLE_RATE);
    for (let i = 0; i < count; i++) {
      out[i]! += SINE[(phase * TABLE_SIZE) | 0]! * level;
      phase += step;
      if (phase >= 1) phase -= 1;
      level *= fall;
    }
  }
}

function fm(voice: Fm, frequency: number, out: Float32Array, offset: number, count: number) {
  const carrierStep = frequency / SAMPLE_RATE;
  const modulatorStep = (frequency * voice.ratio) / SAMPLE_RATE;
  let carrier = (carrierStep * offset) % 1;
  let modulator = (modulatorStep * offset) % 1;
  let level = Math.exp((-voice.decay * offset) / SAMPLE_RATE);
  let index = (voice.index / (2 * Math.PI)) * Math.exp((-voice.indexDecay * offset) / SAMPLE_RATE);
  const fall = Math.exp(-voice.decay / SAMPLE_RATE);
  const indexFall = Math.exp(-voice.indexDecay / SAMPLE_RATE);
  for (let i = 0; i < count; i++) {
    let phase = carrier + index * SINE[(modulator * TABLE_SIZE) | 0]!;
    phase -= Math.floor(phase);
    out[i]! += SINE[(phase * TABLE_SIZE) | 0]! * level;
    carrier += carrierStep;
    if (carrier >= 1) carrier -= 1;
    modulator += modulatorStep;
    if (modulator >= 1) modulator -= 1;
    level *= fall;
    index *= indexFall;
  }
}

/** Attack ramp, then a release ramp once the note's length is over; scales by `gain`. */
function envelope(
  voice: Voice,
  lengthFrames: number,
  out: Float32Array,
  offset: number,
  count: number,
  gain: number,
) {
  const attack = Math.max(1, voice.attack * SAMPLE_RATE);
  const release = Math.max(1, voice.release * SAMPLE_RATE);
  for (let i = 0; i < count; i++) {
    const t = offset + i;
    let level = t < attack ? t / attack : 1;
    if (t > lengthFrames) level *= Math.max(0, 1 - (t - lengthFrames) / release);
    out[i]! *= level * gain;
  }
}

/** A sine falling from 140 to 45 Hz with a fast decay; the phase is the integral of that frequency. */
function kick(out: Float32Array, offset: number, count: number, gain: number) {
  const sweep = 28;
  for (let i = 0; i < count; i++) {
    const t = (offset + i) / SAMPLE_RATE;
    const phase = 45 * t + (95 / sweep) * (1 - Math.exp(-sweep * t));
    out[i]! += SINE[((phase % 1) * TABLE_SIZE) | 0]! * Math.exp(-9 * t) * gain;
  }
}

/** White noise in -1..1 that depends only on (note, sample): the same in any block. */
const noise = (id: number, n: number) => hash2(id, n) / 2_147_483_648 - 1;

function snare(id: number, out: Float32Array, offset: number, count: number, gain: number) {
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    const t = n / SAMPLE_RATE;
    const tone = SINE[(((185 * t) % 1) * TABLE_SIZE) | 0]! * Math.exp(-30 * t) * 0.5;
    out[i]! += (noise(id, n) * Math.exp(-20 * t) + tone) * gain;
  }
}

/** High-passed noise (a first difference) with a very short decay. */
function hat(id: number, out: Float32Array, offset: number, count: number, gain: number) {
  for (let i = 0; i < count; i++) {
    const n = offset + i;
    out[i]! += (noise(id, n) - noise(id, n - 1)) * 0.5 * Math.exp((-55 * n) / SAMPLE_RATE) * gain;
  }
}
