import type { Lifecycle, ModelDefinition, ProviderOffer } from './types.ts';

/** Today as an ISO day (UTC), the form lifecycle dates are written in. */
export function isoDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * An entry's lifecycle as of `today`: a deprecation whose shutdown date has come is a retirement, so the
 * catalog stops routing to a model on the day the provider said it would stop serving it, without an edit.
 */
export function lifecycleOn(lifecycle: Lifecycle | undefined, today: string): Lifecycle {
  if (!lifecycle) return { status: 'active' };
  if (lifecycle.status === 'deprecated' && lifecycle.retiresOn <= today) {
    const { retiresOn, ...rest } = lifecycle;
    return { ...rest, status: 'retired', retiredOn: retiresOn };
  }
  return lifecycle;
}

export function offerLifecycle(offer: ProviderOffer, today: string): Lifecycle {
  return lifecycleOn(offer.lifecycle, today);
}

/**
 * A model's lifecycle as of `today`: its own when it has one that is not active; otherwise retired when
 * every offer is retired (the latest retirement, with its replacement), deprecated when every remaining
 * offer is deprecated (the latest shutdown date), else active.
 */
export function modelLifecycle(model: ModelDefinition, today: string): Lifecycle {
  const own = lifecycleOn(model.lifecycle, today);
  if (own.status !== 'active') return own;
  const offers = model.offers.map((o) => offerLifecycle(o, today));
  if (!offers.length) return own;
  const latest = <T extends Lifecycle>(list: T[], date: (l: T) => string) =>
    list.reduce((a, b) => (date(b) > date(a) ? b : a));
  const retired = offers.filter((l) => l.status === 'retired');
  if (retired.length === offers.length) return latest(retired, (l) => l.retiredOn);
  const open = offers.filter((l) => l.status !== 'retired');
  const deprecated = open.filter((l) => l.status === 'deprecated');
  if (deprecated.length === open.length) return latest(deprecated, (l) => l.retiresOn);
  return own;
}

/** One sentence for people: "Retired on 2026-10-23; use gpt-image-2 instead." */
export function lifecycleSentence(lifecycle: Lifecycle): string | null {
  if (lifecycle.status === 'active') return null;
  const instead = lifecycle.replacement ? `; use ${lifecycle.replacement} instead` : '';
  return lifecycle.status === 'retired'
    ? `Retired on ${lifecycle.retiredOn}${instead}.`
    : `Retiring on ${lifecycle.retiresOn}${instead}.`;
}

/** The public form of a lifecycle (contract `ModelLifecycle`). */
export function publicLifecycle(lifecycle: Lifecycle) {
  return {
    status: lifecycle.status,
    retires_on: lifecycle.status === 'deprecated' ? lifecycle.retiresOn : null,
    retired_on: lifecycle.status === 'retired' ? lifecycle.retiredOn : null,
    replacement: lifecycle.status === 'active' ? null : (lifecycle.replacement ?? null),
    note: lifecycle.status === 'active' ? null : (lifecycle.note ?? null),
  };
}

/**
 * Why a job on a retired model is refused (at creation) or failed (when it was queued before the day):
 * the day it stopped and the model to use instead, so a client can switch without reading the catalog.
 */
export function retiredModelMessage(modelId: string, lifecycle: Extract<Lifecycle, { status: 'retired' }>) {
  const instead = lifecycle.replacement ? ` Use \`${lifecycle.replacement}\` instead.` : '';
  return `Model \`${modelId}\` was retired on ${lifecycle.retiredOn}: its provider no longer serves it.${instead}`;
}
