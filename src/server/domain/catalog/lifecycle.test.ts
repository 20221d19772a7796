import { describe, expect, it } from 'vitest';
import { Catalog } from './catalog.ts';
import { lifecycleOn, modelLifecycle } from './lifecycle.ts';
import { deprecated, model, retired, withLifecycle } from './models/define.ts';
import { offer } from './models/offer.ts';

const a = offer('fal', 'fal-ai/a', 'image', 1, 1);
const b = offer('replicate', 'owner/b', 'image', 1, 1);

describe('lifecycles', () => {
  it('turn a deprecation into a retirement on its shutdown day, not before', () => {
    const d = deprecated('2026-12-01', 'next');
    expect(lifecycleOn(d, '2026-11-30').status).toBe('deprecated');
    expect(lifecycleOn(d, '2026-12-01')).toEqual({
      status: 'retired',
      retiredOn: '2026-12-01',
      replacement: 'next',
    });
    expect(lifecycleOn(undefined, '2026-12-01')).toEqual({ status: 'active' });
  });

  it('retire a model whose offers are all retired, and keep it active while one offer remains', () => {
    const both = model('m', 'image', 'M', 'm', [
      withLifecycle(a, retired('2026-08-17', 'n')),
      withLifecycle(b, retired('2026-09-01', 'o')),
    ]);
    expect(modelLifecycle(both, '2026-11-27')).toEqual({
      status: 'retired',
      retiredOn: '2026-09-01',
      replacement: 'o',
    });
    const one = model('m', 'image', 'M', 'm', [withLifecycle(a, retired('2026-08-17', 'n')), b]);
    expect(modelLifecycle(one, '2026-11-27')).toEqual({ status: 'active' });
    const own = model('m', 'image', 'M', 'm', [a], { lifecycle: deprecated('2027-01-06', 'x') });
    expect(modelLifecycle(own, '2026-11-27').status).toBe('deprecated');
  });

  it('never route to a retired offer, nor call a retired model available, whatever keys are set', () => {
    const everything = () => ({ available: true, reason: null });
    const today = () => new Date('2026-11-27T12:00:00Z');
    const mixed = model('mixed', 'image', 'Mixed', 'm', [withLifecycle(a, retired('2026-08-17', 'n')), b]);
    const gone = model('gone', 'image', 'Gone', 'g', [a], { lifecycle: retired('2026-10-23', 'mixed') });
    const catalog = new Catalog([mixed, gone], everything, today);
    expect(catalog.isAvailable(mixed.offers[0]!)).toBe(false);
    expect(catalog.unavailableReason(mixed.offers[0]!)).toBe('Retired on 2026-08-17; use n instead.');
    expect(catalog.modelAvailable(mixed)).toBe(true);
    expect(catalog.modelAvailable(gone)).toBe(false);
    const [m, g] = catalog.priceCatalog();
    expect(m!.providers.map((p) => p.available)).toEqual([false, true]);
    expect(g).toMatchObject({
      available: false,
      lifecycle: { status: 'retired', retired_on: '2026-10-23', replacement: 'mixed' },
      providers: [{ available: false, unavailable_reason: 'Retired on 2026-10-23; use mixed instead.' }],
    });
  });
});
