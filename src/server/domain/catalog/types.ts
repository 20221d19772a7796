import type { ToolKey } from '../../../contract/common.ts';

export type PriceUnit = 'image' | 'second' | 'thousand_characters' | 'minute' | 'job';

/** JSON Schema (draft 2020-12) of a provider's own request fields for one model. */
export type JsonSchema = Record<string, unknown>;

/**
 * Where a model or offer stands upstream. `deprecated`: the provider announced a shutdown date; it still
 * runs until then. `retired`: the provider no longer serves it; it is kept in the catalog so old jobs
 * still name it, but it is never routed to. Dates are ISO days (`2026-12-01`); `replacement` is a model
 * id of this catalog; `note` says where the date comes from or what the provider recommends.
 */
export type Lifecycle =
  | { status: 'active' }
  | { status: 'deprecated'; retiresOn: string; replacement?: string; note?: string }
  | { status: 'retired'; retiredOn: string; replacement?: string; note?: string };

/** One provider's offer of a model: how it is addressed there and what it costs. */
export interface ProviderOffer {
  provider: string;
  /** The provider's own model id (for example `fal-ai/flux/schnell`). */
  providerModelId: string;
  pricingId: string;
  unit: PriceUnit;
  /** Credits per unit; fractional prices are rounded up per job. */
  unitPrice: number;
  /** Units of a typical request, for `user_price_estimate_cents`. */
  typicalUnits: number;
  /** Schema of `provider_options[provider]` for this model. */
  optionsSchema: JsonSchema;
  /** Absent: active. A retired offer is never routed to; a model whose offers are all retired is retired. */
  lifecycle?: Lifecycle;
}

export interface ModelDefinition {
  /** The model id clients send; `<provider>:<id>` pins a provider. */
  id: string;
  tool: ToolKey;
  displayName: string;
  description: string;
  /** Offers in routing preference order: the first available one runs the job. */
  offers: ProviderOffer[];
  /** Another model of the same family that takes an image start frame (spec 4.2, video). */
  imageToVideoVariant?: string;
  /** Same request, same result: such work is served from the result cache (free) when repeated. */
  deterministic?: boolean;
  /**
   * This model's own limits on common request fields (for example `duration: { enum: [5, 10] }`),
   * as JSON Schema: published in its tool schema and checked when a job is created.
   */
  fields?: Record<string, JsonSchema>;
  /**
   * Common request fields of the tool this model makes no use of (an upscaler has no aspect ratio): left
   * out of its published schema, so a form generated from it does not ask for them. A request that sends
   * them is not refused; they change nothing.
   */
  ignores?: readonly string[];
  /** Typical run time, for `estimated_duration_ms`. */
  estimatedDurationMs?: number;
  /** Absent: active, unless every offer is retired. */
  lifecycle?: Lifecycle;
}

export interface ToolDefinition {
  key: ToolKey;
  description: string;
  example: Record<string, unknown>;
}
