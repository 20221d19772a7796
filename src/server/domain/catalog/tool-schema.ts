import { z } from 'zod';
import type { ToolKey } from '../../../contract/common.ts';
import type { Catalog } from './catalog.ts';
import type { JsonSchema, ModelDefinition } from './types.ts';

export type ToolBodySchemas = Record<ToolKey, z.ZodType>;

/**
 * A zod schema as a standalone JSON Schema, as a client fills it in (defaults optional). Named
 * schemas come out as `{ $ref, $defs }`; the root definition is lifted so `properties` is at the top.
 */
export function standaloneJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  const ref = json.$ref;
  const defs = json.$defs as Record<string, JsonSchema> | undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/') || !defs) return json;
  const root = defs[ref.slice('#/$defs/'.length)];
  if (!root) return json;
  // The root's own entry stays in $defs, so schemas that refer to themselves still resolve.
  return { ...root, $defs: defs };
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
  const schema = structuredClone(standaloneJsonSchema(bodies[tool]));
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  schema.properties = properties;
  if (properties.model) {
    properties.model = {
      ...properties.model,
      description: 'Model id, or provider-pinned `<provider>:<model>`.',
      examples: catalog
        .modelsOf(tool)
        .filter((m) => catalog.lifecycle(m).status !== 'retired')
        .map((m) => m.id),
      ...(model ? { default: model.id } : {}),
    };
  }
  if (model) {
    // The model's limits are laid over the tool's field; the tool keeps its own item schema.
    for (const [field, narrowed] of Object.entries(model.fields ?? {})) {
      const original = properties[field];
      if (original) properties[field] = { ...original, ...narrowed, items: original.items ?? narrowed.items };
    }
    for (const field of model.ignores ?? []) delete properties[field];
    if (Array.isArray(schema.required)) {
      schema.required = schema.required.filter((field: string) => !model.ignores?.includes(field));
    }
    properties.provider_options = {
      type: 'object',
      description: `Provider-native fields for ${model.displayName}, keyed by provider id. Used only when that provider runs the job.`,
      properties: Object.fromEntries(
        model.offers.map((o) => [o.provider, { ...o.optionsSchema, title: o.provider }]),
      ),
      additionalProperties: false,
    };
  }
  return schema;
}
