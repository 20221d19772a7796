import { afterEach, describe, expect, it } from 'vitest';
import { dropPrefill, peekPrefill, saveDraft, setPrefill } from './form-drafts.ts';
import { inputBodyFor, mergeFragment, prefillInput, prefillPreset } from './input-prefill.ts';

const URL_A = 'http://api.test/media/file_a/cat.png';

afterEach(() => {
  dropPrefill('image', 'local-upscale');
  dropPrefill('transcription', 'local-pocketsphinx');
  localStorage.clear();
});

describe('prefillInput', () => {
  it('opens the form with the file as its input, keeping the rest of the draft', () => {
    saveDraft('image', 'local-upscale', { prompt: 'keep me', files: [{ url: 'http://old.test/x.png' }] });
    prefillInput('image', 'local-upscale', 'local-upscale', URL_A);
    expect(peekPrefill('image', 'local-upscale')).toEqual({ prompt: 'keep me', files: [{ url: URL_A }] });
  });

  it('gives transcription its audio URL field', () => {
    expect(inputBodyFor('transcription', URL_A)).toEqual({ audio_url: URL_A });
    prefillInput('transcription', 'local-pocketsphinx', 'local-pocketsphinx', URL_A);
    expect(peekPrefill('transcription', 'local-pocketsphinx')).toEqual({ audio_url: URL_A });
  });

  it('leaves values already waiting for the form alone (a rerun with changes)', () => {
    setPrefill('image', 'local-upscale', { files: [{ url: 'http://rerun.test/y.png' }] });
    prefillInput('image', 'local-upscale', 'local-upscale', URL_A);
    expect(peekPrefill('image', 'local-upscale')).toEqual({ files: [{ url: 'http://rerun.test/y.png' }] });
  });
});

describe('prefillPreset', () => {
  afterEach(() => dropPrefill('image', 'local-sketch'));

  it('applies the fragment over the draft, merging provider_options and keeping the prompt', () => {
    saveDraft('image', 'local-sketch', {
      prompt: 'a quiet harbour',
      provider_options: { local: { seed: 7 } },
    });
    prefillPreset('image', 'local-sketch', 'local-sketch', {
      model: 'local-sketch',
      provider_options: { local: { style: 'preset_0123456789ab' } },
    });
    expect(peekPrefill('image', 'local-sketch')).toEqual({
      prompt: 'a quiet harbour',
      provider_options: { local: { seed: 7, style: 'preset_0123456789ab' } },
    });
  });

  it('replaces lists and plain values rather than merging them', () => {
    expect(
      mergeFragment({ files: [{ url: 'a' }], prompt: 'x' }, { files: [{ url: 'b' }], prompt: 'y' }),
    ).toEqual({
      files: [{ url: 'b' }],
      prompt: 'y',
    });
  });
});
