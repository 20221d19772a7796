import { describe, expect, it } from 'vitest';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { estimateCost, estimatePipeline, routedProvider } from './cost-estimate.ts';

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

describe('one estimate rule for a pipeline: the sum of its steps', () => {
  const model = (id: string, tool: PriceCatalogEntry['tool'], fields: Partial<Offer>, available = true) => ({
    ...entry([offer('local', { ...fields, available })]),
    model: id,
    tool,
    available,
  });
  const catalog: PriceCatalogEntry[] = [
    model('pipeline', 'pipeline', { unit: 'job', unit_price_cents: 0, user_price_estimate_cents: 0 }),
    model('local-sketch', 'image', { unit: 'image', unit_price_cents: 1 }),
    model('local-upscale', 'image', { unit: 'image', unit_price_cents: 2 }),
    model('local-trim', 'video', { unit: 'second', unit_price_cents: 0.5, user_price_estimate_cents: 3 }),
  ];

  it('is never -0 for a free offer', () => {
    const pipeline = catalog[0]!;
    expect(Object.is(estimateCost(pipeline, null, {})?.cents, 0)).toBe(true);
  });

  it('sums each step priced as its own job, the default model where a step names none', () => {
    const body = {
      steps: [
        { id: 'sketch', tool: 'image', input: { prompt: 'a kite' } },
        {
          id: 'bigger',
          tool: 'image',
          input: { model: 'local-upscale', files: [{ url: '{{steps.sketch.output.url}}' }] },
        },
        { id: 'clip', tool: 'video', input: { model: 'local-trim', duration: 9 } },
        { id: 'odd', tool: 'video', input: { model: 'not-here' } },
      ],
    };
    expect(estimatePipeline(catalog, body)).toEqual({
      cents: 1 + 2 + 5,
      steps: [
        { id: 'sketch', cents: 1 },
        { id: 'bigger', cents: 2 },
        { id: 'clip', cents: 5 },
        { id: 'odd', cents: null },
      ],
    });
    expect(estimatePipeline(catalog, { steps: [] })).toBeNull();
  });
});
