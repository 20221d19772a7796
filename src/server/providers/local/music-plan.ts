import { Random } from './music-random.ts';

/** Sounds the music engine can make for melody and harmony (music-instruments.ts). */
export type Timbre = 'piano' | 'bell' | 'organ' | 'strings' | 'pad' | 'pluck' | 'flute' | 'synth';

/** Scales as semitones above the tonic. */
export const MODES = {
  major: [0, 2, 4, 5, 7, 9, 11],
  minor: [0, 2, 3, 5, 7, 8, 10],
  dorian: [0, 2, 3, 5, 7, 9, 10],
  mixolydian: [0, 2, 4, 5, 7, 9, 10],
  lydian: [0, 2, 4, 6, 7, 9, 11],
  phrygian: [0, 1, 3, 5, 7, 8, 10],
  pentatonic: [0, 2, 4, 7, 9],
} as const;
export type ModeName = keyof typeof MODES;

export type Drums = 'none' | 'soft' | 'full';

/** What a piece will be like; everything the composer and the synthesiser need besides the seed. */
export interface MusicPlan {
  seed: number;
  /** Beats per minute. */
  tempo: number;
  /** MIDI note of the tonic in the harmony's octave (48..59). */
  tonic: number;
  mode: ModeName;
  lead: Timbre;
  harmony: Timbre;
  drums: Drums;
  /** 0 (still) to 1 (busy and loud): how dense melody, bass and drums are. */
  energy: number;
  /** 0 (straight) to 0.3: how late off-beat eighths fall. */
  swing: number;
  /** 0 to 0.5: how much echo melody and harmony get. */
  echo: number;
}

/** What one word of a prompt says about the music. */
interface WordTrait {
  energy?: number;
  /** Positive: bright modes; negative: dark ones. */
  mood?: number;
  tempo?: number;
  mode?: ModeName;
  lead?: Timbre;
  harmony?: Timbre;
  drums?: Drums;
  swing?: number;
  echo?: number;
}

const calm: WordTrait = { energy: -0.25, echo: 0.35 };
const slow: WordTrait = { energy: -0.2, tempo: 66 };
const lively: WordTrait = { energy: 0.25 };
const fast: WordTrait = { energy: 0.2, tempo: 140 };
const bright: WordTrait = { mood: 1 };
const dark: WordTrait = { mood: -1 };
const drumWord: WordTrait = { drums: 'full', energy: 0.1 };

const WORDS: Record<string, WordTrait> = {
  calm,
  peaceful: calm,
  relaxing: calm,
  relax: calm,
  relaxed: calm,
  chill: { ...calm, tempo: 80 },
  ambient: { ...calm, harmony: 'pad', echo: 0.45 },
  sleep: { ...calm, tempo: 60 },
  meditation: { ...calm, tempo: 60, mode: 'pentatonic' },
  gentle: calm,
  soft: calm,
  quiet: calm,
  dreamy: { ...calm, mode: 'lydian', echo: 0.45 },
  lullaby: { ...calm, tempo: 62, lead: 'bell' },
  slow,
  slowly: slow,
  fast,
  quick: fast,
  energetic: lively,
  upbeat: { ...lively, mood: 1 },
  dance: { ...lively, drums: 'full', tempo: 124 },
  party: { ...lively, drums: 'full' },
  workout: { ...lively, tempo: 135, drums: 'full' },
  running: { ...lively, tempo: 150 },
  intense: { ...lively, mood: -0.5 },
  driving: lively,
  action: { ...lively, mood: -0.5 },
  epic: { energy: 0.2, mood: -0.5, harmony: 'strings', drums: 'full' },
  cinematic: { harmony: 'strings', echo: 0.3 },
  rock: { ...lively, drums: 'full', lead: 'synth', mode: 'mixolydian' },
  techno: { ...lively, tempo: 130, drums: 'full', lead: 'synth', mode: 'minor' },
  edm: { ...lively, tempo: 128, drums: 'full', lead: 'synth' },
  house: { ...lively, tempo: 124, drums: 'full' },
  happy: bright,
  joyful: bright,
  cheerful: bright,
  bright,
  sunny: bright,
  uplifting: { mood: 1, energy: 0.1 },
  hopeful: bright,
  playful: { mood: 1, lead: 'pluck' },
  summer: bright,
  sad: { mood: -1, energy: -0.15 },
  melancholic: { mood: -1, energy: -0.1 },
  melancholy: { mood: -1, energy: -0.1 },
  dark,
  moody: dark,
  mysterious: { mood: -1, mode: 'phrygian' },
  tense: { mood: -1, energy: 0.1 },
  horror: { mood: -1, mode: 'phrygian' },
  night: dark,
  rain: { mood: -0.5, energy: -0.1 },
  lonely: { mood: -1, energy: -0.2 },
  jazz: { mode: 'dorian', swing: 0.2, tempo: 110, drums: 'soft' },
  jazzy: { mode: 'dorian', swing: 0.2, drums: 'soft' },
  swing: { swing: 0.25, drums: 'soft' },
  blues: { mode: 'mixolydian', swing: 0.2, tempo: 90 },
  lofi: { mode: 'dorian', swing: 0.15, tempo: 82, drums: 'soft', lead: 'piano' },
  'lo-fi': { mode: 'dorian', swing: 0.15, tempo: 82, drums: 'soft', lead: 'piano' },
  oriental: { mode: 'pentatonic' },
  zen: { ...calm, mode: 'pentatonic', lead: 'flute' },
  folk: { mode: 'major', lead: 'pluck' },
  piano: { lead: 'piano' },
  keys: { lead: 'piano' },
  bell: { lead: 'bell' },
  bells: { lead: 'bell' },
  chimes: { lead: 'bell' },
  glockenspiel: { lead: 'bell' },
  organ: { harmony: 'organ' },
  strings: { harmony: 'strings' },
  violin: { lead: 'strings' },
  cello: { harmony: 'strings' },
  orchestra: { harmony: 'strings' },
  orchestral: { harmony: 'strings' },
  pad: { harmony: 'pad' },
  pads: { harmony: 'pad' },
  space: { harmony: 'pad', echo: 0.45 },
  synth: { lead: 'synth' },
  synthwave: { lead: 'synth', harmony: 'pad', drums: 'full', tempo: 100 },
  electronic: { lead: 'synth', drums: 'full' },
  guitar: { lead: 'pluck' },
  harp: { lead: 'pluck' },
  pluck: { lead: 'pluck' },
  flute: { lead: 'flute' },
  whistle: { lead: 'flute' },
  drums: drumWord,
  drum: drumWord,
  beat: drumWord,
  beats: drumWord,
  percussion: drumWord,
};

const NOTE_NAMES = ['c', 'c#', 'd', 'd#', 'e', 'f', 'f#', 'g', 'g#', 'a', 'a#', 'b'];
const FLAT_NAMES: Record<string, string> = { db: 'c#', eb: 'd#', gb: 'f#', ab: 'g#', bb: 'a#' };

/** "in A minor", "C# major", "Eb minor": tonic pitch class and mode. */
function explicitKey(prompt: string): { pitchClass: number; mode: ModeName } | null {
  const match = /\b([a-g])\s*(#|b|sharp|flat)?\s*(major|minor)\b/i.exec(prompt);
  if (!match) return null;
  const letter = match[1]!.toLowerCase();
  const accidental = match[2]?.toLowerCase();
  const name =
    accidental === '#' || accidental === 'sharp'
      ? `${letter}#`
      : accidental === 'b' || accidental === 'flat'
        ? (FLAT_NAMES[`${letter}b`] ?? letter)
        : letter;
  const index = NOTE_NAMES.indexOf(name);
  if (index < 0) return null;
  return { pitchClass: index, mode: match[3]!.toLowerCase() as ModeName };
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Reads a prompt for tempo, key and mode, instruments and mood ("calm piano slow" is slow and sparse,
 * "fast energetic drums" quick and busy); the seed settles what the words leave open.
 */
export function planMusic(prompt: string, seed: number, tempoOverride?: number): MusicPlan {
  const random = new Random(seed);
  const words = prompt.toLowerCase().match(/[a-z]+(?:-[a-z]+)?/g) ?? [];
  const traits: WordTrait[] = [];
  let noDrums = false;
  words.forEach((word, i) => {
    const trait = WORDS[word];
    if (!trait) return;
    if (trait.drums && ['no', 'without'].includes(words[i - 1] ?? '')) noDrums = true;
    else traits.push(trait);
  });
  const sum = (key: 'energy' | 'mood') => traits.reduce((total, t) => total + (t[key] ?? 0), 0);
  const last = <K extends keyof WordTrait>(key: K) => traits.findLast((t) => t[key] !== undefined)?.[key];
  const first = <K extends keyof WordTrait>(key: K) => traits.find((t) => t[key] !== undefined)?.[key];

  const energy = clamp(0.5 + sum('energy') + (random.next() - 0.5) * 0.1, 0, 1);
  const mood = sum('mood');
  const tempos = traits.flatMap((t) => (t.tempo ? [t.tempo] : []));
  const bpm = /\b(\d{2,3})\s*bpm\b/.exec(prompt.toLowerCase());
  const tempo = Math.round(
    clamp(
      tempoOverride ??
        (bpm
          ? Number(bpm[1])
          : tempos.length
            ? tempos.reduce((a, b) => a + b, 0) / tempos.length + random.int(-4, 4)
            : 72 + energy * 70 + random.int(-6, 6)),
      40,
      220,
    ),
  );

  const key = explicitKey(prompt);
  const mode: ModeName =
    key?.mode ??
    last('mode') ??
    (mood > 0
      ? random.pick(['major', 'major', 'lydian', 'mixolydian', 'pentatonic'] as const)
      : mood < 0
        ? random.pick(['minor', 'minor', 'dorian', 'phrygian'] as const)
        : random.pick(['major', 'minor', 'dorian', 'mixolydian'] as const));
  const tonic = 48 + (key?.pitchClass ?? random.int(0, 11));

  const lead: Timbre =
    first('lead') ??
    (energy < 0.4
      ? random.pick(['piano', 'bell', 'flute'] as const)
      : energy > 0.65
        ? random.pick(['synth', 'pluck', 'piano'] as const)
        : random.pick(['piano', 'pluck', 'bell', 'flute'] as const));
  const harmony: Timbre =
    first('harmony') ??
    (energy < 0.4
      ? random.pick(['pad', 'strings'] as const)
      : random.pick(['pad', 'strings', 'organ'] as const));
  const drums: Drums = noDrums
    ? 'none'
    : (last('drums') ?? (energy > 0.6 ? 'full' : energy > 0.4 ? 'soft' : 'none'));

  return {
    seed,
    tempo,
    tonic,
    mode,
    lead,
    harmony,
    drums,
    energy,
    swing: clamp(last('swing') ?? 0, 0, 0.3),
    echo: clamp(last('echo') ?? 0.18, 0, 0.5),
  };
}

/** "A minor, 72 BPM, piano over pad, soft drums": what the plan sounds like, for progress messages. */
export function describePlan(plan: MusicPlan): string {
  const key = `${NOTE_NAMES[plan.tonic % 12]!.toUpperCase()} ${plan.mode}`;
  const drums = plan.drums === 'none' ? 'no drums' : `${plan.drums} drums`;
  return `${key}, ${plan.tempo} BPM, ${plan.lead} over ${plan.harmony}, ${drums}`;
}
