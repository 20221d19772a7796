import { describe, expect, it } from 'vitest';
import { durationFromSize, mediaDurationSeconds } from './media-duration.ts';
import { splitText } from './text-split.ts';

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo. */
const FRAME_HEADER = Buffer.from([0xff, 0xfb, 0x90, 0x00]);

function wav(byteRate: number, dataBytes: number, declaredSize = dataBytes): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(byteRate / 2, 24);
  header.writeUInt32LE(byteRate, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(declaredSize, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes)]);
}

describe('mediaDurationSeconds', () => {
  it('reads WAV from its format and data chunks, also with an unset data size', () => {
    expect(mediaDurationSeconds(wav(32_000, 96_000))).toBe(3);
    expect(mediaDurationSeconds(wav(32_000, 64_000, 0xffffffff))).toBe(2);
  });

  it('reads constant-bitrate MP3 from its first frame, after an ID3 tag', () => {
    const frames = Buffer.concat([FRAME_HEADER, Buffer.alloc(16_000 - 4)]);
    expect(mediaDurationSeconds(frames)).toBeCloseTo(1);
    const id3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 1, 0]), Buffer.alloc(128)]);
    expect(mediaDurationSeconds(Buffer.concat([id3, frames]))).toBeCloseTo(1);
  });

  it('reads the frame count of a Xing header', () => {
    const xing = Buffer.alloc(200);
    FRAME_HEADER.copy(xing, 0);
    xing.write('Xing', 36, 'ascii');
    xing.writeUInt32BE(1, 40);
    xing.writeUInt32BE(100, 44);
    expect(mediaDurationSeconds(xing)).toBeCloseTo((100 * 1152) / 44100);
  });

  it('answers null for what it cannot read; the size fallback assumes 128 kbit/s', () => {
    expect(mediaDurationSeconds(Buffer.from('....ftypM4A something'))).toBeNull(); // no movie header
    expect(durationFromSize(Buffer.alloc(32_000))).toBe(2);
  });
});

describe('splitText', () => {
  it('keeps short text whole', () => {
    expect(splitText('One. Two.', 100)).toEqual(['One. Two.']);
  });

  it('packs whole sentences up to the limit', () => {
    expect(splitText('One one. Two two. Three three.', 18)).toEqual(['One one. Two two.', 'Three three.']);
  });

  it('cuts an overlong sentence at a space, or hard when it has none', () => {
    expect(splitText('aaaa bbbb cccc dddd', 10)).toEqual(['aaaa bbbb', 'cccc dddd']);
    expect(splitText('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});
