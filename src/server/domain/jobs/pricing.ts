import type { PriceUnit, ProviderOffer } from '../catalog/types.ts';

/** The name a unit is billed under in `billed_units` and the `billing` label of the job. */
export const UNIT_NAMES: Record<PriceUnit, { billed: string; billing: string }> = {
  image: { billed: 'images', billing: 'per_image' },
  second: { billed: 'seconds', billing: 'per_second' },
  thousand_characters: { billed: 'thousand_characters', billing: 'per_1000_characters' },
  minute: { billed: 'minutes', billing: 'per_minute' },
  job: { billed: 'jobs', billing: 'per_job' },
};

/** Units a request will use, estimated from its body before it runs. */
export function estimateUnits(offer: ProviderOffer, body: Record<string, unknown>): number {
  switch (offer.unit) {
    case 'image':
      return 1;
    case 'second':
      return typeof body.duration === 'number' ? body.duration : offer.typicalUnits;
    case 'thousand_characters':
      return typeof body.text === 'string' ? Math.max(body.text.length, 1) / 1000 : offer.typicalUnits;
    case 'minute':
      return offer.typicalUnits;
    case 'job':
      return 1;
  }
}

/** Credits for a number of units: fractional prices round up per job (a free offer costs 0, never -0). */
export function costOf(offer: ProviderOffer, units: number): number {
  return Math.max(0, Math.ceil(offer.unitPrice * units - 1e-9));
}

/** Cost of what was billed, from billed_units under the offer's unit name. */
export function actualCost(offer: ProviderOffer, billedUnits: Record<string, number>): number {
  return costOf(offer, billedUnits[UNIT_NAMES[offer.unit].billed] ?? 0);
}
