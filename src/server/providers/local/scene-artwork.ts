import { createRequire } from 'node:module';

/**
 * The artwork the scene composer draws with: Microsoft's Fluent Emoji (flat), MIT, packaged on npm as
 * `@iconify-json/fluent-emoji-flat`, found by word through Emojibase's English labels and tags
 * (`emojibase-data`, MIT). Both are loaded once, on the first picture, because the icon set is ~9 MB of
 * JSON (about 50 ms to parse) that a server which never draws should not pay for.
 */

export const ARTWORK_CREDIT =
  'Artwork: Fluent Emoji (flat) by Microsoft, MIT licence, via @iconify-json/fluent-emoji-flat; keywords from Emojibase (emojibase-data), MIT licence. Lighthouse drawn by Media Console.';

/** Every icon is drawn on a 32x32 grid. */
export const ICON_GRID = 32;

export interface Artwork {
  /** The icon's name in the set, for example `spouting-whale`. */
  name: string;
  /** SVG elements on the 32x32 grid. */
  body: string;
  /** The icon faces left and is drawn mirrored (the set stores some icons as mirrors of others). */
  hFlip: boolean;
}

interface IconSet {
  icons: Record<string, { body: string }>;
  aliases?: Record<string, { parent: string; hFlip?: boolean }>;
}
interface EmojibaseEntry {
  hexcode: string;
  label: string;
  tags?: string[];
}

/** Words people use for things whose emoji has another name; checked before the labels. */
const SYNONYMS: Record<string, string> = {
  car: 'automobile',
  boat: 'sailboat',
  plane: 'airplane',
  aeroplane: 'airplane',
  bike: 'bicycle',
  kitten: 'cat',
  kitty: 'cat',
  puppy: 'dog',
  tree: 'deciduous-tree',
  pine: 'evergreen-tree',
  fir: 'evergreen-tree',
  flower: 'blossom',
  bunny: 'rabbit',
  people: 'person',
  human: 'person',
  child: 'child',
  kid: 'child',
  bug: 'lady-beetle',
  ladybug: 'lady-beetle',
  ladybird: 'lady-beetle',
  balloon: 'balloon',
  ghost: 'ghost',
  alien: 'alien',
  hat: 'top-hat',
  sword: 'crossed-swords',
  book: 'green-book',
  bread: 'bread',
  coffee: 'hot-beverage',
  tea: 'teacup-without-handle',
  cake: 'shortcake',
  home: 'house',
  cottage: 'house-with-garden',
  hut: 'hut',
  tower: 'tokyo-tower',
  skyscraper: 'office-building',
  building: 'office-building',
  ufo: 'flying-saucer',
  spaceship: 'rocket',
  heart: 'red-heart',
  fire: 'fire',
  campfire: 'fire',
  lightning: 'high-voltage',
  bear: 'bear',
  penguin: 'penguin',
  owl: 'owl',
  rainbow: 'rainbow',
  mushroom: 'mushroom',
  cactus: 'cactus',
  island: 'desert-island',
  volcano: 'volcano',
  train: 'locomotive',
  bus: 'bus',
  truck: 'delivery-truck',
};

/**
 * Things people often ask for that Unicode has no emoji for, drawn here on the same 32x32 grid in the
 * set's flat style. A lighthouse was the first prompt a new user tried.
 */
const DRAWN_HERE: Record<string, string> = {
  lighthouse:
    '<path fill="#7b7f88" d="M10.5 29.5h11V31h-11z"/>' +
    '<path fill="#f4f4f4" d="M13.5 10h5L20 30h-8z"/>' +
    '<path fill="#e0241b" d="M13.2 14h5.6l.3 4h-6.2zm-.6 8h6.8l.3 4h-7.4z"/>' +
    '<path fill="#5b3a1e" d="M15 26.5h2V30h-2z"/>' +
    '<path fill="#3a3a3a" d="M12 9h8v1.2h-8z"/>' +
    '<path fill="#ffd84a" d="M13.5 5.5h5V9h-5z"/>' +
    '<path fill="#3a3a3a" d="M15.4 5.5h.4V9h-.4zm1.2 0h.4V9h-.4z"/>' +
    '<path fill="#e0241b" d="M12.8 5.5L16 2.5l3.2 3z"/>',
};

interface Index {
  set: IconSet;
  /** Icon names by Unicode sequence (lower-case hex, `-` between code points, no FE0F). */
  byWord: Map<string, { name: string; rank: number }>;
}

let index: Index | undefined;

const SKIN_TONE = /-(?:dark|light|medium|medium-dark|medium-light)$/;

function build(): Index {
  const require = createRequire(import.meta.url);
  const set = require('@iconify-json/fluent-emoji-flat/icons.json') as IconSet;
  const chars = require('@iconify-json/fluent-emoji-flat/chars.json') as Record<string, string>;
  const emojis = require('emojibase-data/en/compact.json') as EmojibaseEntry[];
  const byWord = new Map<string, { name: string; rank: number }>();
  // Lower rank wins: a word of the icon's own name beats a word of its label, which beats a tag; among
  // equals the shorter label (the plainer emoji: `cat` before `cat with wry smile`).
  const offer = (word: string, name: string, rank: number) => {
    const held = byWord.get(word);
    if (!held || rank < held.rank) byWord.set(word, { name, rank });
  };
  const usable = (name: string) => !SKIN_TONE.test(name) && (set.icons[name] || set.aliases?.[name]);
  for (const name of Object.keys(set.icons)) if (usable(name)) offer(name, name, 0);
  for (const emoji of emojis) {
    const name = chars[emoji.hexcode.toLowerCase().replace(/-fe0f/g, '')];
    if (!name || !usable(name)) continue;
    const words = emoji.label.toLowerCase().match(/[a-z]+/g) ?? [];
    for (const word of words) offer(word, name, 100 + words.length * 10);
    for (const tag of emoji.tags ?? []) offer(tag.toLowerCase(), name, 300 + words.length * 10);
  }
  for (const [word, name] of Object.entries(SYNONYMS)) if (usable(name)) offer(word, name, -1);
  return { set, byWord };
}

/** The set and word index, built on first use. */
function artworkIndex(): Index {
  index ??= build();
  return index;
}

/** An icon by its name in the set (aliases resolved), or undefined. */
export function artworkNamed(name: string): Artwork | undefined {
  const own = DRAWN_HERE[name];
  if (own) return { name, body: own, hFlip: false };
  const { set } = artworkIndex();
  const icon = set.icons[name];
  if (icon) return { name, body: icon.body, hFlip: false };
  const alias = set.aliases?.[name];
  const parent = alias ? set.icons[alias.parent] : undefined;
  return parent ? { name, body: parent.body, hFlip: alias?.hFlip === true } : undefined;
}

/** The artwork for one (singular, lower-case) word, or undefined when the set has nothing for it. */
export function artworkFor(word: string): Artwork | undefined {
  if (DRAWN_HERE[word]) return artworkNamed(word);
  const found = artworkIndex().byWord.get(word);
  return found ? artworkNamed(found.name) : undefined;
}
