import { useId } from 'react';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { formatUnitPrice } from '../../../format/price.ts';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';

interface ProviderPinProps {
  entry: PriceCatalogEntry;
  pinned: string | null;
  onChange: (provider: string | null) => void;
}

/** Routing: the first available provider (the server's choice), or one pinned (`<provider>:<model>`). */
export function ProviderPin({ entry, pinned, onChange }: ProviderPinProps) {
  const id = useId();
  if (entry.providers.length < 2) return null;
  const first = entry.providers.find((p) => p.available);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Provider
      </label>
      <select
        id={id}
        value={pinned ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        className={inputClasses(false, 'h-10')}
      >
        <option value="">Automatic{first ? ` (now ${first.provider})` : ''}</option>
        {entry.providers.map((provider) => (
          <option key={provider.provider} value={provider.provider} disabled={!provider.available}>
            {provider.provider} · {formatUnitPrice(provider.unit_price_cents, provider.unit)}
            {provider.available ? '' : ' · not enabled on this server'}
          </option>
        ))}
      </select>
    </div>
  );
}
