import { z } from 'zod';
import { Cents, ToolKey } from './common.ts';
import { defineEndpoint } from './endpoint.ts';

/** Units a price is quoted in (per image, per second, per 1,000 characters, per minute, per job). */
export const PRICE_UNITS = ['image', 'second', 'thousand_characters', 'minute', 'job'] as const;
export const PriceUnit = z.enum(PRICE_UNITS).meta({ id: 'PriceUnit' });

/**
 * Where a model (or one provider's offer of it) stands upstream: `active`; `deprecated`, still running
 * until `retires_on`; `retired`, kept so old jobs still name it but never available. Absent on servers
 * that do not track it: read as active.
 */
export const ModelLifecycle = z
  .object({
    status: z.enum(['active', 'deprecated', 'retired']),
    retires_on: z.iso.date().nullable().meta({ description: 'Announced shutdown day, when deprecated.' }),
    retired_on: z.iso
      .date()
      .nullable()
      .meta({ description: 'Day the provider stopped serving it, when retired.' }),
    replacement: z.string().nullable().meta({ description: 'Model id to use instead.' }),
    note: z.string().nullable(),
  })
  .meta({ id: 'ModelLifecycle' });
export type ModelLifecycle = z.infer<typeof ModelLifecycle>;

/** One provider that can run a model (spec 2.9), plus the unit price and availability the console shows. */
export const PriceProvider = z
  .object({
    provider: z.string(),
    model_key: z.string().meta({ description: 'Provider-pinned model, form `<provider>:<model>`.' }),
    pricing_id: z.string(),
    user_price_estimate_cents: Cents.meta({ description: 'Estimate for a typical request.' }),
    unit: PriceUnit,
    unit_price_cents: z.number().min(0).meta({ description: 'Credits per unit; may be fractional.' }),
    available: z.boolean().meta({ description: 'False when the provider is not configured on this server.' }),
    unavailable_reason: z.string().nullable(),
    lifecycle: ModelLifecycle.optional(),
  })
  .meta({ id: 'PriceProvider' });

export const PriceCatalogEntry = z
  .object({
    model: z.string(),
    tool: ToolKey,
    display_name: z.string(),
    description: z.string(),
    available: z
      .boolean()
      .meta({ description: 'True when at least one provider can run it here; never for a retired model.' }),
    providers: z.array(PriceProvider),
    lifecycle: ModelLifecycle.optional(),
  })
  .meta({ id: 'PriceCatalogEntry' });
export type PriceCatalogEntry = z.infer<typeof PriceCatalogEntry>;

export const getPricing = defineEndpoint({
  operationId: 'getPricing',
  method: 'GET',
  path: '/v2/pricing',
  host: 'api',
  tag: 'Pricing',
  summary: 'Public price catalog',
  description: 'Every model with its providers and prices, grouped by tool. No authentication.',
  auth: 'none',
  responses: {
    200: { description: 'The catalog.', schema: z.object({ data: z.array(PriceCatalogEntry) }) },
  },
  errors: [],
});
