import { EspeakOptions, SpeechOptions } from '../../domain/catalog/models/local-options.ts';
import type { RunResult } from '../../domain/jobs/provider.ts';
import { resolveVoice, type SpeechEngineId, type SpeechVoice } from '../../domain/presets/speech-voices.ts';
import { checkAborted, EngineInputError, type EngineRunOptions, report } from './engine-run.ts';
import type { LocalEngine } from './local-provider.ts';
import { wavToMp3 } from './speech-mp3.ts';
import { splitText } from './speech-text.ts';
import { speechThreads } from './speech-thread.ts';
import { type Pcm16, parseWav, pcmSeconds, wavFile } from './speech-wav.ts';
import { localOptions } from './video-job.ts';

/**
 * Characters per engine run: about a second of work each (flite's clustergen voices take ~2.5 ms a
 * character; espeak-ng costs ~0.15 s a run plus ~0.4 ms a character).
 */
const PIECE_CHARS: Record<SpeechEngineId, number> = { flite: 400, 'espeak-ng': 1500 };

export interface SpeakOptions extends EngineRunOptions {
  /** The ffmpeg binary (MP3 encoding). */
  binary: string;
  /** Speaking rate, 1 = normal. */
  rate?: number;
  /** espeak-ng's base pitch, 0..99. */
  pitch?: number;
}

/**
 * MP3 of `text` in `voice`: the text is cut into pieces at sentence ends, each piece synthesised in a
 * speech thread, the audio joined and encoded once. MP3 rather than WAV: a tenth of the size for speech,
 * and every player reads it. Stops between pieces (and mid-piece) when the signal aborts.
 */
export async function speak(voice: SpeechVoice, text: string, options: SpeakOptions): Promise<Buffer> {
  const pieces = splitText(text, PIECE_CHARS[voice.engine]);
  const audio: Pcm16[] = [];
  for (const [i, piece] of pieces.entries()) {
    checkAborted(options.signal);
    report(
      options,
      0.05 + (0.8 * i) / pieces.length,
      pieces.length > 1 ? `Speaking part ${i + 1} of ${pieces.length}` : 'Speaking',
    );
    const wav = await speechThreads.synthesize(
      {
        engine: voice.engine,
        voice: voice.engineVoice,
        text: piece,
        rate: options.rate ?? 1,
        pitch: options.pitch,
      },
      options.signal,
    );
    audio.push(parseWav(wav));
  }
  const pcm: Pcm16 = {
    sampleRate: audio[0]?.sampleRate ?? 16_000,
    channels: 1,
    data: Buffer.concat(audio.map((a) => a.data)),
  };
  if (pcm.data.length === 0) {
    throw new EngineInputError(
      `The ${voice.name} voice found nothing to pronounce in the text${voice.engine === 'flite' ? ' (flite speaks English only)' : ''}.`,
    );
  }
  report(options, 0.87, 'Encoding MP3');
  return wavToMp3(wavFile(pcm), {
    binary: options.binary,
    seconds: pcmSeconds(pcm),
    bitrate: '64k',
    sampleRate: pcm.sampleRate < 16_000 ? 16_000 : undefined,
    signal: options.signal,
    onProgress: (fraction) => report(options, 0.87 + 0.12 * fraction, 'Encoding MP3'),
  });
}

/** local-flite and local-espeak: `text` in `voice` (a voice name or preset id) to MP3. */
export function createSpeechJob(engine: SpeechEngineId, deps: { binary: () => string }): LocalEngine {
  return async (input, context): Promise<RunResult> => {
    const { text, voice: requested } = input.body;
    if (typeof text !== 'string' || text.trim() === '') throw new EngineInputError('text must not be empty.');
    const voice = resolveVoice(engine, typeof requested === 'string' ? requested : undefined);
    const { rate, pitch } =
      engine === 'flite'
        ? { ...localOptions(SpeechOptions, input.body), pitch: undefined }
        : localOptions(EspeakOptions, input.body);
    const data = await speak(voice, text, {
      binary: deps.binary(),
      rate,
      pitch,
      signal: context.signal,
      onProgress: context.progress,
    });
    return {
      outputs: [{ kind: 'file', data, mediaType: 'audio/mpeg', name: 'speech.mp3' }],
      billedUnits: { thousand_characters: text.length / 1000 },
      providerStatus: 'succeeded',
    };
  };
}
