import type { ModelLifecycle, PriceCatalogEntry } from '../../../../contract/pricing.ts';

/** A retired model: kept in the catalog for old jobs, never offered in the picker. */
export function isRetired(entry: { lifecycle?: ModelLifecycle | undefined }): boolean {
  return entry.lifecycle?.status === 'retired';
}

/** "Retiring on 2027-01-06 · use eleven-v3" for a deprecated model, "Retired on …" for a retired one. */
export function lifecycleNote(entry: Pick<PriceCatalogEntry, 'lifecycle'>): string | null {
  const lifecycle = entry.lifecycle;
  if (!lifecycle || lifecycle.status === 'active') return null;
  const instead = lifecycle.replacement ? ` · use ${lifecycle.replacement}` : '';
  return lifecycle.status === 'deprecated'
    ? `Retiring on ${lifecycle.retires_on ?? 'a date to be announced'}${instead}`
    : `Retired on ${lifecycle.retired_on ?? 'an earlier date'}${instead}`;
}
