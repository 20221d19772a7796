import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { synthesize } from './speech-synth.ts';

/*
 * Test support: real speech to recognise, synthesised offline by CMU Flite (the speech engine's own WASI
 * host: Node 20's node:wasi crashes after a few runs). Its `kal16` voice is the one PocketSphinx's US
 * English model recognises best (espeak-ng's voices come out mostly wrong).
 */

/** Writes `<dir>/<name>.wav` (16 kHz mono) speaking `text`, and returns its path. */
export async function speechWav(dir: string, name: string, text: string): Promise<string> {
  const file = path.join(dir, `${name}.wav`);
  await writeFile(file, await synthesize({ engine: 'flite', voice: 'kal16', text, rate: 1 }));
  return file;
}
