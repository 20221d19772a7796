import type { ToolKey } from '../../../../contract/common.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';

/** The tab the playground opens on. */
export const DEFAULT_TOOL: ToolKey = 'image';

/** A model as sent: `flux-dev`, or pinned to a provider: `fal:flux-dev` (spec 4.1). */
export interface ModelRef {
  model: string;
  provider: string | null;
}

/** Splits a pinned model id. A model id itself never has a colon before its first slash. */
export function parseModelRef(value: string, catalog: readonly PriceCatalogEntry[]): ModelRef {
  const at = value.indexOf(':');
  if (at > 0) {
    const provider = value.slice(0, at);
    const model = value.slice(at + 1);
    const entry = catalog.find((e) => e.model === model);
    if (entry?.providers.some((p) => p.provider === provider)) return { model, provider };
  }
  return { model: value, provider: null };
}

export function formatModelRef(ref: ModelRef): string {
  return ref.provider ? `${ref.provider}:${ref.model}` : ref.model;
}

export function modelsOf(tool: ToolKey, catalog: readonly PriceCatalogEntry[]): PriceCatalogEntry[] {
  return catalog.filter((entry) => entry.tool === tool);
}

/**
 * The model the playground opens with: the one asked for (URL), else the last one used with this
 * tool, else the first that can run here, else the first listed.
 */
export function chooseModel(
  tool: ToolKey,
  requested: string | undefined,
  remembered: string | null,
  catalog: readonly PriceCatalogEntry[],
): string | null {
  const models = modelsOf(tool, catalog);
  const known = (value: string | null | undefined) =>
    value && models.some((entry) => entry.model === parseModelRef(value, catalog).model) ? value : null;
  return (
    known(requested) ??
    known(remembered) ??
    models.find((e) => e.available)?.model ??
    models[0]?.model ??
    null
  );
}
