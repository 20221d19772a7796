import type { z } from 'zod';
import type { FileMetadata } from '../../../contract/files.ts';
import { baseMediaType } from './image-probe.ts';
import type { MediaTools } from './media-tools.ts';

type Metadata = z.infer<typeof FileMetadata>;

const CHANNELS: Record<string, number> = {
  mono: 1,
  stereo: 2,
  '2.1': 3,
  quad: 4,
  '5.0': 5,
  '5.1': 6,
  '7.1': 8,
};

/**
 * Duration, picture size, codecs and sound of a video or audio file on local disk, read by ffmpeg from its
 * header; an empty object for other types or bytes ffmpeg cannot read (the file is stored all the same).
 */
export async function mediaFacts(media: MediaTools, file: string, mediaType: string) {
  const type = baseMediaType(mediaType);
  if (!type.startsWith('video/') && !type.startsWith('audio/')) return {};
  try {
    const info = await media.probe(file, AbortSignal.timeout(20_000));
    const facts: Metadata = {};
    if (info.durationSeconds !== null) facts.duration_seconds = info.durationSeconds;
    if (info.video) {
      facts.width = info.video.width;
      facts.height = info.video.height;
      facts.video_codec = info.video.codec;
      if (info.video.fps !== null) facts.frame_rate = info.video.fps;
    }
    if (info.audio) {
      facts.audio_codec = info.audio.codec;
      if (info.audio.sampleRate) facts.sample_rate = info.audio.sampleRate;
      const channels = info.audio.channels ? CHANNELS[info.audio.channels] : undefined;
      if (channels) facts.channels = channels;
    }
    return facts;
  } catch {
    return {};
  }
}
