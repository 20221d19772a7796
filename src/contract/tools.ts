import { z } from 'zod';
import { ToolKey } from './common.ts';
import { defineEndpoint } from './endpoint.ts';
import { ModelLifecycle } from './pricing.ts';

export const ToolSummary = z
  .object({ tool_key: ToolKey, description: z.string() })
  .meta({ id: 'ToolSummary' });

const JsonSchemaObject = z
  .record(z.string(), z.unknown())
  .meta({ description: 'A JSON Schema (draft 2020-12).' });

export const ToolModel = z
  .object({
    model: z.string(),
    display_name: z.string(),
    description: z.string(),
    providers: z
      .array(z.string())
      .meta({ description: 'Provider ids offering the model, in routing order.' }),
    available: z.boolean(),
    unavailable_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why no provider can run it here, and how to enable one; null when available.' }),
    lifecycle: ModelLifecycle.optional(),
  })
  .meta({ id: 'ToolModel' });

export const ToolMetadata = z
  .object({
    tool_key: ToolKey,
    description: z.string(),
    input_schema: JsonSchemaObject,
    output_schema: JsonSchemaObject,
    example: z.record(z.string(), z.unknown()),
    model: z.string().nullable().meta({ description: 'The model whose provider options enrich the schema.' }),
    models: z.array(ToolModel).meta({ description: 'Models this tool can run.' }),
  })
  .meta({ id: 'ToolMetadata' });
export type ToolMetadata = z.infer<typeof ToolMetadata>;

export const listTools = defineEndpoint({
  operationId: 'listTools',
  method: 'GET',
  path: '/v2/tools',
  host: 'api',
  tag: 'Tools',
  summary: 'List tools',
  auth: 'any',
  responses: { 200: { description: 'All tools.', schema: z.object({ data: z.array(ToolSummary) }) } },
  errors: [],
});

export const getTool = defineEndpoint({
  operationId: 'getTool',
  method: 'GET',
  path: '/v2/tools/{tool_key}',
  host: 'api',
  tag: 'Tools',
  summary: 'Tool metadata and input schema',
  description: 'With `model`, `provider_options` is enriched with the per-provider schema of that model.',
  auth: 'any',
  params: z.object({ tool_key: z.string().max(64) }),
  query: z.object({ model: z.string().min(1).max(200).optional() }),
  responses: { 200: { description: 'The tool.', schema: ToolMetadata } },
  errors: ['not_found', 'model_not_found'],
});
