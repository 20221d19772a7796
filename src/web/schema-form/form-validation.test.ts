import { describe, expect, it } from 'vitest';
import { toFieldErrors, validateBody, zodFromSchema } from './form-validation.ts';
import { catalogSchema } from './testing/catalog-schemas.ts';

function problems(key: string, body: unknown) {
  return validateBody(zodFromSchema(catalogSchema(key)), body).map((p) => [p.path.join('.'), p.message]);
}

describe('validating a body against a served schema (z.fromJSONSchema)', () => {
  it('accepts what the schema allows', () => {
    expect(problems('video/local-motion', { model: 'local-motion', prompt: 'x', duration: 2 })).toEqual([]);
  });

  it('names a missing required field, string limits and patterns in words', () => {
    expect(problems('speech/local-flite', {})).toEqual([['text', 'Required.']]);
    expect(problems('speech/local-flite', { text: '' })).toEqual([['text', 'Required.']]);
    expect(problems('image/local-sketch', { prompt: 'x'.repeat(2001) })).toEqual([
      ['prompt', 'At most 2,000 characters.'],
    ]);
    expect(problems('image/local-sketch', { aspect_ratio: 'wide' })).toEqual([
      ['aspect_ratio', 'Use the form w:h, for example 16:9.'],
    ]);
    expect(
      problems('transcription/local-pocketsphinx', { audio_url: 'not a url', language: 'english!' }),
    ).toEqual([
      ['audio_url', 'Enter a full URL (https://…).'],
      ['language', 'Use a language code such as en or pt-BR.'],
    ]);
  });

  it('names number bounds, exclusive ones and integers', () => {
    expect(problems('video/local-motion', { duration: 61 })).toEqual([['duration', 'At most 60.']]);
    expect(problems('video/local-motion', { duration: 0 })).toEqual([['duration', 'At least 1.']]);
    expect(problems('render/local-render', { duration: 0, layers: [{ type: 'text', text: 'a' }] })).toEqual([
      ['duration', 'More than 0.'],
    ]);
    expect(problems('music/local-procedural-music', { prompt: 'x', duration: 2.5 })).toEqual([
      ['duration', 'Enter a whole number.'],
    ]);
    expect(problems('video/local-motion', { duration: 'two' })).toEqual([['duration', 'Enter a number.']]);
  });

  it('names the allowed values of enums, numeric enums and anyOf consts', () => {
    expect(problems('video/kling-2.1-master', { duration: 7, aspect_ratio: '4:3' })).toEqual([
      ['duration', 'Choose one of 5, 10.'],
      ['aspect_ratio', 'Choose one of 16:9, 9:16, 1:1.'],
    ]);
    expect(
      problems('image/local-upscale', {
        files: [{ url: 'https://e.com/a.png' }],
        provider_options: { local: { factor: 3 } },
      }),
    ).toEqual([['provider_options.local.factor', 'Choose one of 2, 4.']]);
  });

  it('names list limits, and what a model takes none of', () => {
    expect(problems('image/local-edit', { files: [] })).toEqual([['files', 'Add at least one.']]);
    expect(
      problems('image/local-edit', { files: [{ url: 'https://e.com/a' }, { url: 'https://e.com/b' }] }),
    ).toEqual([['files', 'At most 1.']]);
    expect(
      problems('image/recraft-v3', { provider_options: { fal: { colors: [{}, {}, {}, {}, {}, {}] } } }),
    ).toEqual([['provider_options.fal.colors', 'At most 5.']]);
  });

  it('reports unknown keys of closed objects (additionalProperties: false)', () => {
    expect(problems('speech/local-flite', { text: 'x', provider_options: { local: { speed: 2 } } })).toEqual([
      ['provider_options.local', 'Not accepted here: speed.'],
    ]);
  });

  it('reports a union row’s problems at the fields of the variant its tag names', () => {
    expect(
      problems('ffmpeg/ffmpeg', {
        files: [{ url: 'https://e.com/a.mp4' }],
        operations: [{ op: 'gif', fps: 99 }, { op: 'resize', width: 0 }, { op: 'nope' }],
      }),
    ).toEqual([
      ['operations.0.fps', 'At most 30.'],
      ['operations.1.width', 'At least 1.'],
      ['operations.2', 'Does not match any of the allowed forms.'],
    ]);
    expect(
      problems('image/local-edit', {
        files: [{ url: 'https://e.com/a.png' }],
        provider_options: { local: { operations: [{ op: 'crop', left: 0 }] } },
      }),
    ).toEqual([
      ['provider_options.local.operations.0.top', 'Required.'],
      ['provider_options.local.operations.0.width', 'Required.'],
      ['provider_options.local.operations.0.height', 'Required.'],
    ]);
  });

  it('asks for a JSON object where a record was given text', () => {
    expect(problems('pipeline/pipeline', { steps: [{ id: 'a', tool: 'image', input: '{ nope' }] })).toEqual([
      ['steps.0.input', 'Enter a JSON object.'],
    ]);
  });
});

describe('problems as react-hook-form errors', () => {
  it('nests errors by path, lists as arrays of rows', () => {
    const errors = toFieldErrors([
      { path: ['text'], message: 'Required.' },
      { path: ['operations', 1, 'width'], message: 'At least 1.' },
    ]);
    expect(errors).toEqual({
      text: { type: 'schema', message: 'Required.' },
      operations: { 1: { width: { type: 'schema', message: 'At least 1.' } } },
    });
  });

  it('keeps a list’s own error under root when its rows have errors too', () => {
    const errors = toFieldErrors([
      { path: ['files'], message: 'At most 1.' },
      { path: ['files', 0, 'url'], message: 'Enter a full URL (https://…).' },
    ]);
    expect(errors).toEqual({
      files: {
        root: { type: 'schema', message: 'At most 1.' },
        0: { url: { type: 'schema', message: 'Enter a full URL (https://…).' } },
      },
    });
  });

  it('keeps the first problem of a field (the one met first)', () => {
    expect(
      toFieldErrors([
        { path: ['a'], message: 'first' },
        { path: ['a'], message: 'second' },
      ]),
    ).toEqual({ a: { type: 'schema', message: 'first' } });
  });
});
