import { z } from 'zod';
import type { ToolKey } from '../../../contract/common.ts';
import type { Catalog } from './catalog.ts';
import type { JsonSchema, ModelDefinition } from './types.ts';

export type ToolBodySchemas = Partial<Record<ToolKey, z.ZodType>>;

/** The request body's JSON Schema as a client fills it (defaults optional), with no $schema marker. */
function bodyJsonSchema(schema: z.ZodType | undefined): JsonSchema {
  if (!schema) return { type: 'object', properties: {} };
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

/**
 * A tool's `input_schema` (spec 2.8): the contract's body schema, with the catalog's model ids on
 * `model`; for a chosen model, `provider_options` gets one object schema per provider of that model.
 */
export function toolInputSchema(
  tool: ToolKey,
  bodies: ToolBodySchemas,
  catalog: Catalog,
  model: ModelDefinition | null,
): JsonSchema {
  const schema = structuredClone(bodyJsonSchema(bodies[tool]));
  const properties = ((schema.properties ??= {}) as Record<string, JsonSchema>);
  const models = catalog.modelsOf(tool);
  if (properties.model) {
    properties.model = {
      ...properties.model,
      description: 'Model id, or provider-pinned `<provider>:<model>`.',
      examples: models.map((m) => m.id),
      ...(model ? { default: model.id } : {}),
    };
  }
  if (model) {
    properties.provider_options = {
      type: 'object',
      description: `Provider-native fields for ${model.displayName}, keyed by provider id. Used only when that provider runs the job.`,
      properties: Object.fromEntries(model.offers.map((o) => [o.provider, { ...o.optionsSchema, title: o.provider }])),
      additionalProperties: false,
    };
  }
  return schema;
}
