import type { ToolKey } from '../../../contract/common.ts';
import { TOOL_KEYS } from '../../../contract/common.ts';
import { getPricing } from '../../../contract/pricing.ts';
import { getTool, listTools } from '../../../contract/tools.ts';
import { type ToolBodySchemas, toolInputSchema } from '../../domain/catalog/tool-schema.ts';
import { TOOLS } from '../../domain/catalog/tools.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';

export function catalogRoutes(s: Services, bodies: ToolBodySchemas, outputSchema: Record<string, unknown>) {
  return [
    defineRoute(getPricing, async ({ c }) => {
      c.header('cache-control', 'public, max-age=60');
      return { data: s.catalog.priceCatalog() };
    }),

    defineRoute(listTools, async () => ({
      data: TOOLS.map((t) => ({ tool_key: t.key, description: t.description })),
    })),

    defineRoute(getTool, async ({ params, query }) => {
      const tool = TOOLS.find((t) => t.key === params.tool_key);
      if (!tool || !(TOOL_KEYS as readonly string[]).includes(params.tool_key)) {
        throw new AppError('not_found', `Unknown tool \`${params.tool_key}\`. Tools: ${TOOL_KEYS.join(', ')}.`);
      }
      const key = tool.key as ToolKey;
      let model = null;
      if (query.model) {
        const resolved = s.catalog.resolve(query.model);
        if (!resolved || resolved.model.tool !== key) {
          throw new AppError('model_not_found', `Model \`${query.model}\` is not a model of the ${key} tool.`, {
            details: { model: query.model, tool: key },
          });
        }
        model = resolved.model;
      }
      return {
        tool_key: key,
        description: tool.description,
        input_schema: toolInputSchema(key, bodies, s.catalog, model),
        output_schema: outputSchema,
        example: tool.example,
        model: model?.id ?? null,
        models: s.catalog.modelsOf(key).map((m) => ({
          model: m.id,
          display_name: m.displayName,
          available: s.catalog.modelAvailable(m),
        })),
      };
    }),
  ];
}
