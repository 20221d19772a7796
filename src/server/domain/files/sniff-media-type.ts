/** How many leading bytes the detector reads: enough for magic numbers, markup openings and a text check. */
export const SNIFF_BYTES = 512;

const OCTET_STREAM = 'application/octet-stream';

/** ISO base media (`ftyp` box) brands of the still-image formats; every other brand is audio or video. */
const IMAGE_BRANDS: Record<string, string> = {
  avif: 'image/avif',
  avis: 'image/avif',
  heic: 'image/heic',
  heix: 'image/heic',
  mif1: 'image/heif',
  msf1: 'image/heif',
};

/** The binary formats the tools take, by their magic numbers. */
function sniffBinary(bytes: Buffer): string | null {
  const ascii = (start: number, end: number) => bytes.toString('latin1', start, end);
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'image/tiff';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (IMAGE_BRANDS[brand]) return IMAGE_BRANDS[brand];
    if (brand === 'M4A ') return 'audio/mp4';
    if (brand === 'qt  ') return 'video/quicktime';
    return 'video/mp4';
  }
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'video/webm';
  if (ascii(0, 4) === 'OggS') return 'audio/ogg';
  if (ascii(0, 4) === 'fLaC') return 'audio/flac';
  if (ascii(0, 3) === 'ID3' || (bytes.length >= 2 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)) {
    return 'audio/mpeg';
  }
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  return null;
}

/** Valid UTF-8 (a character cut off at the end of the sample allowed) without control characters. */
function looksLikeText(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  // Tab, line feed, form feed, carriage return and escape appear in text; other C0 controls do not.
  if (bytes.some((b) => b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0c && b !== 0x0d && b !== 0x1b)) {
    return false;
  }
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let cut = 0; cut <= 3 && cut < bytes.length; cut++) {
    try {
      decoder.decode(bytes.subarray(0, bytes.length - cut));
      return true;
    } catch {
      // A multi-byte character cut by the sample's end: try without its first bytes.
    }
  }
  return false;
}

/** Openings that make a browser read a document as HTML (the WHATWG MIME sniffing list). */
const HTML_OPENINGS =
  /^<(!doctype\s+html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[\s>]/;

/**
 * Markup a browser would run script in: HTML, SVG, other XML. Judged on the text's start (after a byte
 * order mark and white space), as browsers do, so a text that merely mentions a tag stays text.
 */
function sniffMarkup(text: string): string | null {
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (/^<svg[\s>]/.test(start) || start.startsWith('<!doctype svg')) return 'image/svg+xml';
  if (start.startsWith('<?xml')) {
    if (start.includes('<svg')) return 'image/svg+xml';
    if (start.includes('<html') || start.includes('http://www.w3.org/1999/xhtml'))
      return 'application/xhtml+xml';
    return 'application/xml';
  }
  if (HTML_OPENINGS.test(start)) return 'text/html';
  return null;
}

/**
 * The media type of bytes from their first bytes (`SNIFF_BYTES` of them): a format the tools take by
 * its magic number, markup a browser would run (HTML, SVG, XML) by its opening, other UTF-8 text as
 * `text/plain`, and anything else as application/octet-stream.
 */
export function sniffMediaType(bytes: Buffer): string {
  const head = bytes.subarray(0, SNIFF_BYTES);
  const binary = sniffBinary(head);
  if (binary) return binary;
  if (!looksLikeText(head)) return OCTET_STREAM;
  return sniffMarkup(head.toString('utf8')) ?? 'text/plain';
}
