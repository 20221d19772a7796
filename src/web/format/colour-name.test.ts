import { describe, expect, it } from 'vitest';
import { walkSchema } from '../schema-form/walk-schema.ts';
import { colourName, isHexColour } from './colour-name.ts';

describe('colours in words', () => {
  it('names a colour code by the nearest colour people name', () => {
    expect(['#0f172a', '#7c2d12', '#14532d', '#1e3a8a', '#581c87'].map(colourName)).toEqual([
      'Navy',
      'Rust',
      'Dark green',
      'Dark blue',
      'Purple',
    ]);
    expect(colourName('#fff')).toBe('White');
    expect(colourName('navy')).toBeNull();
    expect(isHexColour('#12345')).toBe(false);
  });

  it('gives a choice of colours (a template’s background) names, not codes; two alike keep their code', () => {
    const spec = walkSchema({
      type: 'object',
      properties: { background: { type: 'string', enum: ['#0f172a', '#7c2d12', '#000000', '#050505'] } },
    });
    const field = spec.fields[0]!;
    expect(field.kind).toBe('choice');
    expect(field.kind === 'choice' && field.options.map((o) => o.label)).toEqual([
      'Navy',
      'Rust',
      'Black (#000000)',
      'Black (#050505)',
    ]);
  });
});
