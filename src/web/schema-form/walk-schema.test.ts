import { describe, expect, it } from 'vitest';
import type { FieldSpec, ObjectSpec } from './field-spec.ts';
import type { JsonSchema } from './json-schema.ts';
import { CATALOG_KEYS, catalogSchema } from './testing/catalog-schemas.ts';
import { walkSchema } from './walk-schema.ts';

/** The field at a dotted path (`provider_options.local.seed`; `[]` steps into a list's item). */
function fieldAt(spec: ObjectSpec, path: string): FieldSpec {
  let node: FieldSpec = spec;
  for (const key of path.split('.')) {
    if (key === '[]') {
      if (node.kind !== 'array') throw new Error(`${path}: not a list at ${key}`);
      node = node.item;
      continue;
    }
    if (node.kind !== 'object') throw new Error(`${path}: not an object at ${key}`);
    const next: FieldSpec | undefined = node.fields.find((f) => f.key === key);
    if (!next) throw new Error(`${path}: no field ${key}`);
    node = next;
  }
  return node;
}

describe('walking the catalog schemas', () => {
  it('draws every field of every served schema, with JSON only for free-form records', () => {
    const jsonFields: string[] = [];
    const visit = (spec: FieldSpec, path: string) => {
      if (spec.kind === 'json') jsonFields.push(path);
      if (spec.kind === 'object') for (const f of spec.fields) visit(f, `${path}.${f.key}`);
      if (spec.kind === 'array') visit(spec.item, `${path}[]`);
      if (spec.kind === 'union') for (const v of spec.variants) visit(v.spec, `${path}<${String(v.value)}>`);
    };
    for (const key of CATALOG_KEYS) visit(walkSchema(catalogSchema(key)), key);
    // A list of plain values is written as JSON too: a step's `needs` (ids of other steps).
    expect(jsonFields).toEqual(['pipeline/pipeline.steps[].needs', 'pipeline/pipeline.steps[].input']);
  });

  it('resolves $ref into $defs (input files, job options) and keeps the referring description', () => {
    const spec = walkSchema(catalogSchema('image/local-sketch'));
    const files = fieldAt(spec, 'files');
    expect(files).toMatchObject({ kind: 'files', maxItems: 10, minItems: undefined });
    expect(files.description).toBe('Source images for editing or reference (max 10).');
    expect(fieldAt(spec, 'options')).toMatchObject({ kind: 'object', required: false });
    expect(fieldAt(spec, 'options.webhook_url')).toMatchObject({ kind: 'url', maxLength: 2048 });
    expect(fieldAt(spec, 'options.cache')).toMatchObject({ kind: 'boolean', required: false });
  });

  it('lifts a root that is itself a $ref (schemas made with z.toJSONSchema)', () => {
    const root: JsonSchema = {
      $ref: '#/$defs/Body',
      $defs: {
        Body: {
          type: 'object',
          properties: { video_url: { type: 'string', format: 'uri' } },
          required: ['video_url'],
        },
      },
    };
    expect(fieldAt(walkSchema(root), 'video_url')).toMatchObject({
      kind: 'url',
      required: true,
      label: 'Video URL',
    });
  });

  it('reads strings: long text, limits, patterns, uri and colours', () => {
    const speech = walkSchema(catalogSchema('speech/local-flite'));
    expect(fieldAt(speech, 'text')).toMatchObject({
      kind: 'text',
      multiline: true,
      minLength: 1,
      maxLength: 10_000,
      required: true,
    });
    expect(fieldAt(speech, 'voice')).toMatchObject({ kind: 'text', multiline: false, maxLength: 200 });
    const transcription = walkSchema(catalogSchema('transcription/local-pocketsphinx'));
    expect(fieldAt(transcription, 'audio_url')).toMatchObject({ kind: 'url', required: true });
    expect(fieldAt(transcription, 'language')).toMatchObject({
      kind: 'text',
      pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
      maxLength: 35,
    });
    const render = walkSchema(catalogSchema('render/local-render'));
    expect(fieldAt(render, 'background')).toMatchObject({
      kind: 'text',
      color: true,
      defaultValue: '#000000',
    });
  });

  it('reads aspect ratios: free `<w>:<h>` or the model’s own list', () => {
    expect(fieldAt(walkSchema(catalogSchema('image/local-sketch')), 'aspect_ratio')).toMatchObject({
      kind: 'aspect-ratio',
      choices: null,
    });
    expect(fieldAt(walkSchema(catalogSchema('video/kling-2.1-master')), 'aspect_ratio')).toMatchObject({
      kind: 'aspect-ratio',
      choices: ['16:9', '9:16', '1:1'],
    });
  });

  it('reads numbers and integers with their bounds, exclusive ones included', () => {
    const motion = walkSchema(catalogSchema('video/local-motion'));
    expect(fieldAt(motion, 'duration')).toMatchObject({
      kind: 'number',
      integer: false,
      minimum: 1,
      maximum: 60,
      exclusiveMinimum: 0,
      unit: 's',
    });
    expect(fieldAt(motion, 'provider_options.local.fps')).toMatchObject({
      kind: 'number',
      integer: true,
      minimum: 10,
      maximum: 30,
    });
    expect(fieldAt(walkSchema(catalogSchema('music/local-procedural-music')), 'duration')).toMatchObject({
      kind: 'number',
      integer: true,
      minimum: 1,
      maximum: 600,
    });
    // Draft 4 spelling: a boolean next to the bound.
    const legacy = walkSchema({
      type: 'object',
      properties: { x: { type: 'number', minimum: 2, exclusiveMinimum: true } },
    });
    expect(fieldAt(legacy, 'x')).toMatchObject({ exclusiveMinimum: 2 });
  });

  it('reads enums with and without a type, numeric ones included, as choices', () => {
    const kling = walkSchema(catalogSchema('video/kling-2.1-master'));
    expect(fieldAt(kling, 'duration')).toMatchObject({
      kind: 'choice',
      unit: 's',
      options: [
        { value: 5, label: '5' },
        { value: 10, label: '10' },
      ],
    });
    const flux = walkSchema(catalogSchema('image/flux-1.1-pro'));
    const tolerance = fieldAt(flux, 'provider_options.fal.safety_tolerance');
    expect(tolerance).toMatchObject({ kind: 'choice' });
    expect(tolerance.kind === 'choice' && tolerance.options.map((o) => o.value)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
  });

  it('reads an anyOf of consts as a choice of those values', () => {
    const factor = fieldAt(walkSchema(catalogSchema('image/local-upscale')), 'provider_options.local.factor');
    expect(factor).toMatchObject({ kind: 'choice', description: '2 (default) or 4.' });
    expect(factor.kind === 'choice' && factor.options.map((o) => o.value)).toEqual([2, 4]);
  });

  it('reads a oneOf of objects tagged by a const as a union (inline and through $ref)', () => {
    const edit = fieldAt(walkSchema(catalogSchema('image/local-edit')), 'provider_options.local.operations');
    expect(edit).toMatchObject({ kind: 'array', minItems: 1, maxItems: 20, required: true });
    const item = edit.kind === 'array' ? edit.item : null;
    expect(item).toMatchObject({ kind: 'union', discriminator: 'op' });
    expect(item?.kind === 'union' && item.variants.map((v) => v.value)).toEqual([
      'resize',
      'crop',
      'rotate',
      'format',
      'grayscale',
      'blur',
      'tint',
    ]);
    const crop = item?.kind === 'union' ? item.variants[1]?.spec : undefined;
    expect(crop?.fields.map((f) => [f.key, f.kind, f.required])).toEqual([
      ['op', 'const', true],
      ['left', 'number', true],
      ['top', 'number', true],
      ['width', 'number', true],
      ['height', 'number', true],
    ]);

    const ffmpeg = fieldAt(walkSchema(catalogSchema('ffmpeg/ffmpeg')), 'operations');
    const operation = ffmpeg.kind === 'array' ? ffmpeg.item : null;
    expect(operation?.kind === 'union' && operation.variants.map((v) => v.label)).toEqual([
      'Transcode',
      'Resize',
      'Trim',
      'Concat',
      'Extract audio',
      'Thumbnail',
      'Gif',
    ]);
    const layers = fieldAt(walkSchema(catalogSchema('render/local-render')), 'layers');
    expect(layers.kind === 'array' && layers.item).toMatchObject({ kind: 'union', discriminator: 'type' });
  });

  it('reads nested objects, closed ones (additionalProperties: false) and records', () => {
    const eleven = walkSchema(catalogSchema('speech/eleven-multilingual-v2'));
    expect(fieldAt(eleven, 'provider_options')).toMatchObject({ kind: 'object', closed: true });
    const settings = fieldAt(eleven, 'provider_options.elevenlabs.voice_settings');
    expect(settings).toMatchObject({ kind: 'object', closed: true, required: false });
    expect(settings.kind === 'object' && settings.fields.map((f) => f.key)).toEqual([
      'stability',
      'similarity_boost',
      'style',
      'use_speaker_boost',
      'speed',
    ]);
    // `additionalProperties: {}` with `propertyNames`: a record, written as JSON.
    const step = fieldAt(walkSchema(catalogSchema('pipeline/pipeline')), 'steps.[].input');
    expect(step).toMatchObject({ kind: 'json', expects: 'object' });
  });

  it('reads arrays of objects with their item limits', () => {
    const colors = fieldAt(walkSchema(catalogSchema('image/recraft-v3')), 'provider_options.fal.colors');
    expect(colors).toMatchObject({ kind: 'array', maxItems: 5 });
    expect(colors.kind === 'array' && colors.item).toMatchObject({ kind: 'object' });
    expect(fieldAt(walkSchema(catalogSchema('image/local-edit')), 'files')).toMatchObject({
      kind: 'files',
      minItems: 1,
      maxItems: 1,
    });
  });

  it('keeps defaults, descriptions, titles and required flags', () => {
    const render = walkSchema(catalogSchema('render/local-render'));
    expect(fieldAt(render, 'width')).toMatchObject({ defaultValue: 1280, required: false });
    expect(fieldAt(render, 'duration')).toMatchObject({ required: true, description: 'Seconds, up to 600.' });
    expect(fieldAt(render, 'format')).toMatchObject({ kind: 'choice', defaultValue: 'mp4' });
    // The provider group's title is its id, and so is its label.
    expect(fieldAt(walkSchema(catalogSchema('image/flux-1.1-pro')), 'provider_options.fal').label).toBe(
      'fal',
    );
  });

  it('reads nullable fields (type arrays and anyOf with null)', () => {
    const spec = walkSchema({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'], maxLength: 3 },
        b: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }], description: 'Or nothing.' },
      },
    });
    expect(fieldAt(spec, 'a')).toMatchObject({ kind: 'text', nullable: true, maxLength: 3 });
    expect(fieldAt(spec, 'b')).toMatchObject({
      kind: 'number',
      nullable: true,
      minimum: 1,
      description: 'Or nothing.',
    });
  });

  it('writes what it cannot draw as JSON: unknown refs, cycles, mixed types', () => {
    const spec = walkSchema({
      type: 'object',
      properties: {
        missing: { $ref: '#/$defs/Nope' },
        loop: { $ref: '#/$defs/Loop' },
        mixed: { type: ['string', 'number'] },
      },
      $defs: { Loop: { $ref: '#/$defs/Loop' } },
    });
    expect(spec.fields.map((f) => f.kind)).toEqual(['json', 'json', 'json']);
  });
});
