import { describe, expect, it } from 'vitest';
import { fromBody, initialValues, toBody, withDraft } from './form-values.ts';
import { catalogSchema } from './testing/catalog-schemas.ts';
import { walkSchema } from './walk-schema.ts';

describe('form values and request bodies', () => {
  it('starts with groups present, lists empty and fixed values filled, and sends nothing of it', () => {
    const spec = walkSchema(catalogSchema('speech/eleven-multilingual-v2'));
    const values = initialValues(spec);
    expect(values).toEqual({
      provider_options: { elevenlabs: { voice_settings: {} } },
      options: {},
    });
    expect(toBody(values, spec)).toEqual({});
  });

  it('leaves out empty text, unset numbers and untouched optional groups, keeps what was chosen', () => {
    const spec = walkSchema(catalogSchema('speech/eleven-multilingual-v2'));
    const body = toBody(
      {
        model: 'local-x',
        text: 'Hello',
        voice: '',
        provider_options: {
          elevenlabs: { voice_settings: { stability: 0.5, style: undefined }, seed: undefined },
        },
        options: { webhook_url: '  ', cache: false },
      },
      spec,
    );
    expect(body).toEqual({
      model: 'local-x',
      text: 'Hello',
      provider_options: { elevenlabs: { voice_settings: { stability: 0.5 } } },
      options: { cache: false },
    });
  });

  it('sends numbers typed as text as numbers, and text that is no number as typed (validation names it)', () => {
    const spec = walkSchema(catalogSchema('video/local-motion'));
    expect(toBody({ duration: '2.5' }, spec)).toEqual({ duration: 2.5 });
    expect(toBody({ duration: 'two' }, spec)).toEqual({ duration: 'two' });
    expect(toBody({ duration: Number.NaN }, spec)).toEqual({});
  });

  it('keeps an empty list the model needs items in, so its limit can be reported', () => {
    const edit = walkSchema(catalogSchema('image/local-edit'));
    expect(toBody(initialValues(edit), edit)).toEqual({ files: [] });
    const sketch = walkSchema(catalogSchema('image/local-sketch'));
    expect(toBody(initialValues(sketch), sketch)).toEqual({});
  });

  it('omits an optional group whose own required fields are untouched (local-edit operations)', () => {
    const edit = walkSchema(catalogSchema('image/local-edit'));
    const values = { ...initialValues(edit), files: [{ url: 'https://example.com/a.png' }] };
    expect(toBody(values, edit)).toEqual({ files: [{ url: 'https://example.com/a.png' }] });
    const used = { ...values, provider_options: { local: { operations: [{ op: 'grayscale' }] } } };
    expect(toBody(used, edit).provider_options).toEqual({ local: { operations: [{ op: 'grayscale' }] } });
  });

  it('sends a union row with its tag and only the fields of its variant', () => {
    const ffmpeg = walkSchema(catalogSchema('ffmpeg/ffmpeg'));
    const body = toBody(
      {
        files: [{ url: ' https://example.com/a.mp4 ' }],
        operations: [
          { op: 'resize', width: 640, fit: undefined, format: 'mp4' },
          { op: 'trim', start: '', duration: 2 },
        ],
      },
      ffmpeg,
    );
    expect(body).toEqual({
      files: [{ url: 'https://example.com/a.mp4' }],
      operations: [
        { op: 'resize', width: 640 },
        { op: 'trim', duration: 2 },
      ],
    });
  });

  it('does not send keys the schema does not have (a draft from an older schema)', () => {
    const spec = walkSchema(catalogSchema('image/local-sketch'));
    expect(toBody({ prompt: 'a', seed_old: 3, provider_options: { local: { gone: 1 } } }, spec)).toEqual({
      prompt: 'a',
    });
  });

  it('parses JSON fields, and sends text that is no JSON as typed', () => {
    const pipeline = walkSchema(catalogSchema('pipeline/pipeline'));
    const body = toBody(
      {
        steps: [
          { id: 'a', tool: 'image', input: '{ "prompt": "x" }' },
          { id: 'b', tool: 'image', input: '{ nope' },
        ],
      },
      pipeline,
    );
    expect(body.steps).toEqual([
      { id: 'a', tool: 'image', input: { prompt: 'x' } },
      { id: 'b', tool: 'image', input: '{ nope' },
    ]);
  });

  it('keeps null only where the schema allows it', () => {
    const spec = walkSchema({
      type: 'object',
      properties: { a: { type: ['string', 'null'] }, b: { type: 'string' } },
    });
    expect(toBody({ a: null, b: null }, spec)).toEqual({ a: null });
  });

  it('turns a body back into values (rerun with changes): JSON fields become text again', () => {
    const pipeline = walkSchema(catalogSchema('pipeline/pipeline'));
    const values = fromBody({ steps: [{ id: 'a', tool: 'image', input: { prompt: 'x' } }] }, pipeline);
    expect(values.steps).toEqual([{ id: 'a', tool: 'image', input: '{\n  "prompt": "x"\n}' }]);
    expect(toBody(values, pipeline)).toEqual({ steps: [{ id: 'a', tool: 'image', input: { prompt: 'x' } }] });
    const speech = walkSchema(catalogSchema('speech/eleven-multilingual-v2'));
    const round = { text: 'Hi', provider_options: { elevenlabs: { voice_settings: { speed: 1.1 } } } };
    expect(toBody(fromBody(round, speech), speech)).toEqual(round);
  });

  it('lays a saved draft over the starting values, group by group', () => {
    const spec = walkSchema(catalogSchema('speech/eleven-multilingual-v2'));
    const merged = withDraft(initialValues(spec), {
      text: 'Hi',
      provider_options: { elevenlabs: { seed: 4 } },
    });
    expect(merged).toEqual({
      text: 'Hi',
      provider_options: { elevenlabs: { seed: 4, voice_settings: {} } },
      options: {},
    });
  });
});
