import type { ToolKey } from '../../../contract/common.ts';
import { TOOL_KEYS } from '../../../contract/common.ts';
import { TOOL_REQUEST_BODIES } from '../../../contract/generation.ts';
import { OutputEnvelope } from '../../../contract/jobs.ts';
import { getPricing } from '../../../contract/pricing.ts';
import { getTool, listTools } from '../../../contract/tools.ts';
import { lifecycleSentence, publicLifecycle } from '../../domain/catalog/lifecycle.ts';
import { standaloneJsonSchema, toolInputSchema } from '../../domain/catalog/tool-schema.ts';
import { TOOLS } from '../../domain/catalog/tools.ts';
import { AppError } from '../../errors.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';
import type { FastPath } from '../fast-path.ts';
import { FixedAnswer } from '../fixed-answer.ts';

export function catalogRoutes(s: Services, fastPath: FastPath) {
  const outputSchema = standaloneJsonSchema(OutputEnvelope, 'output');
  // Prices, tools and provider availability are fixed while the server runs, and lifecycles move by the
  // day: each answer is serialised, tagged and compressed once per day (on first use), then only picked
  // per request. On the day a deprecation becomes a retirement the answers are built again, so the model
  // is no longer listed as available (before, only a restart did that).
  // The tools are revalidated on every use (no-cache; a 304 costs nothing): a restart may change availability.
  const fixed = (payload: unknown, cacheControl = 'no-cache') =>
    new FixedAnswer(JSON.stringify(payload), {
      'content-type': 'application/json',
      'cache-control': cacheControl,
    });
  let pricing: FixedAnswer | null = null;
  /** By tool and model; only known pairs are kept, so it holds at most one entry per model and tool. */
  const toolAnswers = new Map<string, FixedAnswer>();
  let builtOn = s.catalog.today();
  /** Drops the day's answers once the catalog's day has moved on. */
  const sameDay = () => {
    const today = s.catalog.today();
    if (today === builtOn) return;
    builtOn = today;
    pricing = null;
    toolAnswers.clear();
  };
  let tools: FixedAnswer | null = null;
  // Public, so the fast path needs no caller: once the first request has built it, the catalog is served there.
  fastPath.add(getPricing, (req) => {
    sameDay();
    return pricing?.answerNow(req);
  });

  return [
    defineRoute(getPricing, async ({ c }) => {
      sameDay();
      pricing ??= fixed({ data: s.catalog.priceCatalog() }, 'public, max-age=60');
      return pricing.respond(c);
    }),

    defineRoute(listTools, async ({ c }) => {
      tools ??= fixed({ data: TOOLS.map((t) => ({ tool_key: t.key, description: t.description })) });
      return tools.respond(c);
    }),

    defineRoute(getTool, async ({ params, query, c }) => {
      sameDay();
      const cacheKey = `${params.tool_key}\n${query.model ?? ''}`;
      const known = toolAnswers.get(cacheKey);
      if (known) return known.respond(c);
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
      const answer = fixed({
        tool_key: key,
        description: tool.description,
        input_schema: toolInputSchema(key, TOOL_REQUEST_BODIES, s.catalog, model),
        output_schema: outputSchema,
        example: tool.example,
        model: model?.id ?? null,
        models: s.catalog.modelsOf(key).map((m) => {
          const available = s.catalog.modelAvailable(m);
          const lifecycle = s.catalog.lifecycle(m);
          return {
            model: m.id,
            display_name: m.displayName,
            description: m.description,
            providers: m.offers.map((o) => o.provider),
            available,
            unavailable_reason: available
              ? null
              : lifecycle.status === 'retired'
                ? lifecycleSentence(lifecycle)
                : m.offers.map((o) => `${o.provider}: ${s.catalog.unavailableReason(o)}`).join(' '),
            lifecycle: publicLifecycle(lifecycle),
          };
        }),
      });
      toolAnswers.set(cacheKey, answer);
      return answer.respond(c);
    }),
  ];
}
