/*
 * Length in seconds of an input file, read from its header, for the fal jobs whose answer does not
 * say how long the result is (lipsync, video upscale, a transcript without timestamps). Only the
 * containers whose header states it exactly are read: WAV and the MP4 family (mp4, mov, m4a).
 */

/** Seconds of a WAV or MP4/MOV/M4A file, or null when the header does not say. */
export function mediaDurationSeconds(bytes: Buffer): number | null {
  if (bytes.length < 12) return null;
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WAVE') {
    return wavSeconds(bytes);
  }
  if (bytes.toString('latin1', 4, 8) === 'ftyp') return mp4Seconds(bytes);
  return null;
}

function wavSeconds(bytes: Buffer): number | null {
  let byteRate = 0;
  for (let offset = 12; offset + 8 <= bytes.length; ) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === 'fmt ' && offset + 20 <= bytes.length) byteRate = bytes.readUInt32LE(offset + 16);
    if (id === 'data') {
      // A streamed WAV may leave the size unset (0 or 0xFFFFFFFF): the rest of the file is the data.
      const dataSize = size === 0 || size === 0xffffffff ? bytes.length - offset - 8 : size;
      return byteRate > 0 ? dataSize / byteRate : null;
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}

/** Children of an MP4 box, as [type, start of payload, end]. */
function* boxes(bytes: Buffer, start: number, end: number): Generator<[string, number, number]> {
  for (let offset = start; offset + 8 <= end; ) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    let header = 8;
    if (size === 1 && offset + 16 <= end) {
      size = Number(bytes.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < header) return;
    yield [type, offset + header, Math.min(offset + size, end)];
    offset += size;
  }
}

function mp4Seconds(bytes: Buffer): number | null {
  for (const [type, start, end] of boxes(bytes, 0, bytes.length)) {
    if (type !== 'moov') continue;
    for (const [child, payload, childEnd] of boxes(bytes, start, end)) {
      if (child !== 'mvhd' || childEnd - payload < 20) continue;
      const version = bytes.readUInt8(payload);
      if (version === 1 && childEnd - payload < 32) return null;
      const [timescale, duration] =
        version === 1
          ? [bytes.readUInt32BE(payload + 20), Number(bytes.readBigUInt64BE(payload + 24))]
          : [bytes.readUInt32BE(payload + 12), bytes.readUInt32BE(payload + 16)];
      return timescale > 0 ? duration / timescale : null;
    }
  }
  return null;
}
