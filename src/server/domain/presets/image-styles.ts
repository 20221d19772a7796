import { presetId } from './preset-id.ts';

/**
 * How the local sketch engine draws in a style: palette ranges, which shapes it places, and a finishing
 * pass done with sharp. The numbers are the style; the engine keeps its composition from the prompt.
 */
export interface SketchStyle {
  /** Centre hue in degrees; null keeps the hue the prompt's hash picks. */
  hue: number | null;
  /** How far shape colours wander from the centre hue, in degrees. */
  hueSpread: number;
  saturation: [number, number];
  lightness: [number, number];
  /** Lightness of the background gradient's two ends. */
  background: [number, number];
  backgroundSaturation: number;
  /** Shape kinds: 0 disc, 1 ring, 2 card, 3 triangle, 4 wave. */
  shapes: number[];
  /** Outlines instead of fills. */
  outline: boolean;
  glows: boolean;
  vignette: boolean;
  finish: 'none' | 'grayscale' | 'sepia' | 'soften' | 'vivid';
}

export interface ImageStyle {
  slug: string;
  name: string;
  description: string;
  metadata: { medium: string; mood: string; palette: string[] };
  sketch: SketchStyle;
}

const base: SketchStyle = {
  hue: null,
  hueSpread: 40,
  saturation: [45, 85],
  lightness: [40, 72],
  background: [14, 26],
  backgroundSaturation: 40,
  shapes: [0, 1, 2, 3, 4],
  outline: false,
  glows: true,
  vignette: true,
  finish: 'none',
};

const style = (
  slug: string,
  name: string,
  description: string,
  metadata: ImageStyle['metadata'],
  sketch: Partial<SketchStyle>,
): ImageStyle => ({ slug, name, description, metadata, sketch: { ...base, ...sketch } });

/** The image styles every server offers; each becomes a `style` preset of namespace `local`. */
export const IMAGE_STYLES: readonly ImageStyle[] = [
  style(
    'watercolor',
    'Watercolor',
    'Soft washes of colour on pale paper, edges blurred.',
    { medium: 'paint', mood: 'calm', palette: ['pastel', 'light'] },
    {
      saturation: [35, 60],
      lightness: [62, 82],
      background: [92, 86],
      backgroundSaturation: 25,
      shapes: [0, 4],
      vignette: false,
      finish: 'soften',
    },
  ),
  style(
    'ink-sketch',
    'Ink sketch',
    'Black ink outlines on white paper, no colour.',
    { medium: 'ink', mood: 'calm', palette: ['monochrome', 'light'] },
    {
      saturation: [0, 5],
      lightness: [8, 20],
      background: [97, 93],
      backgroundSaturation: 0,
      outline: true,
      glows: false,
      vignette: false,
      finish: 'grayscale',
    },
  ),
  style(
    'neon-noir',
    'Neon noir',
    'Glowing magenta and cyan shapes on a near-black night.',
    { medium: 'digital', mood: 'dramatic', palette: ['neon', 'dark'] },
    {
      hue: 300,
      hueSpread: 120,
      saturation: [90, 100],
      lightness: [55, 65],
      background: [3, 8],
      backgroundSaturation: 60,
      shapes: [1, 4],
      outline: true,
    },
  ),
  style(
    'pastel-dream',
    'Pastel dream',
    'Rounded pastel shapes floating on a light sky.',
    { medium: 'digital', mood: 'playful', palette: ['pastel', 'light'] },
    {
      saturation: [40, 60],
      lightness: [78, 88],
      background: [90, 80],
      backgroundSaturation: 45,
      shapes: [0, 2],
      vignette: false,
    },
  ),
  style(
    'vintage-sepia',
    'Vintage sepia',
    'A faded brown photograph from another century.',
    { medium: 'photo', mood: 'nostalgic', palette: ['sepia', 'warm'] },
    { finish: 'sepia', background: [30, 45] },
  ),
  style(
    'blueprint',
    'Blueprint',
    'White technical outlines on deep engineering blue.',
    { medium: 'drawing', mood: 'technical', palette: ['blue', 'dark'] },
    {
      hue: 210,
      hueSpread: 0,
      saturation: [10, 20],
      lightness: [88, 96],
      background: [24, 30],
      backgroundSaturation: 70,
      shapes: [1, 2, 3],
      outline: true,
      glows: false,
      vignette: false,
    },
  ),
  style(
    'pop-art',
    'Pop art',
    'Flat primary colours at full strength, hard edges.',
    { medium: 'print', mood: 'playful', palette: ['primary', 'vivid'] },
    {
      hue: 0,
      hueSpread: 120,
      saturation: [95, 100],
      lightness: [48, 55],
      background: [90, 85],
      backgroundSaturation: 90,
      shapes: [0, 2, 3],
      glows: false,
      vignette: false,
      finish: 'vivid',
    },
  ),
  style(
    'film-noir',
    'Film noir',
    'High-contrast black and white with deep shadows.',
    { medium: 'photo', mood: 'dramatic', palette: ['monochrome', 'dark'] },
    { lightness: [60, 95], background: [2, 12], finish: 'grayscale' },
  ),
  style(
    'autumn',
    'Autumn',
    'Warm oranges, rusts and golds of falling leaves.',
    { medium: 'paint', mood: 'warm', palette: ['warm', 'earthy'] },
    { hue: 28, hueSpread: 20, saturation: [60, 85], lightness: [40, 60], background: [12, 22] },
  ),
  style(
    'ocean',
    'Ocean',
    'Teals and deep blues, waves rolling across.',
    { medium: 'paint', mood: 'calm', palette: ['cool', 'blue'] },
    {
      hue: 200,
      hueSpread: 25,
      saturation: [55, 85],
      lightness: [35, 65],
      background: [10, 24],
      shapes: [0, 4],
    },
  ),
  style(
    'forest',
    'Forest',
    'Mossy greens under a dim canopy.',
    { medium: 'paint', mood: 'calm', palette: ['green', 'earthy'] },
    {
      hue: 115,
      hueSpread: 30,
      saturation: [35, 65],
      lightness: [28, 55],
      background: [8, 16],
      shapes: [0, 3],
    },
  ),
  style(
    'sunset',
    'Sunset',
    'Glowing reds and golds fading into violet.',
    { medium: 'digital', mood: 'warm', palette: ['warm', 'vivid'] },
    {
      hue: 15,
      hueSpread: 35,
      saturation: [80, 100],
      lightness: [50, 65],
      background: [20, 40],
      backgroundSaturation: 70,
      shapes: [0, 4],
    },
  ),
  style(
    'minimal',
    'Minimal',
    'A few quiet shapes on an empty light ground.',
    { medium: 'digital', mood: 'calm', palette: ['neutral', 'light'] },
    {
      saturation: [15, 35],
      lightness: [35, 55],
      background: [95, 92],
      backgroundSaturation: 5,
      shapes: [0, 2],
      glows: false,
      vignette: false,
    },
  ),
  style(
    'cyberpunk',
    'Cyberpunk',
    'Electric yellow and cyan triangles over a violet haze.',
    { medium: 'digital', mood: 'dramatic', palette: ['neon', 'dark'] },
    {
      hue: 180,
      hueSpread: 120,
      saturation: [90, 100],
      lightness: [50, 60],
      background: [6, 18],
      backgroundSaturation: 80,
      shapes: [2, 3],
      finish: 'vivid',
    },
  ),
];

/** The preset id of a style: stable across restarts and servers. */
export const imageStylePresetId = (slug: string) => presetId('local', 'style', slug);

const BY_PRESET_ID = new Map(IMAGE_STYLES.map((s) => [imageStylePresetId(s.slug), s]));

/** The style a preset id names, if it names one. */
export const imageStyleByPresetId = (id: string): ImageStyle | undefined => BY_PRESET_ID.get(id);
