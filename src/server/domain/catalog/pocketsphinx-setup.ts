import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/*
 * Where this server finds PocketSphinx: catalog knowledge (availability reads it at start-up), so it lives
 * in domain; the transcription engine that runs the binary imports it from here.
 */

/** The recogniser of Debian's `pocketsphinx` package and the model of `pocketsphinx-en-us`. */
export interface PocketsphinxSetup {
  binary: string;
  /** Holds `en-us/` (acoustic model), `en-us.lm.bin` (language model) and `cmudict-en-us.dict`. */
  modelDir: string;
}

export const POCKETSPHINX_BINARY = 'pocketsphinx_continuous';
export const POCKETSPHINX_MODEL_DIRS = [
  '/usr/share/pocketsphinx/model/en-us',
  '/usr/local/share/pocketsphinx/model/en-us',
];
/** Debian's (and Ubuntu's) packages: the recogniser and its English model. */
export const POCKETSPHINX_INSTALL_COMMAND = 'apt-get install pocketsphinx pocketsphinx-en-us';
export const POCKETSPHINX_INSTALL_HINT = `Install PocketSphinx to enable it: ${POCKETSPHINX_INSTALL_COMMAND}.`;

const modelFiles = (dir: string) => [
  path.join(dir, 'en-us', 'mdef'),
  path.join(dir, 'en-us.lm.bin'),
  path.join(dir, 'cmudict-en-us.dict'),
];

function usable(file: string, mode: number): boolean {
  try {
    accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

/** The recogniser and its English model, or null when either is missing. */
export function findPocketsphinx(
  envPath: string = process.env.PATH ?? '',
  modelDirs: readonly string[] = POCKETSPHINX_MODEL_DIRS,
): PocketsphinxSetup | null {
  const binary = envPath
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, POCKETSPHINX_BINARY))
    .find((file) => usable(file, constants.X_OK));
  const modelDir = modelDirs.find((dir) => modelFiles(dir).every((file) => usable(file, constants.R_OK)));
  return binary && modelDir ? { binary, modelDir } : null;
}
