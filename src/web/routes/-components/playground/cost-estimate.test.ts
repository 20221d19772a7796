import { describe, expect, it } from 'vitest';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { estimateCost, routedProvider } from './cost-estimate.ts';

type Offer = PriceCatalogEntry['providers'][number];

function offer(provider: string, fields: Partial<Offer>): Offer {
  return {
    provider,
    model_key: `${provider}:m`,
    pricing_id: `${provider}:m`,
    user_price_estimate_cents: 1,
    unit: 'image',
    unit_price_cents: 1,
    available: true,
    unavailable_reason: null,
    ...fields,
  };
}

function entry(providers: Offer[]): PriceCatalogEntry {
  return { model: 'm', tool: 'image', display_name: 'M', description: '', available: true, providers };
}

describe('the estimate before submit (as domain/jobs/pricing.ts prices a job)', () => {
  it('routes to the pinned provider, else the first available one', () => {
    const model = entry([offer('fal', { available: false }), offer('replicate', {}), offer('local', {})]);
    expect(routedProvider(model, null)?.provider).toBe('replicate');
    expect(routedProvider(model, 'local')?.provider).toBe('local');
    expect(routedProvider(model, 'fal')).toBeUndefined();
    expect(estimateCost(model, 'fal', {})).toBeNull();
  });

  it('prices seconds from the duration, rounding fractional prices up per job', () => {
    const trim = entry([
      offer('local', { unit: 'second', unit_price_cents: 0.2, user_price_estimate_cents: 1 }),
    ]);
    expect(estimateCost(trim, null, { duration: 3 })).toMatchObject({ cents: 1, units: 3, fromForm: true });
    expect(estimateCost(trim, null, { duration: 11 })?.cents).toBe(3);
    const motion = entry([
      offer('local', { unit: 'second', unit_price_cents: 1, user_price_estimate_cents: 5 }),
    ]);
    expect(estimateCost(motion, null, { duration: 2 })?.cents).toBe(2);
    // No duration: the catalog's typical request.
    expect(estimateCost(motion, null, {})).toMatchObject({ cents: 5, units: 5, fromForm: false });
  });

  it('prices text by thousands of characters, at least one character', () => {
    const flite = entry([
      offer('local', { unit: 'thousand_characters', unit_price_cents: 2, user_price_estimate_cents: 1 }),
    ]);
    expect(estimateCost(flite, null, { text: 'Hello' })).toMatchObject({ cents: 1, units: 0.005 });
    expect(estimateCost(flite, null, { text: 'x'.repeat(2500) })?.cents).toBe(5);
    expect(estimateCost(flite, null, { text: '' })?.units).toBe(0.001);
  });

  it('prices images per image, counting the provider’s own count field', () => {
    const flux = entry([offer('fal', { unit_price_cents: 0.3 }), offer('openai', { unit_price_cents: 4 })]);
    expect(estimateCost(flux, null, {})).toMatchObject({ cents: 1, units: 1 });
    expect(estimateCost(flux, null, { provider_options: { fal: { num_images: 4 } } })).toMatchObject({
      cents: 2,
      units: 4,
    });
    expect(
      estimateCost(flux, 'openai', { provider_options: { openai: { n: 3 }, fal: { num_images: 4 } } })?.cents,
    ).toBe(12);
  });

  it('prices per job and per minute (the typical length, as the server does)', () => {
    const analyze = entry([
      offer('local', { unit: 'job', unit_price_cents: 5, user_price_estimate_cents: 5 }),
    ]);
    expect(estimateCost(analyze, null, { video_url: 'https://e.com/a.mp4' })?.cents).toBe(5);
    const sphinx = entry([
      offer('local', { unit: 'minute', unit_price_cents: 1, user_price_estimate_cents: 1 }),
    ]);
    expect(estimateCost(sphinx, null, { duration: 30 })).toMatchObject({ cents: 1, fromForm: false });
  });
});
