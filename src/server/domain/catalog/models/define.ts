import type { ToolKey } from '../../../../contract/common.ts';
import type { JsonSchema, Lifecycle, ModelDefinition, ProviderOffer } from '../types.ts';

/** A catalog entry in one line per model: id, tool, name, description, offers, then the rest. */
export function model(
  id: string,
  tool: ToolKey,
  displayName: string,
  description: string,
  offers: ProviderOffer[],
  extra: Partial<Omit<ModelDefinition, 'id' | 'tool' | 'displayName' | 'description' | 'offers'>> = {},
): ModelDefinition {
  return { id, tool, displayName, description, offers, ...extra };
}

/** `files` must hold between `min` and `max` inputs (edits, upscales, start frames, lipsync pairs). */
export function needsFiles(min: number, max = 10): JsonSchema {
  return { type: 'array', items: {}, minItems: min, maxItems: max };
}

/** Durations (seconds) a video or music model accepts. */
export function durations(...seconds: number[]): JsonSchema {
  return { enum: seconds, description: `Seconds: ${seconds.join(', ')}.` };
}

export function durationRange(minimum: number, maximum: number): JsonSchema {
  return { type: 'number', minimum, maximum, description: `Seconds, ${minimum} to ${maximum}.` };
}

export function aspectRatios(...ratios: string[]): JsonSchema {
  return { enum: ratios, description: `Aspect ratios: ${ratios.join(', ')}.` };
}

export function textLength(maximum: number): JsonSchema {
  return {
    type: 'string',
    minLength: 1,
    maxLength: maximum,
    description: `1 to ${maximum} characters for this model.`,
  };
}

/** A text field of `minimum` to `maximum` characters for this model. */
export function textRange(minimum: number, maximum: number): JsonSchema {
  return {
    type: 'string',
    minLength: minimum,
    maxLength: maximum,
    description: `${minimum} to ${maximum} characters for this model.`,
  };
}

/** Announced for shutdown on `retiresOn` (ISO day); runs until then, and is retired from that day. */
export function deprecated(retiresOn: string, replacement?: string, note?: string): Lifecycle {
  return {
    status: 'deprecated',
    retiresOn,
    ...(replacement ? { replacement } : {}),
    ...(note ? { note } : {}),
  };
}

/** No longer served upstream since `retiredOn` (ISO day): kept for old jobs, never routed to. */
export function retired(retiredOn: string, replacement?: string, note?: string): Lifecycle {
  return { status: 'retired', retiredOn, ...(replacement ? { replacement } : {}), ...(note ? { note } : {}) };
}

/** The same offer with a lifecycle. */
export function withLifecycle(offer: ProviderOffer, lifecycle: Lifecycle): ProviderOffer {
  return { ...offer, lifecycle };
}
