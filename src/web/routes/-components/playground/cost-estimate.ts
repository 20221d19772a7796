import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';

type PriceProvider = PriceCatalogEntry['providers'][number];

export interface CostEstimate {
  cents: number;
  provider: PriceProvider;
  units: number;
  /** The units come from the form (duration, text); otherwise this is the catalog's typical request. */
  fromForm: boolean;
}

/** Provider fields that ask for several images in one request (OpenAI `n`, fal, Replicate). */
const IMAGE_COUNT_FIELDS = ['n', 'num_images', 'num_outputs'];

/** The provider that will run the job: the pinned one, else the first available (server routing). */
export function routedProvider(entry: PriceCatalogEntry, pinned: string | null): PriceProvider | undefined {
  const offers = pinned ? entry.providers.filter((p) => p.provider === pinned) : entry.providers;
  return offers.find((p) => p.available);
}

function imageCount(body: Record<string, unknown>, provider: string): number {
  const options = body.provider_options;
  if (!options || typeof options !== 'object') return 1;
  const own = (options as Record<string, unknown>)[provider];
  if (!own || typeof own !== 'object') return 1;
  for (const field of IMAGE_COUNT_FIELDS) {
    const value = (own as Record<string, unknown>)[field];
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return 1;
}

/**
 * The price of a request before it is sent, as the server prices it (domain/jobs/pricing.ts):
 * `ceil(unit price × units)`, with units from the body (seconds from `duration`, thousands of
 * characters from `text`, images) or, when the body does not say, the catalog's typical request.
 * The job's `estimated_cost_cents` confirms it once created.
 */
export function estimateCost(
  entry: PriceCatalogEntry,
  pinned: string | null,
  body: Record<string, unknown>,
): CostEstimate | null {
  const provider = routedProvider(entry, pinned);
  if (!provider) return null;
  const price = provider.unit_price_cents;
  // As the server rounds (domain/jobs/pricing.ts): up per job, and a free offer is 0, never -0.
  const costOf = (units: number) => Math.max(0, Math.ceil(price * units - 1e-9));
  switch (provider.unit) {
    case 'image': {
      const units = imageCount(body, provider.provider);
      return { cents: costOf(units), provider, units, fromForm: units > 1 };
    }
    case 'second':
      if (typeof body.duration === 'number' && body.duration > 0) {
        return { cents: costOf(body.duration), provider, units: body.duration, fromForm: true };
      }
      break;
    case 'thousand_characters':
      if (typeof body.text === 'string') {
        const units = Math.max(body.text.length, 1) / 1000;
        return { cents: costOf(units), provider, units, fromForm: true };
      }
      break;
    case 'job':
      return { cents: costOf(1), provider, units: 1, fromForm: false };
    case 'minute':
      break;
  }
  const typical = price > 0 ? provider.user_price_estimate_cents / price : 0;
  return { cents: provider.user_price_estimate_cents, provider, units: typical, fromForm: false };
}

/** A pipeline's estimate: the sum of its steps' (api.md: the pipeline charges nothing itself). */
export interface PipelineCostEstimate {
  cents: number;
  /** Each step's estimate, by its id; null where this server has no price for it. */
  steps: Array<{ id: string; cents: number | null }>;
}

interface StepRequest {
  id?: unknown;
  tool?: unknown;
  input?: unknown;
}

/**
 * The model a step runs: the one it names, else the tool's first available one (as the server chooses,
 * domain/jobs/create-job.ts `chooseModel`).
 */
function stepEntry(catalog: readonly PriceCatalogEntry[], tool: unknown, model: unknown) {
  const ofTool = catalog.filter((entry) => entry.tool === tool);
  return typeof model === 'string'
    ? ofTool.find((entry) => entry.model === model)
    : ofTool.find((entry) => entry.available);
}

/**
 * The estimate of a pipeline request (`{ steps: [{ id, tool, input }] }`), by the same rule as one job
 * (`estimateCost` per step), summed; as the server estimates it. An input an earlier step makes is not
 * known yet, so its step counts the model's typical request.
 */
export function estimatePipeline(
  catalog: readonly PriceCatalogEntry[],
  body: Record<string, unknown>,
): PipelineCostEstimate | null {
  const steps = Array.isArray(body.steps) ? (body.steps as StepRequest[]) : [];
  if (steps.length === 0) return null;
  const priced = steps.map((step, index) => {
    const input = (step.input && typeof step.input === 'object' ? step.input : {}) as Record<string, unknown>;
    const entry = stepEntry(catalog, step.tool, input.model);
    const estimate = entry ? estimateCost(entry, null, input) : null;
    return {
      id: typeof step.id === 'string' ? step.id : `step ${index + 1}`,
      cents: estimate?.cents ?? null,
    };
  });
  return { cents: priced.reduce((sum, step) => sum + (step.cents ?? 0), 0), steps: priced };
}
