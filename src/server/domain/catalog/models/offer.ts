import { z } from 'zod';
import type { JsonSchema, PriceUnit, ProviderOffer } from '../types.ts';

const noOptions: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

/** A zod schema of `provider_options.<provider>` as the JSON Schema the catalog publishes. */
export function optionsSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** One provider's offer; the pricing id names provider, provider model and unit. */
export function offer(
  provider: string,
  providerModelId: string,
  unit: PriceUnit,
  unitPrice: number,
  typicalUnits: number,
  options: JsonSchema = noOptions,
): ProviderOffer {
  const pricingId = `${provider}:${providerModelId}:${unit}`.replace(/[^a-zA-Z0-9:._-]/g, '-');
  return { provider, providerModelId, pricingId, unit, unitPrice, typicalUnits, optionsSchema: options };
}
