import { describe, expect, it } from 'vitest';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { chooseModel, formatModelRef, parseModelRef } from './model-choice.ts';

function model(
  id: string,
  tool: PriceCatalogEntry['tool'],
  available: boolean,
  providers: string[],
): PriceCatalogEntry {
  return {
    model: id,
    tool,
    display_name: id,
    description: '',
    available,
    providers: providers.map((provider) => ({
      provider,
      model_key: `${provider}:${id}`,
      pricing_id: id,
      user_price_estimate_cents: 1,
      unit: 'image',
      unit_price_cents: 1,
      available,
      unavailable_reason: null,
    })),
  };
}

const CATALOG = [
  model('flux-dev', 'image', false, ['fal', 'replicate']),
  model('local-sketch', 'image', true, ['local']),
  model('local-flite', 'speech', true, ['local']),
];

describe('which model the playground opens with', () => {
  it('takes the URL’s model, else the last used, else the first available', () => {
    expect(chooseModel('image', 'flux-dev', 'local-sketch', CATALOG)).toBe('flux-dev');
    expect(chooseModel('image', undefined, 'flux-dev', CATALOG)).toBe('flux-dev');
    expect(chooseModel('image', undefined, null, CATALOG)).toBe('local-sketch');
    // A model of another tool (an old link) is not taken.
    expect(chooseModel('image', 'local-flite', null, CATALOG)).toBe('local-sketch');
    expect(chooseModel('music', undefined, null, CATALOG)).toBeNull();
  });

  it('reads and writes provider pins', () => {
    expect(parseModelRef('fal:flux-dev', CATALOG)).toEqual({ model: 'flux-dev', provider: 'fal' });
    expect(parseModelRef('flux-dev', CATALOG)).toEqual({ model: 'flux-dev', provider: null });
    // Not a provider of that model: the whole text is the model id.
    expect(parseModelRef('local:flux-dev', CATALOG)).toEqual({ model: 'local:flux-dev', provider: null });
    expect(chooseModel('image', 'replicate:flux-dev', null, CATALOG)).toBe('replicate:flux-dev');
    expect(formatModelRef({ model: 'flux-dev', provider: 'fal' })).toBe('fal:flux-dev');
  });
});
