import path from 'node:path';
import { AudioReplaceOptions } from '../../domain/catalog/models/local-options.ts';
import { EngineInputError } from './engine-run.ts';
import type { LocalEngine } from './local-provider.ts';
import {
  AAC,
  encode,
  fileUrls,
  H264,
  inputArgs,
  localOptions,
  MP4_TAIL,
  mp4Result,
  readMedia,
  requireVideo,
  secondsArg,
  type VideoJobOptions,
  withVideoJob,
} from './video-job.ts';

/*
 * local-audio-replace: the picture of files[0] with the sound of files[1], in MP4 (H.264/AAC). It swaps
 * soundtracks and nothing more: no lips move. `length` says which input sets the output length; the other
 * one is looped when it is shorter and cut when it is longer.
 */

const READ = 0.15;
const ENCODED = 0.95;
/** Loops an input forever; the output's `-t` ends it. */
const LOOP = ['-stream_loop', '-1'];

/** local-audio-replace: files[0] a video, files[1] a sound (or a video whose sound is used). */
export function createAudioReplaceJob(options: VideoJobOptions): LocalEngine {
  return async (input, context) => {
    const length = localOptions(AudioReplaceOptions, input.body).length ?? 'video';
    const [videoUrl, audioUrl] = fileUrls(input.body, 'local-audio-replace (a video, then a sound)', 2, 2);
    return withVideoJob(options, context, async (job) => {
      context.progress(0, 'Reading files[0]');
      const video = await readMedia(job, videoUrl!, 'input-0', 'files[0]');
      const picture = requireVideo(video, 'local-audio-replace');
      context.progress(READ / 2, 'Reading files[1]');
      const audio = await readMedia(job, audioUrl!, 'input-1', 'files[1]');
      if (!audio.info.audio) throw new EngineInputError('files[1] has no sound to put on the video.');
      const sound = audio.info.durationSeconds;
      if (sound === null || !(sound > 0)) {
        throw new EngineInputError('local-audio-replace cannot tell how long the sound of files[1] lasts.');
      }
      const seconds =
        length === 'video' ? picture.seconds : length === 'audio' ? sound : Math.min(picture.seconds, sound);
      const output = path.join(job.dir, 'with-audio.mp4');
      await encode(
        job,
        [
          ...inputArgs(video.file, picture.seconds < seconds ? LOOP : []),
          ...inputArgs(audio.file, sound < seconds ? LOOP : []),
          ...['-map', '0:v:0', '-map', '1:a:0', '-t', secondsArg(seconds)],
          ...H264,
          ...AAC,
          ...MP4_TAIL,
          output,
        ],
        {
          expectedSeconds: seconds,
          from: READ,
          to: ENCODED,
          message: `Putting the sound of files[1] on files[0] (${secondsArg(seconds)} s)`,
        },
      );
      return mp4Result(job, output, 'with-audio.mp4');
    });
  };
}
