import { createHash } from 'node:crypto';
import { artworkNamed, ICON_GRID } from './scene-artwork.ts';
import type { Scene, SceneSubject } from './scene-parse.ts';

/**
 * A scene drawn as SVG: a sky for the time of day and weather, a ground for the setting, scenery
 * (mountains, skyline, trees, waves), then the subjects from packaged artwork, counted and coloured as
 * the prompt said. The seed moves things about (positions, facing, stars, clouds) so each seed is a
 * different take on the same scene; the same prompt and seed always give the same document. No text is
 * drawn, so no fonts are needed.
 */

/** Where the sky meets the ground, as a fraction of the height. */
const HORIZON = 0.6;

interface Rgb {
  r: number;
  g: number;
  b: number;
}

function random(seed: number, prompt: string): () => number {
  const digest = createHash('sha256').update(`local-scene/1\n${seed}\n${prompt}`).digest();
  let a = digest.readUInt32LE(0);
  // mulberry32: small, fast and good enough to place things.
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const n = (value: number) => (Math.round(value * 10) / 10).toString();

function parseHex(hex: string): Rgb {
  const h = hex.length === 4 ? hex.replace(/^#(.)(.)(.)$/, '#$1$1$2$2$3$3') : hex;
  return {
    r: Number.parseInt(h.slice(1, 3), 16),
    g: Number.parseInt(h.slice(3, 5), 16),
    b: Number.parseInt(h.slice(5, 7), 16),
  };
}
const toHex = ({ r, g, b }: Rgb) =>
  `#${[r, g, b]
    .map((v) =>
      Math.round(Math.max(0, Math.min(255, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

function toHsl({ r, g, b }: Rgb): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  return [h * 60, s, l];
}
function fromHsl(h: number, s: number, l: number): Rgb {
  const k = (m: number) => (m + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (m: number) => l - a * Math.max(-1, Math.min(k(m) - 3, Math.min(9 - k(m), 1)));
  return { r: f(0) * 255, g: f(8) * 255, b: f(4) * 255 };
}

/**
 * Repaints an icon in a colour: every coloured fill takes the colour's hue and saturation and keeps its
 * own light and shade around the colour's lightness, so a fox painted blue still reads as a fox. Near-grey
 * fills (eyes, outlines, highlights) stay as drawn, except for black, white and grey targets, which
 * repaint everything but the darkest and lightest details.
 */
export function recolour(body: string, target: string): string {
  const [th, ts, tl] = toHsl(parseHex(target));
  const HEX = /#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{3})\b/g;
  // An icon drawn mostly in greys (a white rabbit, a grey robot) has its greys repainted too.
  const fills = body.match(HEX) ?? [];
  const coloured = fills.filter((hex) => toHsl(parseHex(hex))[1] >= 0.15).length;
  const greyIcon = coloured < fills.length / 2;
  return body.replace(HEX, (hex) => {
    const [, s, l] = toHsl(parseHex(hex));
    if (greyIcon && ts >= 0.1 && s < 0.15 && l >= 0.15 && l <= 0.96) {
      return toHex(fromHsl(th, ts, Math.max(0.12, Math.min(0.85, tl + (l - 0.5) * 0.45))));
    }
    if (ts < 0.1) {
      if (l < 0.12 || l > 0.93) return hex;
      return toHex(fromHsl(0, 0, Math.max(0.05, Math.min(0.95, tl + (l - 0.5) * 0.35))));
    }
    if (s < 0.15 || l < 0.1 || l > 0.94) return hex;
    return toHex(fromHsl(th, ts, Math.max(0.12, Math.min(0.85, tl + (l - 0.5) * 0.45))));
  });
}

/** Ids inside an icon made unique to one placement, so two placements never share a gradient. */
function uniqueIds(body: string, prefix: string): string {
  return body
    .replace(/id="([^"]+)"/g, `id="${prefix}$1"`)
    .replace(/url\(#([^)]+)\)/g, `url(#${prefix}$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}$1"`);
}

let placements = 0;
/** An icon body at (x, y) with the given edge, mirrored when asked. */
function place(body: string, x: number, y: number, size: number, mirrored: boolean): string {
  const s = size / ICON_GRID;
  const transform = mirrored
    ? `translate(${n(x + size)} ${n(y)}) scale(${-s} ${s})`
    : `translate(${n(x)} ${n(y)}) scale(${s})`;
  placements = (placements + 1) % 1_000_000;
  return `<g transform="${transform}">${uniqueIds(body, `p${placements}-`)}</g>`;
}

function icon(name: string): string {
  return artworkNamed(name)?.body ?? '';
}

/** Sky colours, top and bottom, for the time of day under the weather. */
function skyColours(scene: Scene): [string, string] {
  const overcast = scene.weather.some((w) => w === 'rain' || w === 'storm' || w === 'snowfall');
  if (scene.setting === 'space') return ['#02030a', '#0b0f2a'];
  if (scene.time === 'night') return overcast ? ['#07090f', '#1f2433'] : ['#060a24', '#1d2a5c'];
  if (scene.time === 'sunset') return overcast ? ['#3d3550', '#b07a6a'] : ['#3a2a6e', '#ff9a4a'];
  if (scene.weather.includes('storm')) return ['#3a4150', '#6c7585'];
  return overcast ? ['#7d8794', '#c3cad3'] : ['#3f8ee0', '#bfe3ff'];
}

/** Ground colours, near and far, for the setting; night dims them. */
function groundColours(scene: Scene): [string, string] {
  const night = scene.time === 'night';
  switch (scene.setting) {
    case 'snow':
      // Snow stays light at night (under moonlight), just bluer.
      return night ? ['#c9d4ea', '#e4ebf7'] : ['#e9f0f8', '#ffffff'];
    case 'sea':
      if (scene.time === 'sunset') return ['#1d2f5c', '#8a5a6a'];
      return night ? ['#0a2140', '#0f2f57'] : ['#1565b0', '#2f8ad6'];
    case 'beach':
      return night ? ['#6b5c45', '#8a7a5e'] : ['#e9cf94', '#f5e2b0'];
    case 'city':
      return night ? ['#1a1c22', '#2a2d35'] : ['#7b7f88', '#9a9ea6'];
    case 'forest':
      return night ? ['#0f2614', '#173a1e'] : ['#2f7a34', '#4d9a45'];
    case 'desert':
      return night ? ['#5e4a2e', '#7a6240'] : ['#e0b46a', '#f0cc88'];
    case 'mountains':
      return night ? ['#2a2f38', '#3b424d'] : ['#7d8a6a', '#98a57f'];
    case 'space':
    case 'sky':
      return ['#000000', '#000000'];
    default:
      return night ? ['#16331a', '#214526'] : ['#5cae4c', '#7cc862'];
  }
}

interface Canvas {
  width: number;
  height: number;
  horizon: number;
  rand: () => number;
  between: (low: number, high: number) => number;
}

function scenery(scene: Scene, c: Canvas): string[] {
  const { width, height, horizon, between } = c;
  const parts: string[] = [];
  const night = scene.time === 'night';
  switch (scene.setting) {
    case 'mountains': {
      const peaks = 4;
      for (let i = 0; i < peaks; i++) {
        const cx = (width * (i + 0.5)) / peaks + between(-0.08, 0.08) * width;
        const peak = horizon - height * between(0.18, 0.34);
        const half = width * between(0.22, 0.32);
        parts.push(
          `<path d="M${n(cx - half)} ${n(horizon)} L${n(cx)} ${n(peak)} L${n(cx + half)} ${n(horizon)} Z" fill="${night ? '#2b3142' : '#6f7a8c'}"/>`,
        );
      }
      break;
    }
    case 'city': {
      let x = -between(0, 0.05) * width;
      while (x < width) {
        const w = width * between(0.06, 0.12);
        const top = horizon - height * between(0.12, 0.36);
        parts.push(
          `<rect x="${n(x)}" y="${n(top)}" width="${n(w - width * 0.006)}" height="${n(horizon - top)}" fill="${night ? '#161a26' : '#5b6573'}"/>`,
        );
        // Windows, lit at night.
        const pane = w * 0.16;
        for (let wy = top + pane; wy < horizon - pane * 1.5; wy += pane * 2.2) {
          for (let wx = x + pane; wx < x + w - pane * 1.5; wx += pane * 2) {
            if (c.rand() < (night ? 0.55 : 0.9)) {
              parts.push(
                `<rect x="${n(wx)}" y="${n(wy)}" width="${n(pane)}" height="${n(pane * 1.2)}" fill="${night ? '#ffd66b' : '#a9c4dc'}"/>`,
              );
            }
          }
        }
        x += w;
      }
      break;
    }
    case 'forest': {
      const trees = 9;
      const size = height * 0.2;
      for (let i = 0; i < trees; i++) {
        const x = (width * i) / (trees - 1) - size / 2 + between(-0.03, 0.03) * width;
        parts.push(place(icon('evergreen-tree'), x, horizon - size * 0.9, size, false));
      }
      break;
    }
    case 'beach': {
      parts.push(
        `<rect x="0" y="${n(horizon)}" width="${width}" height="${n(height * 0.1)}" fill="${night ? '#0f2f57' : '#2f8ad6'}"/>`,
      );
      break;
    }
    case 'desert': {
      for (let i = 0; i < 3; i++) {
        parts.push(
          `<ellipse cx="${n(between(0, width))}" cy="${n(horizon + height * 0.02)}" rx="${n(width * between(0.25, 0.4))}" ry="${n(height * between(0.04, 0.08))}" fill="${night ? '#6e5736' : '#e8c07a'}"/>`,
        );
      }
      break;
    }
    case 'sea': {
      // Crests of waves, lighter than the water.
      for (let i = 0; i < 14; i++) {
        const y = between(horizon + height * 0.03, height * 0.98);
        const x = between(-0.05, 1) * width;
        const w = width * between(0.05, 0.12);
        parts.push(
          `<path d="M${n(x)} ${n(y)} q${n(w / 4)} ${n(-w / 6)} ${n(w / 2)} 0 t${n(w / 2)} 0" fill="none" stroke="${night ? '#2d5585' : '#8cc6f0'}" stroke-width="${n(Math.max(1, height * 0.005))}" stroke-linecap="round"/>`,
        );
      }
      break;
    }
    case 'snow': {
      for (let i = 0; i < 4; i++) {
        parts.push(
          `<ellipse cx="${n(between(0, width))}" cy="${n(horizon + height * 0.015)}" rx="${n(width * between(0.2, 0.35))}" ry="${n(height * between(0.03, 0.06))}" fill="${night ? '#d8e1f2' : '#ffffff'}"/>`,
        );
      }
      break;
    }
    default:
      break;
  }
  return parts;
}

function celestial(scene: Scene, c: Canvas): string[] {
  const { width, height, horizon, between } = c;
  const short = Math.min(width, height);
  const parts: string[] = [];
  const overcast = scene.weather.some((w) => w === 'rain' || w === 'storm' || w === 'snowfall');
  const drawsOwn = (name: string) => scene.subjects.some((s) => s.artwork.name.includes(name));
  if (scene.time === 'night' || scene.setting === 'space') {
    const skyBottom = scene.setting === 'space' ? height : horizon;
    const stars = overcast ? 0 : scene.setting === 'space' ? 160 : 70;
    for (let i = 0; i < stars; i++) {
      parts.push(
        `<circle cx="${n(between(0, width))}" cy="${n(between(0, skyBottom * 0.95))}" r="${n(short * between(0.0015, 0.004))}" fill="#fffbe8" fill-opacity="${n(between(0.5, 1))}"/>`,
      );
    }
    if (!overcast && !drawsOwn('moon') && scene.setting !== 'space') {
      const size = short * 0.14;
      parts.push(
        place(icon('crescent-moon'), width * between(0.68, 0.82), height * between(0.06, 0.12), size, false),
      );
    }
  } else if (scene.time === 'sunset') {
    const r = short * 0.13;
    const cx = width * between(0.3, 0.7);
    parts.push(
      `<circle cx="${n(cx)}" cy="${n(horizon)}" r="${n(r * 2.4)}" fill="url(#sunglow)"/>`,
      `<circle cx="${n(cx)}" cy="${n(horizon - r * 0.2)}" r="${n(r)}" fill="#ffcf5a"/>`,
    );
  } else if (!overcast && !drawsOwn('sun')) {
    const r = short * 0.07;
    parts.push(
      `<circle cx="${n(width * between(0.72, 0.86))}" cy="${n(height * between(0.1, 0.16))}" r="${n(r)}" fill="#ffe066"/>`,
    );
  }
  return parts;
}

function weather(scene: Scene, c: Canvas): string[] {
  const { width, height, horizon, between } = c;
  const short = Math.min(width, height);
  const parts: string[] = [];
  const cloudy = scene.weather.some(
    (w) => w === 'clouds' || w === 'rain' || w === 'storm' || w === 'snowfall',
  );
  if (cloudy) {
    const clouds = scene.weather.includes('clouds') ? 3 : 4;
    for (let i = 0; i < clouds; i++) {
      const size = short * between(0.16, 0.24);
      parts.push(
        place(
          icon('cloud'),
          (width * (i + between(0.05, 0.5))) / clouds,
          between(0, horizon * 0.28),
          size,
          c.rand() < 0.5,
        ),
      );
    }
  }
  if (scene.weather.includes('storm')) {
    parts.push(place(icon('high-voltage'), width * between(0.2, 0.7), horizon * 0.22, short * 0.16, false));
  }
  if (scene.weather.includes('rain') || scene.weather.includes('storm')) {
    const drop = height * 0.035;
    const lines: string[] = [];
    for (let i = 0; i < 140; i++) {
      const x = between(0, width);
      const y = between(horizon * 0.2, height);
      lines.push(`M${n(x)} ${n(y)}l${n(-drop * 0.25)} ${n(drop)}`);
    }
    parts.push(
      `<path d="${lines.join('')}" stroke="#c9dcf0" stroke-opacity="0.7" stroke-width="${n(Math.max(1, short * 0.003))}" stroke-linecap="round"/>`,
    );
  }
  if (scene.weather.includes('snowfall')) {
    for (let i = 0; i < 120; i++) {
      parts.push(
        `<circle cx="${n(between(0, width))}" cy="${n(between(0, height))}" r="${n(short * between(0.003, 0.008))}" fill="#ffffff" fill-opacity="0.9"/>`,
      );
    }
  }
  return parts;
}

interface Placed {
  subject: SceneSubject;
}

/**
 * Copies of the subjects laid out in rows inside a band, largest that fits, nudged by the seed; across
 * the whole width, or within `span` (a subject the prompt placed: "on the left", "in the corner").
 */
function layout(
  items: Placed[],
  band: { top: number; bottom: number },
  maxSize: number,
  c: Canvas,
  span: { left: number; width: number } = { left: 0, width: c.width },
): string[] {
  if (items.length === 0) return [];
  const { between } = c;
  const { width } = span;
  const total = items.length;
  const rows = total <= 5 ? 1 : total <= 12 ? 2 : 3;
  const perRow = Math.ceil(total / rows);
  // Cells no wider than a subject needs, so a short row leaves room the seed can move it in.
  const cell = Math.min((width * 0.94) / perRow, maxSize * 1.3);
  const rowHeight = (band.bottom - band.top) / rows;
  const size = Math.min(maxSize, cell * 0.92, rowHeight * 0.98);
  const shifts = Array.from({ length: rows }, (_, row) => {
    const free = width - Math.min(perRow, total - row * perRow) * cell;
    return between(-0.4, 0.4) * free;
  });
  const parts: string[] = [];
  for (const [i, { subject }] of items.entries()) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, total - row * perRow);
    const column = i % perRow;
    // "Big", "huge" and the like may outgrow their cell and row (a lone subject has room around it).
    const grow = Math.max(1, subject.scale);
    const edge = Math.min(size * subject.scale, cell * 0.98 * grow, rowHeight * grow, c.height * 0.8);
    const rowLeft = span.left + (width - inRow * cell) / 2 + shifts[row]!;
    // Nudged by at most 3% of a cell, so neighbours never touch.
    const cx = rowLeft + cell * (column + 0.5) + between(-0.03, 0.03) * cell;
    const bottom = band.top + rowHeight * (row + 1) - between(0, 0.06) * rowHeight;
    const body = subject.colour ? recolour(subject.artwork.body, subject.colour.hex) : subject.artwork.body;
    const mirrored = subject.artwork.hFlip !== c.rand() < 0.3;
    if (!subject.airborne) {
      parts.push(
        `<ellipse cx="${n(cx)}" cy="${n(bottom - edge * 0.04)}" rx="${n(edge * 0.38)}" ry="${n(edge * 0.05)}" fill="#000" fill-opacity="0.18"/>`,
      );
    }
    parts.push(place(body, cx - edge / 2, bottom - edge, edge, mirrored));
  }
  return parts;
}

function subjects(scene: Scene, c: Canvas): string[] {
  const { width, height, horizon } = c;
  const short = Math.min(width, height);
  const copies = (airborne: boolean) =>
    scene.subjects
      .filter((s) => s.airborne === airborne)
      .flatMap((subject) => Array.from({ length: subject.count }, () => ({ subject })));
  const aloft = copies(true);
  const grounded = copies(false);
  const groundless = scene.setting === 'space' || scene.setting === 'sky';
  const skyBand = {
    top: height * 0.05,
    bottom: grounded.length > 0 && !groundless ? horizon * 0.8 : height * 0.6,
  };
  const groundBand = groundless
    ? { top: height * 0.3, bottom: height * 0.92 }
    : { top: horizon - (height - horizon) * 0.55, bottom: height * 0.95 };
  if (scene.subjects.some((s) => s.placement)) return placedSubjects(scene, c, skyBand, groundBand);
  return [...layout(aloft, skyBand, short * 0.3, c), ...layout(grounded, groundBand, short * 0.5, c)];
}

type Band = { top: number; bottom: number };

/**
 * Subjects where the prompt's layout words put them: each kind in its own strip of the width centred on
 * its place (the unplaced share what is left), raised into the sky band when "above" something, lower
 * and larger in front, higher and smaller behind; drawn back to front.
 */
function placedSubjects(scene: Scene, c: Canvas, skyBand: Band, groundBand: Band): string[] {
  const { width, height } = c;
  const short = Math.min(width, height);
  const taken = scene.subjects.flatMap((s) => (s.placement?.x === undefined ? [] : [s.placement.x]));
  const free = [0.5, 0.2, 0.8, 0.35, 0.65].filter((x) => taken.every((t) => Math.abs(t - x) > 0.2));
  let nextFree = 0;
  const depthOrder = { back: 0, undefined: 1, front: 2 } as const;
  const ordered = [...scene.subjects].sort(
    (a, b) => depthOrder[a.placement?.depth ?? 'undefined'] - depthOrder[b.placement?.depth ?? 'undefined'],
  );
  const parts: string[] = [];
  for (const subject of ordered) {
    const place = subject.placement;
    const x = place?.x ?? free[nextFree++ % Math.max(1, free.length)] ?? 0.5;
    const corner = place?.said.some((said) => said.includes('corner')) ?? false;
    const strip = (corner ? 0.24 : 0.42) * width;
    const left = Math.max(0, Math.min(width - strip, x * width - strip / 2));
    const up = place?.level === 'up' || (subject.airborne && place?.level !== 'down');
    let band = up ? skyBand : groundBand;
    let scale = corner ? 0.7 : 1;
    if (place?.level === 'down' && subject.airborne) band = groundBand;
    if (place?.depth === 'front') {
      band = {
        top: band.top + (band.bottom - band.top) * 0.25,
        bottom: Math.min(height * 0.99, band.bottom + height * 0.04),
      };
      scale *= 1.15;
    } else if (place?.depth === 'back') {
      band = { top: band.top - height * 0.06, bottom: band.top + (band.bottom - band.top) * 0.6 };
      scale *= 0.8;
    }
    const items = Array.from({ length: subject.count }, () => ({ subject }));
    const maxSize = (up ? short * 0.3 : short * 0.5) * scale;
    parts.push(...layout(items, band, maxSize, c, { left, width: strip }));
  }
  return parts;
}

/**
 * Which layers of the scene to draw: all of it (a picture), or one layer of it for local-motion, which
 * moves each on its own: the backdrop (sky, setting, clouds, fog) under the camera, the subjects that
 * walk or fly across it, and the falling rain or snow (transparent around what they draw). The seeded
 * choices are made the same way for every part, so the layers put together are the picture.
 */
export type ScenePart = 'all' | 'backdrop' | 'subjects' | 'falling';

/** The scene as an SVG document of the given size. */
export function sceneSvg(
  scene: Scene,
  prompt: string,
  seed: number,
  width: number,
  height: number,
  part: ScenePart = 'all',
): string {
  const rand = random(seed, prompt);
  const between = (low: number, high: number) => low + (high - low) * rand();
  const groundless = scene.setting === 'space' || scene.setting === 'sky';
  const horizon = groundless ? height : height * HORIZON;
  const c: Canvas = { width, height, horizon, rand, between };
  const [skyTop, skyBottom] = skyColours(scene);
  const [groundFar, groundNear] = groundColours(scene);
  const defs = [
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyBottom}"/></linearGradient>`,
    `<linearGradient id="ground" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${groundNear}"/><stop offset="1" stop-color="${groundFar}"/></linearGradient>`,
    '<radialGradient id="sunglow"><stop offset="0" stop-color="#ffd27a" stop-opacity="0.8"/><stop offset="1" stop-color="#ff8a3d" stop-opacity="0"/></radialGradient>',
  ];
  const standing = scene.setting === 'forest' || scene.setting === 'beach';
  const view = scenery(scene, c);
  const parts = [`<rect width="${width}" height="${height}" fill="url(#sky)"/>`, ...celestial(scene, c)];
  if (!standing) parts.push(...view);
  if (!groundless) {
    parts.push(
      `<rect x="0" y="${n(horizon)}" width="${width}" height="${n(height - horizon)}" fill="url(#ground)"/>`,
    );
  }
  // What stands on the horizon (trees, the beach's strip of sea) is drawn over the ground's top edge.
  if (standing) parts.push(...view);
  const sky = weather(scene, c);
  const placed = subjects(scene, c);
  const fog = scene.weather.includes('fog')
    ? [`<rect width="${width}" height="${height}" fill="#e8ecf0" fill-opacity="0.38"/>`]
    : [];
  const clouds = sky.filter((p) => p.startsWith('<g'));
  const falling = sky.filter((p) => !p.startsWith('<g'));
  if (part === 'subjects' || part === 'falling') {
    // Falling weather is drawn again half a frame higher, so the sky's top is not bare when the layer
    // scrolls down and repeats.
    const only =
      part === 'subjects'
        ? placed.join('')
        : `${falling.join('')}<g transform="translate(0 ${n(-height / 2)})">${falling.join('')}</g>`;
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${only}</svg>`;
  }
  // Clouds (icons) behind the subjects; rain and snow fall in front of everything; fog veils it.
  if (part === 'backdrop') parts.push(...clouds, ...fog);
  else parts.push(...clouds, ...placed, ...falling, ...fog);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs.join('')}</defs>${parts.join('')}</svg>`;
}
