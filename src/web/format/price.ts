import type { PRICE_UNITS } from '../../contract/pricing.ts';
import { formatCredits } from './credits.ts';

type PriceUnit = (typeof PRICE_UNITS)[number];

const UNIT_LABELS: Record<PriceUnit, string> = {
  image: 'image',
  second: 'second',
  thousand_characters: '1K characters',
  minute: 'minute',
  job: 'job',
};

/** "4 credits / image", "0.5 credits / second". */
export function formatUnitPrice(creditsPerUnit: number, unit: PriceUnit): string {
  return `${formatCredits(creditsPerUnit)} / ${UNIT_LABELS[unit]}`;
}
