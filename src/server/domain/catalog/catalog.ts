import { TOOL_KEYS, type ToolKey } from '../../../contract/common.ts';
import type { PriceCatalogEntry } from '../../../contract/pricing.ts';
import type { ProviderAvailability } from './availability.ts';
import { isoDay, lifecycleSentence, modelLifecycle, offerLifecycle, publicLifecycle } from './lifecycle.ts';
import type { Lifecycle, ModelDefinition, ProviderOffer } from './types.ts';

export interface ResolvedModel {
  model: ModelDefinition;
  /** Set when the request pinned a provider with `<provider>:<model>`. */
  pinnedProvider: string | null;
}

/** The catalog as the server sees it: models, their offers, and which offers can run here. */
export class Catalog {
  private readonly byId: Map<string, ModelDefinition>;

  /** `now` is read on every question, so a deprecation turns into a retirement on its day. */
  constructor(
    readonly models: readonly ModelDefinition[],
    private readonly availability: ProviderAvailability,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.byId = new Map(models.map((m) => [m.id, m]));
  }

  /** Finds `model` or `<provider>:<model>`; null when unknown (the caller answers model_not_found). */
  resolve(reference: string): ResolvedModel | null {
    const direct = this.byId.get(reference);
    if (direct) return { model: direct, pinnedProvider: null };
    const colon = reference.indexOf(':');
    if (colon <= 0) return null;
    const provider = reference.slice(0, colon);
    const model = this.byId.get(reference.slice(colon + 1));
    if (!model?.offers.some((o) => o.provider === provider)) return null;
    return { model, pinnedProvider: provider };
  }

  modelsOf(tool: ToolKey): ModelDefinition[] {
    return this.models.filter((m) => m.tool === tool);
  }

  /** Today's ISO day: answers built from the catalog hold until it changes (lifecycles move by the day). */
  today(): string {
    return isoDay(this.now());
  }

  /**
   * The retirement that stops a job on `offer` of `model` today, if any: the model's own (or all its
   * offers'), else the offer's when only that provider dropped it.
   */
  retirement(
    model: ModelDefinition,
    offer?: ProviderOffer,
  ): Extract<Lifecycle, { status: 'retired' }> | null {
    const own = this.lifecycle(model);
    if (own.status === 'retired') return own;
    const ofOffer = offer ? this.offerLifecycle(offer) : null;
    return ofOffer?.status === 'retired' ? ofOffer : null;
  }

  /** Where the model stands today (its own lifecycle, or what its offers' lifecycles add up to). */
  lifecycle(model: ModelDefinition): Lifecycle {
    return modelLifecycle(model, isoDay(this.now()));
  }

  offerLifecycle(offer: ProviderOffer): Lifecycle {
    return offerLifecycle(offer, isoDay(this.now()));
  }

  /** A retired offer is never available, whatever keys are configured. */
  isAvailable(offer: ProviderOffer): boolean {
    if (this.offerLifecycle(offer).status === 'retired') return false;
    return this.availability(offer.provider, offer.providerModelId).available;
  }

  unavailableReason(offer: ProviderOffer): string | null {
    const lifecycle = this.offerLifecycle(offer);
    if (lifecycle.status === 'retired') return lifecycleSentence(lifecycle);
    return this.availability(offer.provider, offer.providerModelId).reason;
  }

  modelAvailable(model: ModelDefinition): boolean {
    return this.lifecycle(model).status !== 'retired' && model.offers.some((o) => this.isAvailable(o));
  }

  /** The public price catalog (spec 2.9), grouped by tool in the spec's tool order. */
  priceCatalog(): PriceCatalogEntry[] {
    const order = (tool: ToolKey) => TOOL_KEYS.indexOf(tool);
    return [...this.models]
      .sort((a, b) => order(a.tool) - order(b.tool))
      .map((model) => {
        const lifecycle = this.lifecycle(model);
        const providers = model.offers.map((o) => {
          const available = lifecycle.status !== 'retired' && this.isAvailable(o);
          return {
            provider: o.provider,
            model_key: `${o.provider}:${model.id}`,
            pricing_id: o.pricingId,
            user_price_estimate_cents: Math.ceil(o.unitPrice * o.typicalUnits),
            unit: o.unit,
            unit_price_cents: o.unitPrice,
            available,
            unavailable_reason: available
              ? null
              : lifecycle.status === 'retired'
                ? lifecycleSentence(lifecycle)
                : this.unavailableReason(o),
            lifecycle: publicLifecycle(this.offerLifecycle(o)),
          };
        });
        return {
          model: model.id,
          tool: model.tool,
          display_name: model.displayName,
          description: model.description,
          available: providers.some((p) => p.available),
          providers,
          lifecycle: publicLifecycle(lifecycle),
        };
      });
  }
}
