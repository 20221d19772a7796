import { type KeyboardEvent, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { cx } from '../../../components/cx.ts';
import { NOT_ENABLED, showNotEnabledLabel } from '../../../format/availability.ts';
import { formatUnitPrice } from '../../../format/price.ts';
import { isRetired, lifecycleNote } from './model-lifecycle.ts';

interface ModelListProps {
  models: readonly PriceCatalogEntry[];
  selected: PriceCatalogEntry | undefined;
  /** How each model has done here lately; models without enough runs are absent. */
  /** What to say of each model's run, by model id (ModelPicker's `figures`). */
  figures: ReadonlyMap<string, string>;
  onChoose: (entry: PriceCatalogEntry) => void;
  /** Escape: the list closes and the picker's button has the focus again. */
  onClose: () => void;
}

function matches(entry: PriceCatalogEntry, query: string): boolean {
  if (!query) return true;
  const haystack = [
    entry.display_name,
    entry.model,
    entry.description,
    ...entry.providers.map((p) => p.provider),
  ]
    .join(' ')
    .toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

/**
 * The model picker's open list (ModelPicker loads it when the picker is first pointed at, focused or
 * opened): a search box that is a combobox (type to filter, arrows to move, Enter to choose, Escape to
 * close) over each model's providers and price per unit. Only models that run on this server are listed;
 * the others (dozens, where a provider's key is not set) wait behind a toggle that counts them, and then
 * say only that they are not enabled here.
 */
export function ModelList({ models, selected, figures, onChoose, onClose }: ModelListProps) {
  const [query, setQuery] = useState('');
  // Opened on a model that cannot run here (a link named it), the list shows those too.
  const [showAll, setShowAll] = useState(() => selected !== undefined && !selected.available);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();

  // Retired models are not offered (the chosen one, if a link named it, stays visible on the button).
  const found = useMemo(
    () => models.filter((entry) => !isRetired(entry) && matches(entry, query)),
    [models, query],
  );
  const notEnabled = found.filter((entry) => !entry.available);
  // Models that can run here first; the catalog's order within each group.
  const shown = useMemo(
    () => [...found.filter((e) => e.available), ...(showAll ? found.filter((e) => !e.available) : [])],
    [found, showAll],
  );
  const [active, setActive] = useState(() =>
    Math.max(
      0,
      shown.findIndex((m) => m.model === selected?.model),
    ),
  );

  // In the commit that draws the list, not in a passive effect: after a lazy load (this list is one) React
  // runs passive effects a task after the commit (19 as 18: only a synchronous render flushes them at
  // once), and what is typed meanwhile went to the picker's button.
  useLayoutEffect(() => {
    inputRef.current?.focus();
  }, []);

  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  function choose(entry: PriceCatalogEntry | undefined) {
    if (entry) onChoose(entry);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((i) => Math.min(shown.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Home') {
      event.preventDefault();
      setActive(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      setActive(shown.length - 1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      choose(shown[active]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
    }
  }

  return (
    <>
      <div className="border-b border-zinc-200 p-2 dark:border-zinc-800">
        <input
          ref={inputRef}
          type="search"
          role="combobox"
          aria-label="Search models"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={shown[active] ? `${listId}-${active}` : undefined}
          placeholder="Search by name, id or provider"
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          className="h-9 w-full rounded-lg border border-zinc-300 bg-white px-3 text-sm dark:border-zinc-700 dark:bg-zinc-950"
        />
      </div>
      <div id={listId} role="listbox" aria-label="Models" className="max-h-96 overflow-y-auto p-1">
        {shown.length === 0 && (
          <p className="px-3 py-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
            {query
              ? `No model enabled on this server matches “${query}”.`
              : 'No model is enabled on this server.'}
          </p>
        )}
        {shown.map((entry, index) => (
          // Keyboard use goes through the search box (aria-activedescendant); options take clicks.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys.
          <div
            key={entry.model}
            id={`${listId}-${index}`}
            role="option"
            tabIndex={-1}
            aria-selected={entry.model === selected?.model}
            onPointerMove={() => setActive(index)}
            onClick={() => choose(entry)}
            className={cx(
              'cursor-pointer rounded-lg px-3 py-2',
              index === active && 'bg-zinc-100 dark:bg-zinc-800',
            )}
          >
            <ModelOption
              entry={entry}
              current={entry.model === selected?.model}
              figures={figures.get(entry.model)}
            />
          </div>
        ))}
      </div>
      {(notEnabled.length > 0 || showAll) && (
        <label className="flex items-center gap-2 border-t border-zinc-200 px-3 py-2 text-xs text-zinc-700 dark:border-zinc-800 dark:text-zinc-300">
          <input
            type="checkbox"
            checked={showAll}
            onChange={(event) => {
              setShowAll(event.target.checked);
              setActive(0);
            }}
            className="size-4 rounded border-zinc-300 dark:border-zinc-700"
          />
          {showNotEnabledLabel(notEnabled.length)}
        </label>
      )}
    </>
  );
}

function ModelOption({
  entry,
  current,
  figures,
}: {
  entry: PriceCatalogEntry;
  current: boolean;
  figures: string | undefined;
}) {
  return (
    <div className={cx('flex flex-col gap-1', !entry.available && 'opacity-80')}>
      <div className="flex items-baseline justify-between gap-2">
        <span className="text-sm font-medium">
          {entry.display_name}
          {current && <span className="sr-only"> (current)</span>}
        </span>
        <code className="truncate text-xs text-zinc-500 dark:text-zinc-400">{entry.model}</code>
      </div>
      {lifecycleNote(entry) && (
        <span className="text-xs font-medium text-amber-800 dark:text-amber-300">{lifecycleNote(entry)}</span>
      )}
      {!entry.available && <span className="text-xs text-zinc-600 dark:text-zinc-400">{NOT_ENABLED}</span>}
      {figures && <span className="text-xs text-zinc-600 dark:text-zinc-400">{figures}</span>}
      <span className="flex flex-col gap-0.5">
        {entry.providers
          // A model that runs here names the providers that run it; one that does not, every provider.
          .filter((provider) => !isRetired(provider) && (provider.available || !entry.available))
          .map((provider) => (
            <span
              key={provider.provider}
              className="flex flex-wrap items-center gap-x-2 text-xs text-zinc-600 dark:text-zinc-400"
            >
              <span className="font-medium text-zinc-700 dark:text-zinc-300">{provider.provider}</span>
              <span className="tabular-nums">
                {formatUnitPrice(provider.unit_price_cents, provider.unit)}
              </span>
              {provider.available && (
                <span className="text-emerald-700 dark:text-emerald-400">available</span>
              )}
            </span>
          ))}
      </span>
    </div>
  );
}
