import { MODES, type MusicPlan, type Timbre } from './music-plan.ts';
import { Random } from './music-random.ts';

export type Instrument = Timbre | 'bass' | 'kick' | 'snare' | 'hat';

/** One note or drum hit. */
export interface NoteEvent {
  /** Seconds from the start. */
  start: number;
  /** Seconds the note is held (drums: ignored, they ring out). */
  length: number;
  midi: number;
  /** 0..1 */
  velocity: number;
  instrument: Instrument;
  /** -1 (left) .. 1 (right) */
  pan: number;
  /** Whether it feeds the echo (melody and harmony do). */
  echo: boolean;
}

/** Chord progressions as scale degrees (0 = tonic), one chord per bar; every mode uses them. */
const PROGRESSIONS = [
  [0, 4, 5, 3],
  [0, 5, 3, 4],
  [0, 3, 4, 4],
  [0, 5, 1, 4],
  [0, 3, 0, 4],
  [0, 2, 5, 4],
  [5, 3, 0, 4],
  [0, 6, 5, 6],
] as const;

/** Melody rhythms for one bar, as (start, length) in sixteenths; sparse ones first. */
const RHYTHMS: ReadonlyArray<ReadonlyArray<readonly [number, number]>> = [
  [[0, 16]],
  [
    [0, 8],
    [8, 8],
  ],
  [
    [0, 6],
    [8, 8],
  ],
  [
    [0, 4],
    [4, 4],
    [8, 8],
  ],
  [
    [0, 4],
    [6, 2],
    [8, 4],
    [12, 4],
  ],
  [
    [0, 2],
    [2, 2],
    [4, 4],
    [8, 2],
    [10, 2],
    [12, 4],
  ],
  [
    [0, 3],
    [3, 3],
    [6, 2],
    [8, 2],
    [10, 2],
    [12, 2],
    [14, 2],
  ],
];

/** The MIDI note of scale degree `degree` (any integer) above `tonic`. */
function scaleNote(plan: MusicPlan, degree: number): number {
  const scale = MODES[plan.mode];
  const octave = Math.floor(degree / scale.length);
  return plan.tonic + 12 * octave + scale[degree - octave * scale.length]!;
}

/** A phrase of melody over one pass of the progression: degrees and rhythm per bar. */
interface Phrase {
  notes: Array<{ bar: number; step: number; steps: number; degree: number; velocity: number }>;
}

function composePhrase(plan: MusicPlan, progression: readonly number[], random: Random): Phrase {
  const scaleLength = MODES[plan.mode].length;
  const busiest = Math.round(plan.energy * (RHYTHMS.length - 1));
  const notes: Phrase['notes'] = [];
  // Melody degrees are counted from the tonic one octave above the harmony.
  let degree = scaleLength + random.int(0, 4);
  progression.forEach((chord, bar) => {
    const rhythm = RHYTHMS[Math.max(0, Math.min(RHYTHMS.length - 1, busiest + random.int(-1, 1)))]!;
    for (const [step, steps] of rhythm) {
      if (step > 0 && random.chance(0.12)) continue;
      degree += random.pick([-2, -1, -1, 0, 1, 1, 2, 3, -3]);
      // Strong beats land on a chord tone, so the tune follows the harmony.
      if (step % 8 === 0) {
        const tones = [chord, chord + 2, chord + 4].map((d) => d + scaleLength);
        degree = tones.reduce((best, tone) => {
          const near = tone + scaleLength * Math.round((degree - tone) / scaleLength);
          return Math.abs(near - degree) < Math.abs(best - degree) ? near : best;
        }, tones[0]!);
      }
      degree = Math.max(scaleLength - 2, Math.min(scaleLength * 2 + 4, degree));
      notes.push({ bar, step, steps, degree, velocity: 0.7 + random.next() * 0.25 - (step % 4 ? 0.1 : 0) });
    }
  });
  return { notes };
}

/**
 * The notes of a piece of `seconds` seconds: a chord progression looped, a melody in phrases (A A B A),
 * bass and drums, in sections that start sparse. Same plan, same notes.
 */
export function compose(plan: MusicPlan, seconds: number): NoteEvent[] {
  const random = new Random(plan.seed ^ 0x5eed);
  const beat = 60 / plan.tempo;
  const sixteenth = beat / 4;
  const barsPerChord = plan.tempo > 130 ? 2 : 1;
  const barLength = 4 * beat;
  const bars = Math.ceil(seconds / barLength) + 1;
  const progression = random.pick(PROGRESSIONS);
  const phrases = [composePhrase(plan, progression, random), composePhrase(plan, progression, random)];
  const intro = bars >= 12 ? 2 : 0;
  const events: NoteEvent[] = [];
  // Off-beat eighths fall late when swung; a few milliseconds of looseness keep it from sounding stiff.
  const at = (bar: number, step: number) =>
    bar * barLength + step * sixteenth + (step % 4 === 2 ? plan.swing * 2 * sixteenth : 0);
  const loose = () => (random.next() - 0.5) * 0.006;

  for (let bar = 0; bar < bars; bar++) {
    const cycle = Math.floor(bar / (progression.length * barsPerChord));
    const chordIndex = Math.floor(bar / barsPerChord) % progression.length;
    const chord = progression[chordIndex]!;
    const tones = [chord, chord + 2, chord + 4].map((d) => scaleNote(plan, d));
    const harmonyHeld = ['pad', 'strings', 'organ'].includes(plan.harmony);

    // Harmony: held chords, or struck ones for plucked and struck sounds.
    const strikes = harmonyHeld
      ? [[0, 16]]
      : plan.energy > 0.45
        ? [
            [0, 6],
            [6, 6],
            [12, 4],
          ]
        : [
            [0, 8],
            [8, 8],
          ];
    for (const [step, steps] of strikes as Array<[number, number]>) {
      tones.forEach((midi, i) => {
        events.push({
          start: at(bar, step) + (harmonyHeld ? 0 : i * 0.012),
          length: steps * sixteenth,
          midi,
          velocity: 0.55 + random.next() * 0.1,
          instrument: plan.harmony,
          pan: [-0.35, 0.1, 0.35][i]!,
          echo: true,
        });
      });
    }

    // Bass: the chord's root, busier with energy.
    const root = scaleNote(plan, chord) - 12;
    const bassSteps =
      plan.energy < 0.35
        ? [[0, 16]]
        : plan.energy < 0.7
          ? [
              [0, 8],
              [8, 8],
            ]
          : [0, 2, 4, 6].map((e) => [e * 2, 2]);
    for (const [step, steps] of bassSteps as Array<[number, number]>) {
      const fifth = step === 8 && random.chance(0.3);
      events.push({
        start: at(bar, step) + loose(),
        length: steps * sixteenth * 0.9,
        midi: fifth ? root + 7 : root,
        velocity: 0.8 + random.next() * 0.15,
        instrument: 'bass',
        pan: 0,
        echo: false,
      });
    }

    if (bar < intro) continue;

    // Melody: phrase A, A, B, A over successive passes of the progression.
    const phrase = phrases[cycle % 4 === 2 ? 1 : 0]!;
    const phraseBar = Math.floor(bar / barsPerChord) % progression.length;
    if (bar % barsPerChord === 0) {
      for (const note of phrase.notes.filter((n) => n.bar === phraseBar)) {
        events.push({
          start: at(bar, note.step) + loose(),
          length: note.steps * sixteenth * 0.95,
          midi: scaleNote(plan, note.degree),
          velocity: note.velocity,
          instrument: plan.lead,
          pan: 0.1,
          echo: true,
        });
      }
    }

    if (plan.drums !== 'none') events.push(...drumBar(plan, bar, at, random));
  }
  return events.filter((e) => e.start < seconds).sort((a, b) => a.start - b.start);
}

/** One bar of drums: kick, snare and hats; a fill closes every eighth bar. */
function drumBar(
  plan: MusicPlan,
  bar: number,
  at: (bar: number, step: number) => number,
  random: Random,
): NoteEvent[] {
  const hit = (step: number, instrument: Instrument, velocity: number, pan = 0): NoteEvent => ({
    start: at(bar, step),
    length: 0,
    midi: 0,
    velocity: Math.min(1, velocity * (0.9 + random.next() * 0.15)),
    instrument,
    pan,
    echo: false,
  });
  const out: NoteEvent[] = [];
  const soft = plan.drums === 'soft';
  const fourOnFloor = !soft && plan.energy > 0.8;
  for (const step of fourOnFloor ? [0, 4, 8, 12] : [0, 8]) out.push(hit(step, 'kick', soft ? 0.55 : 0.9));
  if (!soft && !fourOnFloor && random.chance(0.4)) out.push(hit(10, 'kick', 0.7));
  for (const step of [4, 12]) out.push(hit(step, 'snare', soft ? 0.3 : 0.8));
  const hatEvery = soft ? 4 : plan.energy > 0.85 ? 1 : 2;
  for (let step = 0; step < 16; step += hatEvery) {
    out.push(hit(step, 'hat', (step % 4 === 0 ? 0.5 : 0.32) * (soft ? 0.7 : 1), 0.3));
  }
  if (bar % 8 === 7 && !soft) {
    for (const step of [13, 14, 15]) out.push(hit(step, 'snare', 0.45 + (step - 13) * 0.12));
  }
  return out;
}
