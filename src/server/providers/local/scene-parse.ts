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
  /** Where the prompt put it ("to the left of a dog", "in the corner"); absent: the usual rows. */
  placement?: Placement;
}

/** A subject's place from the prompt's layout words. */
export interface Placement {
  /** Horizontal centre of the subject's group, 0 (left edge) to 1 (right edge). */
  x?: number;
  /** Raised into the upper part of the picture ("above"), or kept on the ground below what is raised. */
  level?: 'up' | 'down';
  /** Nearer (lower, larger, drawn over the others) or farther (higher, smaller, drawn first). */
  depth?: 'front' | 'back';
  /** The layout words as understood, for the scene's description: "left of dog", "in the corner". */
  said: string[];
}

/** Relations between two subjects: "A to the left of B", "A above B", "A in front of B". */
type Relation = 'left' | 'right' | 'above' | 'below' | 'front' | 'behind';
const RELATION_WORDS: Record<string, Relation> = {
  above: 'above',
  over: 'above',
  atop: 'above',
  below: 'below',
  under: 'below',
  beneath: 'below',
  underneath: 'below',
  behind: 'behind',
};
const RELATION_SAID: Record<Relation, [string, string]> = {
  left: ['left of', 'right of'],
  right: ['right of', 'left of'],
  above: ['above', 'below'],
  below: ['below', 'above'],
  front: ['in front of', 'behind'],
  behind: ['behind', 'in front of'],
};

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
  'corner',
  'bottom',
  'background',
  'foreground',
  'time',
  'light',
  'one',
  // Function words compromise sometimes tags as nouns or adjectives ("on the right", "in front of").
  'the',
  'in',
  'on',
  'of',
  'to',
  'at',
  'an',
]);
/** Layout words that only count as part of a phrase ("top left corner"): never subjects. */
const LAYOUT_WORDS = new Set([
  'left',
  'right',
  'top',
  'upper',
  'lower',
  'bottom',
  'front',
  'corner',
  'middle',
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
  // Layout: the subject named last, a relation waiting for the subject it is relative to, and places
  // ("on the left", "in the corner") said before any subject, for the next one.
  let last: SceneSubject | undefined;
  let relation: { kind: Relation; subject: SceneSubject } | undefined;
  let ahead: Partial<Placement> | undefined;
  const placeOn = (subject: SceneSubject, place: Partial<Placement>) => {
    const placement = subject.placement ?? { said: [] };
    subject.placement = { ...placement, ...place, said: [...placement.said, ...(place.said ?? [])] };
  };

  for (const [i, term] of words.entries()) {
    const word = term.root || term.normal;
    const next = words[i + 1];
    const layout = layoutAt(words, i);
    if (layout) {
      if (layout.relation) {
        if (last) relation = { kind: layout.relation, subject: last };
      } else if (last) placeOn(last, layout.place!);
      else ahead = layout.place;
      continue;
    }
    if (LAYOUT_WORDS.has(term.normal)) continue;
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
    let named: SceneSubject | undefined = held;
    if (held) held.count = Math.min(MAX_COUNT, held.count + wanted);
    else if (subjects.length < MAX_SUBJECTS) {
      named = {
        word,
        artwork,
        count: wanted,
        ...(colour ? { colour } : {}),
        scale,
        airborne: AIRBORNE.has(word),
      };
      subjects.push(named);
    }
    if (named) {
      if (ahead) placeOn(named, ahead);
      if (relation && relation.subject !== named) relate(relation.subject, relation.kind, named, placeOn);
      ahead = undefined;
      relation = undefined;
      last = named;
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

/** Horizontal places named by words. */
const SIDE: Record<string, number> = { left: 0.2, right: 0.8 };

/**
 * The layout words starting at `words[i]`: a relation to the next subject ("to the left of", "above",
 * "in front of", "behind") or a place ("on the left", "in the top left corner", "in the middle").
 * Words that are part of a longer phrase read later ("left" in "left corner") return nothing here.
 */
function layoutAt(
  words: readonly Term[],
  i: number,
): { relation?: Relation; place?: Partial<Placement> } | undefined {
  const at = (k: number) => words[k]?.normal ?? '';
  const word = at(i);
  if ((word === 'left' || word === 'right') && at(i + 1) === 'of') return { relation: word };
  if (word === 'front' && at(i + 1) === 'of') return { relation: 'front' };
  if (RELATION_WORDS[word]) return { relation: RELATION_WORDS[word] };
  if (word === 'corner') {
    const before = [at(i - 1), at(i - 2), at(i - 3)];
    const side = before.includes('left') ? 'left' : 'right';
    const top = before.includes('top') || before.includes('upper');
    return {
      place: {
        x: side === 'left' ? 0.12 : 0.88,
        level: top ? 'up' : 'down',
        said: [`in the ${top ? 'top' : 'bottom'} ${side} corner`],
      },
    };
  }
  const partOfCorner = ['corner'].includes(at(i + 1)) || ['corner'].includes(at(i + 2));
  if ((word === 'left' || word === 'right') && !partOfCorner) {
    return { place: { x: SIDE[word], said: [`on the ${word}`] } };
  }
  if (word === 'middle' || word === 'centre' || word === 'center') {
    return { place: { x: 0.5, said: ['in the middle'] } };
  }
  return undefined;
}

/** Places `a` and `b` as "a <relation> b" says, keeping a side either already has from other words. */
function relate(
  a: SceneSubject,
  kind: Relation,
  b: SceneSubject,
  placeOn: (subject: SceneSubject, place: Partial<Placement>) => void,
): void {
  const [saidA, saidB] = RELATION_SAID[kind];
  const x = (subject: SceneSubject, fallback: number) => subject.placement?.x ?? fallback;
  const place: Record<Relation, [Partial<Placement>, Partial<Placement>]> = {
    left: [{ x: x(a, 0.27) }, { x: x(b, 0.73) }],
    right: [{ x: x(a, 0.73) }, { x: x(b, 0.27) }],
    above: [
      { level: 'up', x: x(a, x(b, 0.5)) },
      { level: 'down', x: x(b, x(a, 0.5)) },
    ],
    below: [
      { level: 'down', x: x(a, x(b, 0.5)) },
      { level: 'up', x: x(b, x(a, 0.5)) },
    ],
    front: [
      { depth: 'front', x: x(a, 0.42) },
      { depth: 'back', x: x(b, 0.6) },
    ],
    behind: [
      { depth: 'back', x: x(a, 0.6) },
      { depth: 'front', x: x(b, 0.42) },
    ],
  };
  const [forA, forB] = place[kind];
  placeOn(a, { ...forA, said: [`${saidA} ${b.word}`] });
  placeOn(b, { ...forB, said: [`${saidB} ${a.word}`] });
}

/** The scene in one line for people: what was drawn, where, and what was left out. */
export function describeScene(scene: Scene): string {
  const drawn = scene.subjects.map(
    (s) => `${s.count} ${s.colour ? `${s.colour.name} ` : ''}${s.word}${s.count > 1 ? 's' : ''}`,
  );
  const placed = scene.subjects
    .filter((s) => s.placement && s.placement.said.length > 0)
    .map((s) => `${s.word} ${s.placement!.said.join(', ')}`);
  const parts = [
    `Drew ${drawn.length > 0 ? drawn.join(', ') : 'no subject'}`,
    `setting ${scene.setting}`,
    `time ${scene.time}`,
  ];
  if (placed.length > 0) parts.push(`layout: ${placed.join('; ')}`);
  if (scene.weather.length > 0) parts.push(`weather ${scene.weather.join(', ')}`);
  if (scene.style) parts.push(`style ${scene.style}`);
  if (scene.undrawn.length > 0) parts.push(`could not draw: ${scene.undrawn.join(', ')}`);
  return `${parts.join('; ')}.`;
}
