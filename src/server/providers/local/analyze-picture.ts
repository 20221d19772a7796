import sharp from 'sharp';
import type { DominantColor } from '../../../contract/video-analysis.ts';

/** Keyframes shown in the report: small JPEGs. */
/** Small, as keyframes travel inside the report (up to one per scene). */
export const THUMBNAIL_WIDTH = 240;
/** Colours are counted on a tiny copy, in 4 levels per channel (64 bins). */
const SAMPLE_SIZE = 48;
const LEVELS = 4;
/** Colours covering less of the picture than this are not dominant. */
const MIN_SHARE = 0.1;
const MAX_COLORS = 3;

const hex = (r: number, g: number, b: number) =>
  `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** A plain colour name from hue, saturation and lightness. */
export function colorName(r: number, g: number, b: number): string {
  const max = Math.max(r, g, b) / 255;
  const min = Math.min(r, g, b) / 255;
  const lightness = (max + min) / 2;
  const chroma = max - min;
  const saturation = chroma === 0 ? 0 : chroma / (1 - Math.abs(2 * lightness - 1));
  if (lightness < 0.12) return 'black';
  if (saturation < 0.2 || chroma < 0.08) return lightness > 0.85 ? 'white' : 'gray';
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  let hue: number;
  if (max === rn) hue = ((gn - bn) / chroma + 6) % 6;
  else if (max === gn) hue = (bn - rn) / chroma + 2;
  else hue = (rn - gn) / chroma + 4;
  hue *= 60;
  if (hue >= 10 && hue < 45 && lightness < 0.35) return 'brown';
  if (hue < 15 || hue >= 345) return 'red';
  if (hue < 45) return 'orange';
  if (hue < 70) return 'yellow';
  if (hue < 165) return 'green';
  if (hue < 195) return 'cyan';
  if (hue < 255) return 'blue';
  if (hue < 290) return 'purple';
  return 'pink';
}

/** Brightness (mean luma 0..1) and the colours covering most of a picture. */
export async function describePicture(
  image: Buffer,
): Promise<{ brightness: number; dominant_colors: DominantColor[] }> {
  const pixels = await sharp(image)
    .resize(SAMPLE_SIZE, SAMPLE_SIZE, { fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer();
  const count = pixels.length / 3;
  const bins = new Map<number, { n: number; r: number; g: number; b: number }>();
  let luma = 0;
  for (let i = 0; i < pixels.length; i += 3) {
    const [r, g, b] = [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
    luma += 0.2126 * r + 0.7152 * g + 0.0722 * b;
    const key = [r, g, b].reduce(
      (k, c) => k * LEVELS + Math.min(LEVELS - 1, Math.floor((c * LEVELS) / 256)),
      0,
    );
    const bin = bins.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    bin.n += 1;
    bin.r += r;
    bin.g += g;
    bin.b += b;
    bins.set(key, bin);
  }
  const dominant = [...bins.values()]
    .filter((bin) => bin.n / count >= MIN_SHARE)
    .sort((a, b) => b.n - a.n)
    .slice(0, MAX_COLORS)
    .map((bin) => {
      const [r, g, b] = [bin.r / bin.n, bin.g / bin.n, bin.b / bin.n];
      return { hex: hex(r, g, b), name: colorName(r, g, b), share: Number((bin.n / count).toFixed(2)) };
    });
  return { brightness: Number((luma / count / 255).toFixed(2)), dominant_colors: dominant };
}

/** The keyframe as a small JPEG for the report. */
export async function thumbnail(image: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image)
    .resize({ width: THUMBNAIL_WIDTH, withoutEnlargement: true })
    .jpeg({ quality: 70 })
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}
