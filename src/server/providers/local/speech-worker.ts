import { parentPort } from 'node:worker_threads';
import { type SynthesisRequest, synthesize } from './speech-synth.ts';

/** The speech thread: one request at a time from speech-thread.ts, answered with WAV bytes or an error. */
export interface SpeechReply {
  wav?: Uint8Array;
  error?: string;
}

parentPort?.on('message', async (request: SynthesisRequest) => {
  try {
    // A copy that owns its memory, so it can be moved to the other thread instead of copied again.
    const wav = new Uint8Array(await synthesize(request));
    parentPort?.postMessage({ wav } satisfies SpeechReply, [wav.buffer]);
  } catch (error) {
    parentPort?.postMessage({
      error: error instanceof Error ? error.message : String(error),
    } satisfies SpeechReply);
  }
});
