import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { Badge } from '../../../components/badge.tsx';
import { cx } from '../../../components/cx.ts';
import { formatUnitPrice } from '../../../format/price.ts';

interface ModelPickerProps {
  models: readonly PriceCatalogEntry[];
  selected: PriceCatalogEntry | undefined;
  onSelect: (model: string) => void;
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

/** Cheapest unit price among the providers that can run the model here (else among all). */
function priceSummary(entry: PriceCatalogEntry): string | null {
  const offers = entry.providers.some((p) => p.available)
    ? entry.providers.filter((p) => p.available)
    : entry.providers;
  const cheapest = [...offers].sort((a, b) => a.unit_price_cents - b.unit_price_cents)[0];
  return cheapest ? formatUnitPrice(cheapest.unit_price_cents, cheapest.unit) : null;
}

/**
 * The model of the tool: a searchable list box (a combobox: type to filter, arrows to move, Enter to
 * choose, Escape to close) showing each model's providers, price per unit and whether it runs here.
 */
export function ModelPicker({ models, selected, onSelect }: ModelPickerProps) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();

  const shown = useMemo(() => {
    const found = models.filter((entry) => matches(entry, query));
    // Models that can run here first; the catalog's order within each group.
    return [...found.filter((e) => e.available), ...found.filter((e) => !e.available)];
  }, [models, query]);

  useEffect(() => {
    if (!open) return;
    inputRef.current?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  useEffect(() => {
    document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  function openList() {
    setQuery('');
    const index = models.findIndex((m) => m.model === selected?.model);
    setActive(Math.max(0, index));
    setOpen(true);
  }

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  function choose(entry: PriceCatalogEntry | undefined) {
    if (!entry) return;
    onSelect(entry.model);
    close();
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
      close();
    }
  }

  return (
    <div ref={rootRef} className="relative">
      <span aria-hidden="true" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Model
      </span>
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="listbox"
        aria-expanded={open}
        onClick={() => (open ? setOpen(false) : openList())}
        className="mt-1.5 flex w-full items-center justify-between gap-3 rounded-lg border border-zinc-300 bg-white px-3 py-2 text-left shadow-sm hover:border-zinc-400 dark:border-zinc-700 dark:bg-zinc-900 dark:hover:border-zinc-600"
      >
        {/* The name is the visible text, after the label: speech input users say what they see. */}
        <span className="sr-only">Model: </span>
        <span className="min-w-0">
          <span className="block truncate text-sm font-medium">
            {selected?.display_name ?? 'Choose a model'}
          </span>
          {selected && (
            <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">
              <code>{selected.model}</code>
              {priceSummary(selected) && ` · from ${priceSummary(selected)}`}
            </span>
          )}
        </span>
        <span className="flex shrink-0 items-center gap-2">
          {selected && (
            <Badge tone={selected.available ? 'success' : 'muted'}>
              {selected.available ? 'Available' : 'Unavailable'}
            </Badge>
          )}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 text-zinc-500" fill="currentColor">
            <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.6" fill="none" />
          </svg>
        </span>
      </button>

      {open && (
        <div className="absolute z-30 mt-1 w-full min-w-[20rem] rounded-xl border border-zinc-200 bg-white shadow-lg dark:border-zinc-800 dark:bg-zinc-900">
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
                No model matches “{query}”.
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
                <ModelOption entry={entry} current={entry.model === selected?.model} />
              </div>
            ))}
          </div>
        </div>
      )}
    </div>
  );
}

function ModelOption({ entry, current }: { entry: PriceCatalogEntry; current: boolean }) {
  return (
    <div className={cx('flex flex-col gap-1', !entry.available && 'opacity-80')}>
      <div className="flex items-baseline justify-between gap-2">
        <span className="text-sm font-medium">
          {entry.display_name}
          {current && <span className="sr-only"> (current)</span>}
        </span>
        <code className="truncate text-xs text-zinc-500 dark:text-zinc-400">{entry.model}</code>
      </div>
      <span className="flex flex-col gap-0.5">
        {entry.providers.map((provider) => (
          <span
            key={provider.provider}
            className="flex flex-wrap items-center gap-x-2 text-xs text-zinc-600 dark:text-zinc-400"
          >
            <span className="font-medium text-zinc-700 dark:text-zinc-300">{provider.provider}</span>
            <span className="tabular-nums">{formatUnitPrice(provider.unit_price_cents, provider.unit)}</span>
            {provider.available ? (
              <span className="text-emerald-700 dark:text-emerald-400">available</span>
            ) : (
              <span>unavailable{provider.unavailable_reason ? `: ${provider.unavailable_reason}` : ''}</span>
            )}
          </span>
        ))}
      </span>
    </div>
  );
}
