/** 16-bit PCM audio: what the speech engines write and the speech and music engines hand to ffmpeg. */
export interface Pcm16 {
  sampleRate: number;
  channels: number;
  /** Little-endian 16-bit samples, channels interleaved. */
  data: Buffer;
}

/** The PCM of a RIFF/WAVE file (16-bit only, as flite and espeak-ng write). */
export function parseWav(file: Buffer): Pcm16 {
  if (
    file.length < 12 ||
    file.toString('ascii', 0, 4) !== 'RIFF' ||
    file.toString('ascii', 8, 12) !== 'WAVE'
  ) {
    throw new Error('Not a WAV file.');
  }
  let format: { sampleRate: number; channels: number; bits: number } | undefined;
  for (let at = 12; at + 8 <= file.length; ) {
    const id = file.toString('ascii', at, at + 4);
    const size = file.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      format = {
        channels: file.readUInt16LE(body + 2),
        sampleRate: file.readUInt32LE(body + 4),
        bits: file.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (format?.bits !== 16) throw new Error('Not a 16-bit PCM WAV file.');
      // A writer that could not seek back leaves the size unset or too large: the data runs to the end.
      const end = Math.min(file.length, body + size);
      const data = file.subarray(body, end - ((end - body) % (2 * format.channels)));
      return { sampleRate: format.sampleRate, channels: format.channels, data };
    }
    at = body + size + (size % 2);
  }
  throw new Error('The WAV file has no data.');
}

/** The 44-byte header of a 16-bit PCM WAV file holding `dataBytes` bytes of samples. */
export function wavHeader(sampleRate: number, channels: number, dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** A WAV file of the samples. */
export function wavFile(pcm: Pcm16): Buffer {
  return Buffer.concat([wavHeader(pcm.sampleRate, pcm.channels, pcm.data.length), pcm.data]);
}

/** Seconds of audio the PCM holds. */
export function pcmSeconds(pcm: Pcm16): number {
  return pcm.data.length / (2 * pcm.channels * pcm.sampleRate);
}
