import nlp from 'compromise';
import { type Artwork, artworkFor } from './scene-artwork.ts';

/**
 * Reads a prompt as a scene: what to draw (subjects with counts and colours), where (setting), when
 * (time of day), in what weather, and in what style. compromise tags the words (part of speech, number
 * words, plural nouns), so "three blue whales" is a count, a colour and the noun "whale"; everything
 * else comes from the small vocabularies below. Words that name something and cannot be drawn are
 * kept, so the result can say which words it left out.
 */

export type Setting =
  | 'meadow'
  | 'snow'
  | 'sea'
  | 'beach'
  | 'city'
  | 'forest'
  | 'desert'
  | 'mountains'
  | 'space'
  | 'sky';
export type TimeOfDay = 'day' | 'night' | 'sunset';
export type Weather = 'rain' | 'snowfall' | 'clouds' | 'storm' | 'fog';
export type PromptStyle = 'grayscale' | 'sepia' | 'soften' | 'vivid';

export interface ColourName {
  name: string;
  /** sRGB hex of the colour a subject is painted in. */
  hex: string;
}

export interface SceneSubject {
  /** The word as understood (singular), for example `whale`. */
  word: string;
  artwork: Artwork;
  count: number;
  colour?: ColourName;
  /** 1 normal; larger or smaller for "giant", "tiny" and the like. */
  scale: number;
  /** Drawn in the sky rather than on the ground (birds, planes, the moon). */
  airborne: boolean;
}

export interface Scene {
  subjects: SceneSubject[];
  setting: Setting;
  time: TimeOfDay;
  weather: Weather[];
  style?: PromptStyle;
  /** Words naming things this engine has no artwork for, in prompt order. */
  undrawn: string[];
}

/** The most of one subject drawn (a "thousand birds" is a flock of this many). */
export const MAX_COUNT = 12;
/** The most subjects (kinds) drawn from one prompt. */
const MAX_SUBJECTS = 6;

export const COLOURS: Record<string, string> = {
  red: '#e0241b',
  crimson: '#c2141f',
  orange: '#f47a12',
  yellow: '#f5d218',
  gold: '#e0b018',
  golden: '#e0b018',
  green: '#2fa836',
  lime: '#8ad11d',
  teal: '#139a94',
  cyan: '#1cc4dc',
  turquoise: '#22c6b4',
  blue: '#1d5fe0',
  navy: '#14286e',
  purple: '#8a2fc9',
  violet: '#8a2fc9',
  pink: '#f05aa8',
  magenta: '#d623b4',
  brown: '#8a5228',
  black: '#1a1a1a',
  white: '#f4f4f4',
  grey: '#8c8c8c',
  gray: '#8c8c8c',
  silver: '#b8bcc4',
};

const SETTINGS: Record<string, Setting> = {
  snow: 'snow',
  snowy: 'snow',
  winter: 'snow',
  ice: 'snow',
  icy: 'snow',
  arctic: 'snow',
  sea: 'sea',
  ocean: 'sea',
  water: 'sea',
  lake: 'sea',
  underwater: 'sea',
  wave: 'sea',
  beach: 'beach',
  shore: 'beach',
  coast: 'beach',
  sand: 'beach',
  city: 'city',
  town: 'city',
  street: 'city',
  downtown: 'city',
  skyline: 'city',
  urban: 'city',
  forest: 'forest',
  wood: 'forest',
  woods: 'forest',
  jungle: 'forest',
  desert: 'desert',
  dune: 'desert',
  mountain: 'mountains',
  hill: 'mountains',
  cliff: 'mountains',
  rocky: 'mountains',
  valley: 'mountains',
  space: 'space',
  galaxy: 'space',
  cosmos: 'space',
  sky: 'sky',
  meadow: 'meadow',
  field: 'meadow',
  grass: 'meadow',
  park: 'meadow',
  garden: 'meadow',
  farm: 'meadow',
};
const TIMES: Record<string, TimeOfDay> = {
  night: 'night',
  nighttime: 'night',
  midnight: 'night',
  dark: 'night',
  evening: 'sunset',
  sunset: 'sunset',
  dusk: 'sunset',
  dawn: 'sunset',
  sunrise: 'sunset',
  twilight: 'sunset',
  day: 'day',
  daytime: 'day',
  noon: 'day',
  morning: 'day',
  sunny: 'day',
};
const WEATHER: Record<string, Weather> = {
  rain: 'rain',
  rainy: 'rain',
  raining: 'rain',
  drizzle: 'rain',
  snowing: 'snowfall',
  snowfall: 'snowfall',
  blizzard: 'snowfall',
  snowflake: 'snowfall',
  cloud: 'clouds',
  cloudy: 'clouds',
  overcast: 'clouds',
  storm: 'storm',
  stormy: 'storm',
  thunder: 'storm',
  thunderstorm: 'storm',
  fog: 'fog',
  foggy: 'fog',
  mist: 'fog',
  misty: 'fog',
  haze: 'fog',
};
const STYLES: Record<string, PromptStyle> = {
  monochrome: 'grayscale',
  grayscale: 'grayscale',
  greyscale: 'grayscale',
  noir: 'grayscale',
  vintage: 'sepia',
  sepia: 'sepia',
  retro: 'sepia',
  antique: 'sepia',
  dreamy: 'soften',
  soft: 'soften',
  watercolor: 'soften',
  watercolour: 'soften',
  pastel: 'soften',
  vivid: 'vivid',
  vibrant: 'vivid',
  colorful: 'vivid',
  colourful: 'vivid',
  neon: 'vivid',
  bright: 'vivid',
};
const SIZES: Record<string, number> = {
  giant: 1.4,
  huge: 1.4,
  big: 1.25,
  large: 1.25,
  enormous: 1.5,
  small: 0.7,
  little: 0.75,
  tiny: 0.55,
};
const QUANTITIES: Record<string, number> = {
  pair: 2,
  couple: 2,
  few: 3,
  several: 4,
  many: 6,
  lots: 6,
  flock: 7,
  herd: 5,
  school: 6,
  pack: 5,
  group: 4,
  crowd: 8,
  dozen: 12,
};
/** Quantity words that count without an "of" ("several cats", "a dozen roses"). */
const BARE_QUANTITIES = new Set(['few', 'several', 'many', 'dozen', 'lots']);
/** Place words compromise may tag as adjectives; never subjects. */
const PLACEMENT = new Set([
  'over',
  'under',
  'above',
  'below',
  'near',
  'beside',
  'behind',
  'through',
  'across',
  'inside',
  'outside',
  'around',
]);
/** Things that belong in the sky when drawn. */
const AIRBORNE = new Set([
  'bird',
  'eagle',
  'dove',
  'parrot',
  'bat',
  'owl',
  'airplane',
  'plane',
  'rocket',
  'helicopter',
  'balloon',
  'kite',
  'butterfly',
  'bee',
  'moon',
  'sun',
  'star',
  'ufo',
  'dragon',
  'angel',
  'ghost',
  'rainbow',
]);
/** Subjects that put a picture at sea when the prompt names no setting. */
const MARINE = new Set([
  'whale',
  'dolphin',
  'fish',
  'shark',
  'octopus',
  'squid',
  'crab',
  'boat',
  'ship',
  'sailboat',
  'seal',
  'turtle',
]);
/** Words with no picture that are not worth reporting as left out. */
const FILLER = new Set([
  'picture',
  'image',
  'photo',
  'photograph',
  'painting',
  'drawing',
  'illustration',
  'scene',
  'view',
  'style',
  'art',
  'lot',
  'kind',
  'front',
  'middle',
  'top',
  'side',
  'left',
  'right',
  'center',
  'centre',
  'background',
  'foreground',
  'time',
  'light',
  'one',
]);

interface Term {
  normal: string;
  /** Singular for plural nouns, else as written. */
  root: string;
  tags: Set<string>;
}

function terms(prompt: string): Term[] {
  const doc = nlp(prompt);
  doc.compute('root');
  const sentences = doc.json({ terms: { normal: true } }) as Array<{
    terms: Array<{ normal: string; root?: string; tags: string[] }>;
  }>;
  return sentences.flatMap((s) =>
    s.terms
      .filter((t) => t.normal.length > 0)
      .map((t) => ({
        normal: t.normal.replace(/[^\p{L}\p{N}-]/gu, ''),
        root: (t.root ?? t.normal).replace(/[^\p{L}\p{N}-]/gu, ''),
        tags: new Set(t.tags),
      })),
  );
}

/** A number word or numeral as a count ("three", "3", "a dozen"); undefined when it is not one. */
function countOf(term: Term): number | undefined {
  if (!term.tags.has('Cardinal') && !term.tags.has('Value')) return undefined;
  const found = nlp(term.normal).numbers().get() as unknown;
  const value = Array.isArray(found) ? found[0] : found;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

export function parseScene(prompt: string): Scene {
  const words = terms(prompt);
  const subjects: SceneSubject[] = [];
  const undrawn: string[] = [];
  const weather = new Set<Weather>();
  let setting: Setting | undefined;
  let time: TimeOfDay | undefined;
  let style: PromptStyle | undefined;
  // What the words since the last subject said about the next one.
  let count: number | undefined;
  let colour: ColourName | undefined;
  let scale = 1;

  for (const [i, term] of words.entries()) {
    const word = term.root || term.normal;
    const next = words[i + 1];
    // "black and white" is a style, not two colours.
    if (word === 'black' && next?.normal === 'and' && words[i + 2]?.normal === 'white') {
      style = 'grayscale';
      words.splice(i + 1, 2);
      continue;
    }
    const number = countOf(term);
    if (number !== undefined) {
      count = number;
      continue;
    }
    if (QUANTITIES[word] && (next?.normal === 'of' || BARE_QUANTITIES.has(word))) {
      count = QUANTITIES[word];
      continue;
    }
    if (COLOURS[word]) {
      colour = { name: word, hex: COLOURS[word] };
      continue;
    }
    if (SIZES[word]) {
      scale = SIZES[word];
      continue;
    }
    if (STYLES[word]) {
      style = STYLES[word];
      continue;
    }
    if (TIMES[word]) {
      time = TIMES[word];
      continue;
    }
    // "snowing" is weather even though its root, "snow", is a setting.
    const falling = WEATHER[term.normal] ?? WEATHER[word];
    if (falling) {
      weather.add(falling);
      continue;
    }
    if (SETTINGS[word]) {
      // "snow" as what covers the ground; falling snow when it is said to fall.
      setting ??= SETTINGS[word];
      continue;
    }
    const naming = term.tags.has('Noun') || term.tags.has('Adjective') || term.tags.has('Verb');
    const functional =
      term.tags.has('Determiner') ||
      term.tags.has('Preposition') ||
      term.tags.has('Conjunction') ||
      term.tags.has('Pronoun') ||
      term.tags.has('Copula') ||
      term.tags.has('Auxiliary') ||
      term.tags.has('Adverb');
    if (!naming || functional || FILLER.has(word) || PLACEMENT.has(word) || word.length < 2) continue;
    const artwork = term.tags.has('Noun') ? (artworkFor(word) ?? artworkFor(term.normal)) : undefined;
    if (!artwork) {
      if (!undrawn.includes(word)) undrawn.push(word);
      continue;
    }
    const held = subjects.find((s) => s.artwork.name === artwork.name && s.colour?.name === colour?.name);
    const wanted = Math.min(MAX_COUNT, Math.round(count ?? (term.tags.has('Plural') ? 3 : 1)));
    if (held) held.count = Math.min(MAX_COUNT, held.count + wanted);
    else if (subjects.length < MAX_SUBJECTS) {
      subjects.push({
        word,
        artwork,
        count: wanted,
        ...(colour ? { colour } : {}),
        scale,
        airborne: AIRBORNE.has(word),
      });
    }
    count = undefined;
    colour = undefined;
    scale = 1;
  }

  return {
    subjects,
    setting: setting ?? (subjects.some((s) => MARINE.has(s.word)) ? 'sea' : 'meadow'),
    time: time ?? (setting === 'space' ? 'night' : 'day'),
    weather: [...weather],
    ...(style ? { style } : {}),
    undrawn,
  };
}

/** The scene in one line for people: what was drawn, where, and what was left out. */
export function describeScene(scene: Scene): string {
  const drawn = scene.subjects.map(
    (s) => `${s.count} ${s.colour ? `${s.colour.name} ` : ''}${s.word}${s.count > 1 ? 's' : ''}`,
  );
  const parts = [
    `Drew ${drawn.length > 0 ? drawn.join(', ') : 'no subject'}`,
    `setting ${scene.setting}`,
    `time ${scene.time}`,
  ];
  if (scene.weather.length > 0) parts.push(`weather ${scene.weather.join(', ')}`);
  if (scene.style) parts.push(`style ${scene.style}`);
  if (scene.undrawn.length > 0) parts.push(`could not draw: ${scene.undrawn.join(', ')}`);
  return `${parts.join('; ')}.`;
}
