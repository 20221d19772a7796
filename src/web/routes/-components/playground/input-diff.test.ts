import { describe, expect, it } from 'vitest';
import { compareInputs, flattenInput } from './input-diff.ts';

describe('comparing the inputs of runs', () => {
  it('flattens an input to dotted paths', () => {
    expect([
      ...flattenInput({
        prompt: 'a',
        files: [{ url: 'u' }],
        provider_options: { local: { seed: 1 } },
        x: [],
      }),
    ]).toEqual([
      ['prompt', 'a'],
      ['files.0.url', 'u'],
      ['provider_options.local.seed', '1'],
      ['x', '[]'],
    ]);
  });

  it('marks the fields that differ, including ones only some runs set; model first', () => {
    const rows = compareInputs([
      { prompt: 'a cat', model: 'local-sketch', aspect_ratio: '16:9' },
      { model: 'local-sketch', prompt: 'a dog' },
      { model: 'local-sketch', prompt: 'a cat' },
    ]);
    expect(rows).toEqual([
      { path: 'model', values: ['local-sketch', 'local-sketch', 'local-sketch'], differs: false },
      { path: 'prompt', values: ['a cat', 'a dog', 'a cat'], differs: true },
      { path: 'aspect_ratio', values: ['16:9', null, null], differs: true },
    ]);
  });
});
