import { MusicOptions } from '../../domain/catalog/models/local-options.ts';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { EngineInputError } from './engine-run.ts';
import type { LocalEngine } from './local-provider.ts';
import { describePlan, planMusic } from './music-plan.ts';
import { hashText } from './music-random.ts';
import { renderMusic } from './music-render.ts';
import { compose } from './music-score.ts';
import { wavToMp3 } from './speech-mp3.ts';
import { localOptions } from './video-job.ts';

const DEFAULT_SECONDS = 30;

/**
 * local-procedural-music: a piece whose key, mode, tempo, instruments and drums follow words of the prompt,
 * composed from a seed (provider_options.local.seed, else a hash of the prompt) and synthesised here,
 * exactly `duration` seconds of 44.1 kHz stereo, MP3 (192 kbit/s) unless `format` is wav.
 */
export function createMusicJob(deps: { binary: () => string }): LocalEngine {
  return async (input, context): Promise<RunResult> => {
    const { prompt, duration = DEFAULT_SECONDS } = input.body;
    if (typeof prompt !== 'string' || prompt.trim() === '')
      throw new EngineInputError('prompt must not be empty.');
    if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 1 || duration > 600) {
      throw new EngineInputError('duration must be a whole number of seconds from 1 to 600.');
    }
    const { seed, tempo, format = 'mp3' } = localOptions(MusicOptions, input.body);
    const plan = planMusic(prompt, seed ?? hashText(prompt), tempo);
    context.progress(0.02, `Composing: ${describePlan(plan)}`);
    const events = compose(plan, duration);
    const wav = await renderMusic(plan, events, duration, {
      signal: context.signal,
      onProgress: context.progress,
      progressFrom: 0.05,
      progressTo: format === 'mp3' ? 0.7 : 0.98,
    });
    const data =
      format === 'wav'
        ? wav
        : await wavToMp3(wav, {
            binary: deps.binary(),
            bitrate: '192k',
            // LAME's -q 7 encodes twice as fast as its default; at 192 kbit/s the difference is not heard.
            compressionLevel: 7,
            seconds: duration,
            signal: context.signal,
            onProgress: (fraction) => context.progress(0.7 + 0.29 * fraction, 'Encoding MP3'),
          });
    return {
      outputs: [
        format === 'wav'
          ? { kind: 'file', data, mediaType: 'audio/wav', name: 'music.wav' }
          : { kind: 'file', data, mediaType: 'audio/mpeg', name: 'music.mp3' },
      ],
      billedUnits: { seconds: duration },
      providerStatus: 'succeeded',
    };
  };
}
