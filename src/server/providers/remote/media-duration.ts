/**
 * The play time of a media file read from its own headers, for billing by the second or minute when the
 * provider does not say how long the input or the result was (OpenAI's gpt-4o transcribe models answer
 * only text; fal's lipsync and video upscale answer only a URL). WAV: exact from the format and data
 * chunks. MP4/MOV/M4A: exact from the movie header. MP3: exact from a Xing/Info frame count, otherwise
 * bytes over the first frame's bitrate (exact for constant bitrate). Null for anything else.
 */
export function mediaDurationSeconds(bytes: Buffer): number | null {
  return wavDuration(bytes) ?? mp4Duration(bytes) ?? mp3Duration(bytes);
}

/** The last resort when the headers do not tell: the bytes at 128 kbit/s, a common compressed rate. */
export function durationFromSize(bytes: { length: number }): number {
  return (bytes.length * 8) / 128_000;
}

function wavDuration(bytes: Buffer): number | null {
  if (
    bytes.length < 12 ||
    bytes.toString('ascii', 0, 4) !== 'RIFF' ||
    bytes.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    return null;
  }
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ' && at + 16 <= bytes.length) byteRate = bytes.readUInt32LE(at + 16);
    if (id === 'data') {
      // Streamed WAVs may leave the size unset (0 or 0xFFFFFFFF): count what is there.
      const available = bytes.length - (at + 8);
      const dataSize = size === 0 || size > available ? available : size;
      return byteRate > 0 ? dataSize / byteRate : null;
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

// Layer III bitrates (kbit/s) by index, and sample rates by MPEG version.
const MPEG1_BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_BITRATES = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = {
  3: [44100, 48000, 32000], // MPEG 1
  2: [22050, 24000, 16000], // MPEG 2
  0: [11025, 12000, 8000], // MPEG 2.5
};

function mp3Duration(bytes: Buffer): number | null {
  let start = 0;
  if (bytes.length >= 10 && bytes.toString('ascii', 0, 3) === 'ID3') {
    // ID3v2 size: four 7-bit bytes, plus the 10-byte header (and a 10-byte footer when flagged).
    const size = (bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!;
    start = 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
  }
  const end = Math.min(bytes.length - 4, start + 64 * 1024);
  for (let at = start; at < end; at++) {
    if (bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) continue;
    const header = bytes.readUInt32BE(at);
    const version = (header >>> 19) & 3;
    const layer = (header >>> 17) & 3;
    const bitrateIndex = (header >>> 12) & 15;
    const rateIndex = (header >>> 10) & 3;
    const mono = ((header >>> 6) & 3) === 3;
    if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3)
      continue;
    const sampleRate = SAMPLE_RATES[version]![rateIndex]!;
    const samplesPerFrame = version === 3 ? 1152 : 576;
    // A Xing/Info frame (VBR files, and LAME's CBR ones) counts the frames.
    const sideInfo = version === 3 ? (mono ? 17 : 32) : mono ? 9 : 17;
    const tag = at + 4 + sideInfo;
    if (tag + 12 <= bytes.length) {
      const name = bytes.toString('ascii', tag, tag + 4);
      if ((name === 'Xing' || name === 'Info') && bytes.readUInt32BE(tag + 4) & 1) {
        return (bytes.readUInt32BE(tag + 8) * samplesPerFrame) / sampleRate;
      }
    }
    const kbps = (version === 3 ? MPEG1_BITRATES : MPEG2_BITRATES)[bitrateIndex]!;
    return ((bytes.length - at) * 8) / (kbps * 1000);
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

function mp4Duration(bytes: Buffer): number | null {
  if (bytes.length < 12 || bytes.toString('latin1', 4, 8) !== 'ftyp') return null;
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
