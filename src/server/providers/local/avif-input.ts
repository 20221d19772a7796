import sharp from 'sharp';

/** True for an AVIF file: an ISO-BMFF `ftyp` box whose brand is `avif` (still) or `avis` (sequence). */
export function isAvif(bytes: Buffer): boolean {
  if (bytes.length < 12 || bytes.toString('latin1', 4, 8) !== 'ftyp') return false;
  const brand = bytes.toString('latin1', 8, 12);
  return brand === 'avif' || brand === 'avis';
}

/**
 * The bundled ffmpeg has no AV1 image decoder ("moov atom not found"), yet local-sketch and local-upscale
 * write AVIF on request: such a picture becomes a lossless PNG before ffmpeg sees it. Other bytes pass through.
 */
export async function readableByFfmpeg(bytes: Buffer): Promise<Buffer> {
  return isAvif(bytes) ? sharp(bytes).png().toBuffer() : bytes;
}
