import { createHash } from 'node:crypto';
import type { SketchStyle } from './image-styles.ts';

/**
 * The picture of a local sketch, as SVG: a palette and shapes derived from a hash of the prompt and seed.
 * Every number comes from that hash, so the same prompt and seed always give the same document. Each word
 * of the prompt places one shape whose kind and colour come from the word itself. No text is drawn, so no
 * font is needed and nothing depends on the fonts a machine has. A style (an image style preset) bends
 * the palette, the shapes and the light; without one the picture is what it always was.
 */
export function sketchSvg(
  prompt: string,
  seed: number,
  width: number,
  height: number,
  style?: SketchStyle,
): string {
  const digest = createHash('sha256').update(`local-sketch/1\n${seed}\n${prompt}`).digest();
  const random = sfc32(
    digest.readUInt32LE(0),
    digest.readUInt32LE(4),
    digest.readUInt32LE(8),
    digest.readUInt32LE(12),
  );
  const between = (low: number, high: number) => low + (high - low) * random();
  const short = Math.min(width, height);
  const n = (value: number) => (Math.round(value * 10) / 10).toString();

  // A palette around one hue, in one of a few classic harmonies.
  const hue = between(0, 360);
  const harmonies = [
    [0, 30, 60],
    [0, 180, 210],
    [0, 120, 240],
    [0, 150, 210],
    [0, -40, 40],
  ];
  const harmony = harmonies[Math.floor(random() * harmonies.length)]!;
  const palette = Array.from({ length: 5 }, (_, i) =>
    style
      ? hsl(
          (style.hue ?? hue) + between(-style.hueSpread, style.hueSpread),
          between(...style.saturation),
          between(...style.lightness),
        )
      : hsl(hue + harmony[i % 3]! + between(-12, 12), between(45, 85), between(40, 72)),
  );
  const backgroundTop = style
    ? hsl((style.hue ?? hue) + between(-20, 20), style.backgroundSaturation, style.background[0])
    : hsl(hue + between(-20, 20), between(25, 55), between(8, 20));
  const backgroundBottom = style
    ? hsl((style.hue ?? hue) + between(-20, 20), style.backgroundSaturation, style.background[1])
    : hsl(hue + harmony[1]! + between(-20, 20), between(30, 60), between(18, 34));
  // Filled shapes, or outlines of them (a stroke a quarter of the size, like the ring).
  const paint = (colour: string, opacity: string, size: number) =>
    style?.outline
      ? `fill="none" stroke="${colour}" stroke-width="${n(Math.max(2, size * 0.25))}" stroke-opacity="${opacity}"`
      : `fill="${colour}" fill-opacity="${opacity}"`;
  const angle = between(0, 360);

  const defs: string[] = [];
  const parts: string[] = [];
  // Soft glows behind everything: radial gradients fading to transparent.
  const glows = style?.glows === false ? 0 : 3 + Math.floor(random() * 3);
  for (let i = 0; i < glows; i++) {
    const colour = palette[i % palette.length];
    defs.push(
      `<radialGradient id="glow${i}"><stop offset="0" stop-color="${colour}" stop-opacity="${n(between(0.45, 0.8))}"/><stop offset="1" stop-color="${colour}" stop-opacity="0"/></radialGradient>`,
    );
    parts.push(
      `<circle cx="${n(between(0, width))}" cy="${n(between(0, height))}" r="${n(short * between(0.3, 0.7))}" fill="url(#glow${i})"/>`,
    );
  }

  // One shape per word (up to 24); a prompt with no words still gets a few.
  const words = (prompt.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 24);
  const tokens = words.length > 0 ? words : Array.from({ length: 6 }, (_, i) => `~${i}`);
  for (const word of tokens) {
    const own = createHash('sha256').update(word).digest();
    const kind = style ? style.shapes[own[0]! % style.shapes.length]! : own[0]! % 5;
    const colour = palette[own[1]! % palette.length]!;
    const size = short * (0.04 + Math.min(word.length, 12) * 0.012) * between(0.7, 1.3);
    const x = between(0.08, 0.92) * width;
    const y = between(0.08, 0.92) * height;
    const rotation = between(0, 360);
    const opacity = n(between(0.55, 0.9));
    switch (kind) {
      case 0:
        parts.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n(size)}" ${paint(colour, opacity, size)}/>`);
        break;
      case 1:
        parts.push(
          `<circle cx="${n(x)}" cy="${n(y)}" r="${n(size)}" fill="none" stroke="${colour}" stroke-width="${n(size * 0.25)}" stroke-opacity="${opacity}"/>`,
        );
        break;
      case 2:
        parts.push(
          `<rect x="${n(x - size)}" y="${n(y - size * 0.6)}" width="${n(size * 2)}" height="${n(size * 1.2)}" rx="${n(size * 0.15)}" ${paint(colour, opacity, size)} transform="rotate(${n(rotation)} ${n(x)} ${n(y)})"/>`,
        );
        break;
      case 3: {
        const points = [0, 120, 240]
          .map((a) => {
            const t = ((a + rotation) * Math.PI) / 180;
            return `${n(x + size * 1.2 * Math.cos(t))},${n(y + size * 1.2 * Math.sin(t))}`;
          })
          .join(' ');
        parts.push(`<polygon points="${points}" ${paint(colour, opacity, size)}/>`);
        break;
      }
      default: {
        const span = size * 4;
        const amplitude = size * 0.8;
        parts.push(
          `<path d="M ${n(x - span)} ${n(y)} C ${n(x - span / 2)} ${n(y - amplitude)} ${n(x - span / 2)} ${n(y + amplitude)} ${n(x)} ${n(y)} S ${n(x + span / 2)} ${n(y - amplitude)} ${n(x + span)} ${n(y)}" fill="none" stroke="${colour}" stroke-width="${n(Math.max(2, size * 0.18))}" stroke-linecap="round" stroke-opacity="${opacity}" transform="rotate(${n(rotation)} ${n(x)} ${n(y)})"/>`,
        );
      }
    }
  }

  // A few long, thin strokes across the picture.
  for (let i = 0; i < 3; i++) {
    const y0 = between(0, height);
    const y1 = between(0, height);
    parts.push(
      `<path d="M 0 ${n(y0)} Q ${n(between(0.2, 0.8) * width)} ${n(between(0, height))} ${width} ${n(y1)}" fill="none" stroke="${palette[(i + 2) % palette.length]}" stroke-width="${n(short * 0.004 + 1)}" stroke-opacity="0.45"/>`,
    );
  }

  const rad = (angle * Math.PI) / 180;
  const gx = 0.5 + 0.5 * Math.cos(rad);
  const gy = 0.5 + 0.5 * Math.sin(rad);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    '<defs>',
    `<linearGradient id="sky" x1="${n(1 - gx)}" y1="${n(1 - gy)}" x2="${n(gx)}" y2="${n(gy)}">`,
    `<stop offset="0" stop-color="${backgroundTop}"/><stop offset="1" stop-color="${backgroundBottom}"/>`,
    '</linearGradient>',
    ...defs,
    '<radialGradient id="vignette" cx="0.5" cy="0.5" r="0.75">',
    '<stop offset="0.6" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/>',
    '</radialGradient>',
    '</defs>',
    `<rect width="${width}" height="${height}" fill="url(#sky)"/>`,
    ...parts,
    style?.vignette === false ? '' : `<rect width="${width}" height="${height}" fill="url(#vignette)"/>`,
    '</svg>',
  ].join('\n');
}

/** A small, fast PRNG (sfc32) seeded from the hash: the same four words give the same sequence. */
function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** HSL (hue in degrees, saturation and lightness in percent) as `#rrggbb`. */
function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = saturation / 100;
  const l = lightness / 100;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    const v = u < 1 / 6 ? p + (q - p) * 6 * u : u < 1 / 2 ? q : u < 2 / 3 ? p + (q - p) * (2 / 3 - u) * 6 : p;
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${channel(h + 1 / 3)}${channel(h)}${channel(h - 1 / 3)}`;
}
