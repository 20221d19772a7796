import { createHash } from 'node:crypto';
import type { ToolKey } from '../../../contract/common.ts';
import { TOOL_KEYS } from '../../../contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import { OutputEnvelope } from '../../../contract/jobs.ts';
import { getPricing } from '../../../contract/pricing.ts';
import { getTool, listTools } from '../../../contract/tools.ts';
import { standaloneJsonSchema, toolInputSchema } from '../../domain/catalog/tool-schema.ts';
import { TOOLS } from '../../domain/catalog/tools.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';
import { requestHeader } from '../request-header.ts';
import { respond } from '../respond.ts';

export function catalogRoutes(s: Services) {
  const outputSchema = standaloneJsonSchema(OutputEnvelope, 'output');
  // Prices and provider availability are fixed once the server has started: serialise the catalog once.
  let pricing: { body: string; etag: string } | null = null;
  const pricingBody = () => {
    if (!pricing) {
      const body = JSON.stringify({ data: s.catalog.priceCatalog() });
      pricing = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    return pricing;
  };

  return [
    defineRoute(getPricing, async ({ c }) => {
      const { body, etag } = pricingBody();
      const headers = { etag, 'cache-control': 'public, max-age=60' };
      if (requestHeader(c, 'if-none-match') === etag) return respond(c, 304, null, headers);
      return respond(c, 200, body, { ...headers, 'content-type': 'application/json' });
    }),

    defineRoute(listTools, async () => ({
      data: TOOLS.map((t) => ({ tool_key: t.key, description: t.description })),
    })),

    defineRoute(getTool, async ({ params, query }) => {
      const tool = TOOLS.find((t) => t.key === params.tool_key);
      if (!tool || !(TOOL_KEYS as readonly string[]).includes(params.tool_key)) {
        throw new AppError(
          'not_found',
          `Unknown tool \`${params.tool_key}\`. Tools: ${TOOL_KEYS.join(', ')}.`,
        );
      }
      const key = tool.key as ToolKey;
      let model = null;
      if (query.model) {
        const resolved = s.catalog.resolve(query.model);
        if (!resolved || resolved.model.tool !== key) {
          throw new AppError(
            'model_not_found',
            `Model \`${query.model}\` is not a model of the ${key} tool.`,
            {
              details: { model: query.model, tool: key },
            },
          );
        }
        model = resolved.model;
      }
      return {
        tool_key: key,
        description: tool.description,
        input_schema: toolInputSchema(key, TOOL_REQUEST_BODIES, s.catalog, model),
        output_schema: outputSchema,
        example: tool.example,
        model: model?.id ?? null,
        models: s.catalog.modelsOf(key).map((m) => {
          const available = s.catalog.modelAvailable(m);
          return {
            model: m.id,
            display_name: m.displayName,
            description: m.description,
            providers: m.offers.map((o) => o.provider),
            available,
            unavailable_reason: available
              ? null
              : m.offers.map((o) => `${o.provider}: ${s.catalog.unavailableReason(o)}`).join(' '),
          };
        }),
      };
    }),
  ];
}
