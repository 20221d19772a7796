import { Link } from '@tanstack/react-router';
import type { z } from 'zod';
import type { ToolKey } from '../../../../contract/common.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import type { ToolSummary } from '../../../../contract/tools.ts';
import { toolLabel } from './tool-label.ts';

interface ToolListProps {
  tools: ReadonlyArray<z.output<typeof ToolSummary>>;
  catalog: readonly PriceCatalogEntry[];
  selected: ToolKey | undefined;
}

/** The server's tools, each a filter for the catalog below (kept in the URL as `?tool=`). */
export function ToolList({ tools, catalog, selected }: ToolListProps) {
  return (
    <section aria-labelledby="tools-heading">
      <div className="mb-3 flex items-baseline justify-between gap-4">
        <h2 id="tools-heading" className="text-base font-semibold">
          Tools
        </h2>
        {selected && (
          <Link
            to="/playground"
            search={{}}
            className="text-sm font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            Show all models
          </Link>
        )}
      </div>
      <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {tools.map((tool) => {
          const models = catalog.filter((entry) => entry.tool === tool.tool_key);
          const available = models.filter((entry) => entry.available).length;
          return (
            <li key={tool.tool_key}>
              <Link
                to="/playground"
                search={{ tool: tool.tool_key }}
                activeOptions={{ includeSearch: true }}
                className="flex h-full flex-col rounded-xl border border-zinc-200 bg-white p-4 transition-colors hover:border-zinc-300 data-[status=active]:border-zinc-900 data-[status=active]:ring-1 data-[status=active]:ring-zinc-900 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-zinc-700 dark:data-[status=active]:border-zinc-100 dark:data-[status=active]:ring-zinc-100"
              >
                <span className="text-sm font-semibold">{toolLabel(tool.tool_key)}</span>
                <span className="mt-1 line-clamp-2 text-sm text-zinc-600 dark:text-zinc-400">
                  {tool.description}
                </span>
                <span className="mt-3 text-xs text-zinc-500 dark:text-zinc-400">
                  {models.length} {models.length === 1 ? 'model' : 'models'} · {available} available here
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
