import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { Badge } from '../../../components/badge.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { NOT_ENABLED } from '../../../format/availability.ts';
import { formatUnitPrice } from '../../../format/price.ts';
import { lifecycleNote } from './model-lifecycle.ts';

// Searching and choosing happen once the list is open: its code comes when the button is first
// pointed at or focused (the first paint shows the chosen model only).
const loadModelList = () => import('./model-list.tsx');
const ModelList = lazy(() => loadModelList().then((m) => ({ default: m.ModelList })));

interface ModelPickerProps {
  models: readonly PriceCatalogEntry[];
  selected: PriceCatalogEntry | undefined;
  onSelect: (model: string) => void;
  /** What to say of each model's run ("usually 18–25 s here · 4% failed"; useModelFigures), by model id. */
  figures?: ReadonlyMap<string, string>;
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
 * The model of the tool: a button naming it that opens a searchable list box of every model (a
 * combobox: type to filter, arrows to move, Enter to choose, Escape to close). The list's code is not
 * part of the first paint: it loads when the button is first pointed at or focused, else on opening.
 */
export function ModelPicker({ models, selected, onSelect, figures = NONE }: ModelPickerProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const selectedFigures = selected && figures.get(selected.model);
  // The module is asked for once: later calls answer the same promise.
  const preload = () => void loadModelList();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
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
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => setOpen(!open)}
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
              {lifecycleNote(selected) && ` · ${lifecycleNote(selected)}`}
            </span>
          )}
          {selectedFigures && (
            <span
              className="block truncate text-xs text-zinc-600 dark:text-zinc-400"
              data-testid="model-figures"
            >
              {selectedFigures}
            </span>
          )}
        </span>
        <span className="flex shrink-0 items-center gap-2">
          {selected && (
            <Badge tone={selected.available ? 'success' : 'muted'}>
              {selected.available ? 'Available' : NOT_ENABLED}
            </Badge>
          )}
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 text-zinc-500" fill="currentColor">
            <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.6" fill="none" />
          </svg>
        </span>
      </button>

      {open && (
        <div className="absolute z-30 mt-1 w-full min-w-[20rem] rounded-xl border border-zinc-200 bg-white shadow-lg dark:border-zinc-800 dark:bg-zinc-900">
          <Suspense fallback={<LoadingNote className="p-3">Loading the models…</LoadingNote>}>
            <ModelList
              models={models}
              selected={selected}
              figures={figures}
              onChoose={(entry) => {
                onSelect(entry.model);
                close();
              }}
              onClose={close}
            />
          </Suspense>
        </div>
      )}
    </div>
  );
}

const NONE: ReadonlyMap<string, string> = new Map();
