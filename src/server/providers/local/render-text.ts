import sharp from 'sharp';
import { escapeXml } from './image-engine.ts';

/*
 * Text layers of a render, drawn with sharp (SVG through librsvg and the machine's fonts) into a
 * transparent PNG the size of the canvas, so ffmpeg only overlays pictures (the bundled ffmpeg may
 * have no drawtext).
 */

export interface TextLayout {
  text: string;
  /** The text box is the canvas moved by x, y: `align` places lines in its width, the first line's top at y. */
  x: number;
  y: number;
  font_size: number;
  color: string;
  align: 'left' | 'center' | 'right';
}

const FONTS = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";
const LINE_HEIGHT = 1.2;
/** From the top of a line to its baseline, in font sizes (cap tops then sit at about y). */
const ASCENT = 0.8;
/** An average glyph is narrower than this many font sizes, so lines wrapped with it fit the canvas. */
const GLYPH_WIDTH = 0.6;

/** Lines of `text`: its own line breaks, then words wrapped to `columns` characters (long words split). */
export function wrapText(text: string, columns: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      for (let rest = word; rest.length > 0; ) {
        const candidate = line ? `${line} ${rest}` : rest;
        if (candidate.length <= columns) {
          line = candidate;
          rest = '';
        } else if (line) {
          lines.push(line);
          line = '';
        } else {
          lines.push(rest.slice(0, columns));
          rest = rest.slice(columns);
        }
      }
    }
    lines.push(line);
  }
  return lines;
}

/** The SVG of a text layer on a width × height canvas. */
export function textSvg(layout: TextLayout, width: number, height: number): string {
  const columns = Math.max(1, Math.floor((width * 0.95) / (layout.font_size * GLYPH_WIDTH)));
  const anchor = { left: 'start', center: 'middle', right: 'end' }[layout.align];
  const left = { left: layout.x, center: layout.x + width / 2, right: layout.x + width }[layout.align];
  const lines = wrapText(layout.text, columns).map((line, index) => {
    const baseline = layout.y + layout.font_size * (ASCENT + LINE_HEIGHT * index);
    return `<text x="${left}" y="${baseline}" xml:space="preserve">${escapeXml(line)}</text>`;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<g font-family="${FONTS}" font-size="${layout.font_size}" fill="${layout.color}" text-anchor="${anchor}">` +
    `${lines.join('')}</g></svg>`
  );
}

/** The text layer as a transparent PNG of the canvas size. */
export async function textPng(layout: TextLayout, width: number, height: number): Promise<Buffer> {
  const png = await sharp(Buffer.from(textSvg(layout, width, height)))
    .ensureAlpha()
    .png({ compressionLevel: 1 })
    .toBuffer();
  const visible = layout.text.trim().length > 0 && insideCanvas(layout, width, height);
  if (visible && (await sharp(png).stats()).channels[3]?.max === 0) {
    // librsvg found no font: without one no text can be drawn, which people must not mistake for success.
    throw new Error('Text layers need a font and none is installed on this server (fontconfig found none).');
  }
  return png;
}

/** Whether the first line starts on the canvas (text pushed off it is allowed to draw nothing). */
function insideCanvas(layout: TextLayout, width: number, height: number): boolean {
  return layout.y >= 0 && layout.y + layout.font_size < height && Math.abs(layout.x) < width / 2;
}
