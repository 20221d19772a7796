import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { composeSketch } from './image-engine.ts';
import { COLOURS, type Scene } from './scene-parse.ts';

/*
 * The scene composer, checked two ways for each prompt: the composer's own scene (what it understood)
 * and the rendered pixels (that what it understood is on the picture: a dark sky at night, a light
 * ground in snow, a red region for a red subject, one blob per counted subject).
 */

const EDGE = 256;

interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

async function render(
  prompt: string,
  seed = 3,
): Promise<{ scene: Scene; description: string; pixels: Pixels }> {
  const result = await composeSketch({ prompt, seed, longEdge: EDGE });
  const { data, info } = await sharp(result.data).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    scene: result.scene,
    description: result.description,
    pixels: { data, width: info.width, height: info.height },
  };
}

/** Mean [r, g, b] and luma of the rows from `top` to `bottom` (fractions of the height). */
function band(p: Pixels, top: number, bottom: number) {
  let r = 0;
  let g = 0;
  let b = 0;
  let count = 0;
  for (let y = Math.floor(top * p.height); y < Math.ceil(bottom * p.height); y++) {
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 3;
      r += p.data[i]!;
      g += p.data[i + 1]!;
      b += p.data[i + 2]!;
      count++;
    }
  }
  r /= count;
  g /= count;
  b /= count;
  return { r, g, b, luma: 0.2126 * r + 0.7152 * g + 0.0722 * b };
}

function hueOf(r: number, g: number, b: number): { h: number; s: number; l: number } {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return { h: 0, s: 0, l };
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  return { h: h * 60, s, l };
}

/** Whether a pixel is of the named colour (hue within 20 degrees, clearly saturated). */
function matches(colour: string, r: number, g: number, b: number): boolean {
  const target = hueOf(
    ...([1, 3, 5].map((i) => Number.parseInt(COLOURS[colour]!.slice(i, i + 2), 16)) as [
      number,
      number,
      number,
    ]),
  );
  const own = hueOf(r, g, b);
  const distance = Math.min(Math.abs(own.h - target.h), 360 - Math.abs(own.h - target.h));
  return distance < 20 && own.s > 0.45 && own.l > 0.15 && own.l < 0.85;
}

function share(p: Pixels, colour: string): number {
  let hits = 0;
  for (let i = 0; i < p.data.length; i += 3)
    if (matches(colour, p.data[i]!, p.data[i + 1]!, p.data[i + 2]!)) hits++;
  return hits / (p.width * p.height);
}

/** Separate blobs of a colour across the picture: runs of columns that hold that colour. */
function blobsAcross(p: Pixels, colour: string): number {
  let runs = 0;
  let inside = false;
  for (let x = 0; x < p.width; x++) {
    let hit = false;
    for (let y = 0; y < p.height && !hit; y++) {
      const i = (y * p.width + x) * 3;
      hit = matches(colour, p.data[i]!, p.data[i + 1]!, p.data[i + 2]!);
    }
    if (hit && !inside) runs++;
    inside = hit;
  }
  return runs;
}

function meanDifference(a: Pixels, b: Pixels): number {
  let total = 0;
  for (let i = 0; i < a.data.length; i++) total += Math.abs(a.data[i]! - b.data[i]!);
  return total / a.data.length;
}

const dark = (p: Pixels) => expect(band(p, 0, 0.2).luma).toBeLessThan(60);
const daylight = (p: Pixels) => {
  const sky = band(p, 0, 0.2);
  expect(sky.luma).toBeGreaterThan(100);
  expect(sky.b).toBeGreaterThan(sky.r);
};
const lightGround = (p: Pixels) => expect(band(p, 0.96, 1).luma).toBeGreaterThan(185);
const sea = (p: Pixels) => {
  const water = band(p, 0.96, 1);
  expect(water.b).toBeGreaterThan(water.r + 40);
};
const warmSky = (p: Pixels) => {
  const low = band(p, 0.4, 0.55);
  expect(low.r).toBeGreaterThan(low.b);
};
const grey = (p: Pixels) => {
  const all = band(p, 0, 1);
  expect(all.r).toBeCloseTo(all.g, 0);
  expect(all.g).toBeCloseTo(all.b, 0);
};
const greenGround = (p: Pixels) => {
  const ground = band(p, 0.96, 1);
  expect(ground.g).toBeGreaterThan(ground.r);
  expect(ground.g).toBeGreaterThan(ground.b);
};

interface Case {
  prompt: string;
  subjects?: Array<{ word: string; count?: number; colour?: string }>;
  setting?: Scene['setting'];
  time?: Scene['time'];
  weather?: Scene['weather'][number][];
  style?: Scene['style'];
  undrawn?: string[];
  /** A subject colour that must cover a region of its own (more than a plain copy of the prompt). */
  covers?: string;
  /** Blobs of `covers` counted across the picture. */
  blobs?: number;
  pixels?: Array<(p: Pixels) => void>;
}

const CASES: Case[] = [
  {
    prompt: 'A red fox in the snow at night',
    subjects: [{ word: 'fox', count: 1, colour: 'red' }],
    setting: 'snow',
    time: 'night',
    covers: 'red',
    pixels: [dark, lightGround],
  },
  {
    prompt: 'three blue whales',
    subjects: [{ word: 'whale', count: 3, colour: 'blue' }],
    setting: 'sea',
    time: 'day',
    pixels: [sea, daylight],
  },
  {
    prompt: 'three red whales in the ocean',
    subjects: [{ word: 'whale', count: 3 }],
    covers: 'red',
    blobs: 3,
    pixels: [sea],
  },
  {
    prompt: 'two yellow cats in a field',
    subjects: [{ word: 'cat', count: 2 }],
    covers: 'yellow',
    blobs: 2,
    pixels: [greenGround],
  },
  { prompt: '4 purple rabbits', subjects: [{ word: 'rabbit', count: 4 }], covers: 'purple', blobs: 4 },
  { prompt: 'five pink pigs on a farm', subjects: [{ word: 'pig', count: 5 }], covers: 'pink', blobs: 5 },
  {
    prompt: 'a green car in the city',
    subjects: [{ word: 'car', count: 1 }],
    setting: 'city',
    covers: 'green',
    blobs: 1,
  },
  {
    prompt: 'a yellow car in the city at night',
    setting: 'city',
    time: 'night',
    covers: 'yellow',
    pixels: [dark],
  },
  {
    prompt: 'a snowman in the snow',
    subjects: [{ word: 'snowman' }],
    setting: 'snow',
    pixels: [lightGround, daylight],
  },
  {
    prompt: 'a penguin on the ice at night',
    subjects: [{ word: 'penguin' }],
    setting: 'snow',
    time: 'night',
    pixels: [dark, lightGround],
  },
  {
    prompt: 'a flock of birds over the sea at sunset',
    subjects: [{ word: 'bird', count: 7 }],
    setting: 'sea',
    time: 'sunset',
    pixels: [warmSky],
  },
  {
    prompt: 'a sailboat at sunset',
    subjects: [{ word: 'boat' }],
    setting: 'sea',
    time: 'sunset',
    pixels: [warmSky],
  },
  { prompt: 'a camel in the desert', subjects: [{ word: 'camel' }], setting: 'desert', pixels: [daylight] },
  { prompt: 'a deer in the forest', subjects: [{ word: 'deer' }], setting: 'forest', pixels: [greenGround] },
  {
    prompt: 'a tiny green dragon in a misty forest',
    subjects: [{ word: 'dragon', colour: 'green' }],
    setting: 'forest',
    weather: ['fog'],
  },
  {
    prompt: 'a rocket in space',
    subjects: [{ word: 'rocket' }],
    setting: 'space',
    time: 'night',
    pixels: [dark],
  },
  { prompt: 'two dogs in the rain', subjects: [{ word: 'dog', count: 2 }], weather: ['rain'] },
  {
    prompt: 'a cow in a meadow during a thunderstorm',
    subjects: [{ word: 'cow' }],
    setting: 'meadow',
    weather: ['storm'],
  },
  {
    prompt: 'a house on a snowy hill at night while snowing',
    subjects: [{ word: 'house' }],
    setting: 'snow',
    time: 'night',
    weather: ['snowfall'],
    pixels: [lightGround],
  },
  {
    prompt: 'a purple cat',
    subjects: [{ word: 'cat', count: 1, colour: 'purple' }],
    setting: 'meadow',
    covers: 'purple',
    pixels: [greenGround, daylight],
  },
  {
    prompt: 'a black and white photo of a horse',
    subjects: [{ word: 'horse' }],
    style: 'grayscale',
    pixels: [grey],
  },
  { prompt: 'a vintage picture of a bicycle', subjects: [{ word: 'bicycle' }], style: 'sepia' },
  { prompt: 'a dozen red roses', subjects: [{ word: 'rose', count: 12 }] },
  {
    prompt: 'a lighthouse on a rocky cliff',
    subjects: [{ word: 'lighthouse', count: 1 }],
    setting: 'mountains',
    pixels: [daylight],
  },
  { prompt: 'a gazebo by the sea', setting: 'sea', undrawn: ['gazebo'] },
  { prompt: 'a zorblax near a quixotic flumph', undrawn: ['zorblax', 'quixotic', 'flumph'] },
  { prompt: 'a mountain lake with a duck', subjects: [{ word: 'duck' }], setting: 'mountains' },
  { prompt: 'an octopus', subjects: [{ word: 'octopus' }], setting: 'sea', pixels: [sea] },
  { prompt: 'a turtle on the beach', subjects: [{ word: 'turtle' }], setting: 'beach' },
  {
    prompt: 'a robot and a dog in the park',
    subjects: [{ word: 'robot' }, { word: 'dog' }],
    setting: 'meadow',
  },
  {
    prompt: 'three green birds in the sky',
    subjects: [{ word: 'bird', count: 3 }],
    setting: 'sky',
    covers: 'green',
    blobs: 3,
  },
  { prompt: 'a giant tree in the morning', subjects: [{ word: 'tree' }], time: 'day', pixels: [daylight] },
  { prompt: 'cats', subjects: [{ word: 'cat', count: 3 }] },
  {
    prompt: 'a white rabbit in a field at night',
    subjects: [{ word: 'rabbit', colour: 'white' }],
    time: 'night',
    pixels: [dark],
  },
  { prompt: 'a ghost at midnight', subjects: [{ word: 'ghost' }], time: 'night', pixels: [dark] },
];

/** Where a colour is on the picture: its pixels' mean position, lowest row and share (fractions). */
function region(p: Pixels, colour: string) {
  let count = 0;
  let sx = 0;
  let sy = 0;
  let lowest = 0;
  for (let y = 0; y < p.height; y++) {
    for (let x = 0; x < p.width; x++) {
      const i = (y * p.width + x) * 3;
      if (!matches(colour, p.data[i]!, p.data[i + 1]!, p.data[i + 2]!)) continue;
      count++;
      sx += x;
      sy += y;
      lowest = Math.max(lowest, y);
    }
  }
  return {
    x: sx / count / p.width,
    y: sy / count / p.height,
    bottom: lowest / p.height,
    share: count / (p.width * p.height),
  };
}

interface LayoutCase {
  prompt: string;
  /** What the composer's description says about the layout. */
  says: string;
  /** The check on the pixels: red and purple regions (the subjects are painted in those colours). */
  check: (red: ReturnType<typeof region>, purple: ReturnType<typeof region>) => void;
}

const LAYOUT_CASES: LayoutCase[] = [
  {
    prompt: 'a red cat to the left of a purple dog',
    says: 'cat left of dog',
    check: (red, purple) => expect(purple.x - red.x).toBeGreaterThan(0.25),
  },
  {
    prompt: 'a purple dog to the right of a red cat',
    says: 'dog right of cat',
    check: (red, purple) => expect(purple.x - red.x).toBeGreaterThan(0.25),
  },
  {
    prompt: 'a red cat above a purple dog',
    says: 'cat above dog',
    check: (red, purple) => {
      expect(purple.y - red.y).toBeGreaterThan(0.15);
      expect(Math.abs(purple.x - red.x)).toBeLessThan(0.15);
    },
  },
  {
    prompt: 'a red cat below a purple bird',
    says: 'cat below bird',
    check: (red, purple) => expect(red.y - purple.y).toBeGreaterThan(0.15),
  },
  {
    prompt: 'a red cat in front of a purple house',
    says: 'cat in front of house',
    check: (red, purple) => expect(red.bottom).toBeGreaterThan(purple.bottom + 0.03),
  },
  {
    prompt: 'a red cat behind a purple house',
    says: 'cat behind house',
    check: (red, purple) => expect(purple.bottom).toBeGreaterThan(red.bottom + 0.03),
  },
  {
    prompt: 'a red cat in the top left corner and a purple dog',
    says: 'cat in the top left corner',
    check: (red) => {
      expect(red.x).toBeLessThan(0.2);
      expect(red.y).toBeLessThan(0.45);
    },
  },
  {
    prompt: 'a purple dog and a red cat in the corner',
    says: 'cat in the bottom right corner',
    check: (red) => {
      expect(red.x).toBeGreaterThan(0.8);
      expect(red.y).toBeGreaterThan(0.55);
    },
  },
  {
    prompt: 'a red cat on the left and a purple dog in the middle',
    says: 'dog in the middle',
    check: (red, purple) => {
      expect(red.x).toBeLessThan(0.3);
      expect(Math.abs(purple.x - 0.5)).toBeLessThan(0.1);
    },
  },
];

describe('scene composer: layout words place and size the subjects', () => {
  it.each(LAYOUT_CASES)('$prompt', async (c) => {
    const { description, pixels } = await render(c.prompt);
    expect(description).toContain(c.says);
    c.check(region(pixels, 'red'), region(pixels, 'purple'));
  });

  it('draws "huge" larger than plain, and "tiny" and "small" smaller', async () => {
    const size = async (prompt: string) => region((await render(prompt)).pixels, 'red').share;
    const [huge, big, plain, small, tiny] = (await Promise.all(
      ['a huge red cat', 'a big red cat', 'a red cat', 'a small red cat', 'a tiny red cat'].map(size),
    )) as [number, number, number, number, number];
    expect(huge).toBeGreaterThan(plain * 1.5);
    expect(big).toBeGreaterThan(plain * 1.2);
    expect(small).toBeLessThan(plain * 0.7);
    expect(tiny).toBeLessThan(small);
  });
});

describe('scene composer: the prompt is drawn', () => {
  it.each(CASES)('$prompt', async (c) => {
    const { scene, pixels } = await render(c.prompt);
    for (const expected of c.subjects ?? []) {
      const found = scene.subjects.find(
        (s) => s.word === expected.word || s.artwork.name.includes(expected.word),
      );
      expect(found, `${expected.word} in ${JSON.stringify(scene.subjects.map((s) => s.word))}`).toBeDefined();
      if (expected.count !== undefined) expect(found?.count).toBe(expected.count);
      if (expected.colour !== undefined) expect(found?.colour?.name).toBe(expected.colour);
    }
    if (c.setting) expect(scene.setting).toBe(c.setting);
    if (c.time) expect(scene.time).toBe(c.time);
    for (const weather of c.weather ?? []) expect(scene.weather).toContain(weather);
    if (c.style) expect(scene.style).toBe(c.style);
    for (const word of c.undrawn ?? []) expect(scene.undrawn).toContain(word);
    if (!c.undrawn) expect(scene.undrawn).toEqual([]);
    if (c.covers) {
      // Against the same prompt without the colour word: the colour comes from the subject.
      const plain = await render(c.prompt.replace(new RegExp(`\\b${c.covers}\\s`, 'i'), ''));
      expect(share(pixels, c.covers)).toBeGreaterThan(share(plain.pixels, c.covers) + 0.02);
    }
    if (c.covers && c.blobs !== undefined) expect(blobsAcross(pixels, c.covers)).toBe(c.blobs);
    for (const check of c.pixels ?? []) check(pixels);
  });

  it('has at least 30 prompts', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });

  it('draws different prompts as visibly different pictures', async () => {
    const pictures = await Promise.all(
      [
        'A red fox in the snow at night',
        'three blue whales',
        'a camel in the desert',
        'a robot in the city',
      ].map(async (prompt) => (await render(prompt)).pixels),
    );
    for (let i = 0; i < pictures.length; i++) {
      for (let j = i + 1; j < pictures.length; j++) {
        expect(meanDifference(pictures[i]!, pictures[j]!)).toBeGreaterThan(20);
      }
    }
  });

  it('arranges the same scene differently for another seed, identically for the same one', async () => {
    const a = await render('two dogs in a park', 1);
    const again = await render('two dogs in a park', 1);
    const b = await render('two dogs in a park', 2);
    expect(meanDifference(a.pixels, again.pixels)).toBe(0);
    expect(meanDifference(a.pixels, b.pixels)).toBeGreaterThan(2);
    expect(b.scene.subjects).toEqual(a.scene.subjects);
  });

  it('says what it drew, what it could not, and whose artwork, in the picture metadata', async () => {
    const result = await composeSketch({ prompt: 'a red fox near a gazebo', seed: 1, longEdge: 64 });
    expect(result.description).toContain('1 red fox');
    expect(result.description).toContain('could not draw: gazebo');
    const xmp = (await sharp(result.data).metadata()).xmp?.toString() ?? '';
    expect(xmp).toContain('could not draw: gazebo');
    expect(xmp).toContain('Fluent Emoji');
    expect(xmp).toContain('Emojibase');
  });

  it('draws a prompt with nothing to draw as a plain landscape, and says so', async () => {
    const { scene, description } = await render('');
    expect(scene.subjects).toEqual([]);
    expect(description).toContain('no subject');
  });
});
