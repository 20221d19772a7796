import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { useNavigatingSearch } from '../../../components/use-navigating-search.ts';
import { PresetSearch, toggledPair } from './preset-search.ts';

const TYPES = [
  { value: 'style', label: 'Image styles' },
  { value: 'voice', label: 'Voices' },
  { value: 'input', label: 'Saved inputs' },
];
const NAMESPACES = [
  { value: 'local', label: 'This server (local)' },
  { value: 'team', label: 'My team' },
  { value: 'openai', label: 'OpenAI' },
  { value: 'elevenlabs', label: 'ElevenLabs' },
];

/**
 * Type, namespace and text filters, and the metadata filters picked on the cards (removable here). They
 * follow the URL being navigated to, so a choice shows at once while the next list loads.
 */
export function PresetFilterBar() {
  const search = useNavigatingSearch(PresetSearch);
  const navigate = useNavigate({ from: '/presets' });
  const set = (patch: Partial<PresetSearch>) =>
    void navigate({ search: (prev) => ({ ...prev, ...patch }), replace: true });
  const [text, setText] = useState(search.q ?? '');
  useEffect(() => setText(search.q ?? ''), [search.q]);

  return (
    <div className="mb-6 flex flex-col gap-3">
      <form
        aria-label="Filter presets"
        className="grid gap-3 sm:grid-cols-[12rem_14rem_1fr]"
        onSubmit={(event) => {
          event.preventDefault();
          set({ q: text.trim() || undefined });
        }}
      >
        <LabelledField label="Type">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={search.preset_type ?? ''}
              onChange={(event) => set({ preset_type: event.target.value || undefined })}
            >
              <option value="">Any type</option>
              {TYPES.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
        <LabelledField label="Namespace">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={search.namespace ?? ''}
              onChange={(event) => set({ namespace: event.target.value || undefined })}
            >
              <option value="">Any namespace</option>
              {NAMESPACES.map((n) => (
                <option key={n.value} value={n.value}>
                  {n.label}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
        <LabelledField label="Search">
          {(id) => (
            <input
              id={id}
              type="search"
              value={text}
              placeholder="Name or description, then Enter"
              onChange={(event) => setText(event.target.value)}
              onBlur={() => {
                if ((text.trim() || undefined) !== search.q) set({ q: text.trim() || undefined });
              }}
              className={FIELD_SELECT}
            />
          )}
        </LabelledField>
      </form>
      {search.metadata && (
        <ul aria-label="Metadata filters" className="flex flex-wrap items-center gap-2 text-sm">
          {search.metadata.map((pair) => (
            <li key={pair}>
              <button
                type="button"
                onClick={() => set({ metadata: toggledPair(search.metadata, pair) })}
                aria-label={`Remove filter ${pair}`}
                className="rounded-full bg-zinc-900 px-3 py-1 text-xs font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-white"
              >
                {pair} ×
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              onClick={() => set({ metadata: undefined })}
              className="text-xs text-zinc-600 underline hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white"
            >
              Clear metadata filters
            </button>
          </li>
        </ul>
      )}
    </div>
  );
}
