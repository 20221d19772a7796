import type { ToolKey } from '../../../../contract/common.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { TOOL_KEYS } from '../../../../contract/values.ts';
import { Badge } from '../../../components/badge.tsx';
import { NOT_ENABLED } from '../../../format/availability.ts';
import { formatCreditsAndDollars } from '../../../format/credits.ts';
import { formatUnitPrice } from '../../../format/price.ts';
import { toolLabel } from '../../../format/tool-label.ts';

interface PriceCatalogProps {
  catalog: readonly PriceCatalogEntry[];
  /** Show one tool only. */
  tool: ToolKey | undefined;
}

/** The public price catalog, one table per tool: each model with every provider that can run it. */
export function PriceCatalog({ catalog, tool }: PriceCatalogProps) {
  const tools = TOOL_KEYS.filter((key) => (tool ? key === tool : true));
  const groups = tools
    .map((key) => ({ tool: key, entries: catalog.filter((entry) => entry.tool === key) }))
    .filter((group) => group.entries.length > 0);

  return (
    <section aria-labelledby="catalog-heading" className="mt-10">
      <h2 id="catalog-heading" className="text-base font-semibold">
        Models and prices
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        1 credit = 1 cent. Prices are per unit; the typical request is an estimate. Read only for now.
      </p>
      {groups.length === 0 && (
        <p className="mt-6 text-sm text-zinc-600 dark:text-zinc-400">
          This server lists no models for this tool.
        </p>
      )}
      {groups.map((group) => (
        <ToolPrices key={group.tool} tool={group.tool} entries={group.entries} />
      ))}
    </section>
  );
}

// Not a DataTable: fixed column widths line the tools' tables up, and a model spans several rows (`ModelRows`).
function ToolPrices({ tool, entries }: { tool: ToolKey; entries: readonly PriceCatalogEntry[] }) {
  const headingId = `catalog-${tool}`;
  return (
    <div className="mt-6">
      <h3 id={headingId} className="mb-2 text-sm font-semibold text-zinc-800 dark:text-zinc-200">
        {toolLabel(tool)}{' '}
        <span className="font-normal text-zinc-500 dark:text-zinc-400">· {entries.length}</span>
      </h3>
      <div className="relative overflow-x-auto rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <table aria-labelledby={headingId} className="w-full min-w-[44rem] table-fixed text-left text-sm">
          {/* Fixed widths, so the tables of all tools line up. */}
          <colgroup>
            <col className="w-[24%]" />
            <col className="w-[22%]" />
            <col className="w-[16%]" />
            <col className="w-[14%]" />
            <col className="w-[24%]" />
          </colgroup>
          <thead className="border-b border-zinc-200 text-xs text-zinc-500 dark:border-zinc-800 dark:text-zinc-400">
            <tr>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Model
              </th>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Provider
              </th>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Price
              </th>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Typical request
              </th>
              <th scope="col" className="px-4 py-2.5 font-medium">
                Availability
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
            {entries.map((entry) => (
              <ModelRows key={entry.model} entry={entry} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ModelRows({ entry }: { entry: PriceCatalogEntry }) {
  const model = (
    <th scope="row" rowSpan={Math.max(1, entry.providers.length)} className="px-4 py-3 align-top font-normal">
      <span className="block font-medium text-zinc-900 dark:text-zinc-100">{entry.display_name}</span>
      <code className="text-xs break-all text-zinc-500 dark:text-zinc-400">{entry.model}</code>
    </th>
  );
  if (entry.providers.length === 0) {
    return (
      <tr>
        {model}
        <td colSpan={4} className="px-4 py-3 text-zinc-500 dark:text-zinc-400">
          No provider offers this model.
        </td>
      </tr>
    );
  }
  return entry.providers.map((provider, index) => (
    <tr key={provider.model_key}>
      {index === 0 && model}
      <td className="px-4 py-3">
        <span className="block">{provider.provider}</span>
        <code className="text-xs break-all text-zinc-500 dark:text-zinc-400">{provider.model_key}</code>
      </td>
      <td className="px-4 py-3 tabular-nums">{formatUnitPrice(provider.unit_price_cents, provider.unit)}</td>
      <td className="px-4 py-3 text-zinc-600 tabular-nums dark:text-zinc-400">
        ~{formatCreditsAndDollars(provider.user_price_estimate_cents)}
      </td>
      <td className="px-4 py-3">
        {provider.available ? (
          <Badge tone="success">Available</Badge>
        ) : (
          <Badge tone="muted">{NOT_ENABLED}</Badge>
        )}
      </td>
    </tr>
  ));
}
