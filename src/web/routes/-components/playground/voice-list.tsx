import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import type { ToolKey } from '../../../../contract/common.ts';
import type { Preset } from '../../../../contract/presets.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { cx } from '../../../components/cx.ts';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { presetFragment, presetSampleKind, presetsQueryOptions } from '../../../queries/presets.ts';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';
import { usePreviewPlayer } from './use-preview-player.ts';

/**
 * Voice presets of the tool (of this model, or of every model), searchable, each with its sample to
 * play and a button to use it.
 */
export function VoiceList({
  tool,
  model,
  current,
  onChoose,
}: {
  tool: ToolKey;
  model: string;
  current: string;
  onChoose: (preset: Preset) => void;
}) {
  const [query, setQuery] = useState('');
  const [allModels, setAllModels] = useState(false);
  const search = useDeferredValue(query.trim());
  const searchId = useId();
  const filter = {
    type: 'voice',
    tool,
    ...(search ? { q: search } : {}),
    ...(allModels ? {} : { metadata: [`model:${model}`] }),
  };
  const { data, isPending, isError, error, isPlaceholderData } = useQuery(presetsQueryOptions(filter));
  const player = usePreviewPlayer();
  const presets = data?.data ?? [];

  return (
    <div className="rounded-xl border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
      <div className="flex flex-wrap items-center gap-3">
        <label htmlFor={searchId} className="sr-only">
          Search voices
        </label>
        <input
          id={searchId}
          type="search"
          placeholder="Search voices (name, language…)"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          className={inputClasses(false, 'h-9 flex-1')}
        />
        <label className="flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
          <input
            type="checkbox"
            checked={allModels}
            onChange={(event) => setAllModels(event.target.checked)}
            className="size-4 accent-zinc-900 dark:accent-zinc-100"
          />
          Voices of every model
        </label>
        {isPlaceholderData && <Spinner className="text-zinc-500" />}
      </div>
      {isPending && <LoadingNote className="py-4">Loading voices…</LoadingNote>}
      {isError && (
        <Alert tone="error" className="mt-3">
          Could not load the voices: {error.message}
        </Alert>
      )}
      {data && presets.length === 0 && (
        <p className="py-4 text-sm text-zinc-600 dark:text-zinc-400">
          No voice preset {search ? `matches “${search}”` : 'for this model'}.
          {!allModels && ' Try the voices of every model.'}
        </p>
      )}
      {presets.length > 0 && (
        <ul
          aria-label="Voices"
          className="mt-3 max-h-80 divide-y divide-zinc-100 overflow-y-auto dark:divide-zinc-800"
        >
          {presets.map((preset) => {
            const fragment = presetFragment(preset, tool);
            const chosen = current === preset.id;
            const presetModel = typeof fragment?.model === 'string' ? fragment.model : null;
            return (
              <li key={preset.id} className={cx('flex items-center gap-3 py-2', chosen && 'font-medium')}>
                {presetSampleKind(preset) === 'audio' ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`${player.active(preset.id) ? 'Stop' : 'Play'} sample of ${preset.name}`}
                    aria-pressed={player.active(preset.id)}
                    aria-busy={player.loading === preset.id}
                    onClick={() => player.toggle(preset.id, preset.preview_url)}
                    className="w-9 shrink-0 px-0"
                  >
                    {player.loading === preset.id ? (
                      <Spinner />
                    ) : player.playing === preset.id ? (
                      <StopIcon />
                    ) : (
                      <PlayIcon />
                    )}
                  </Button>
                ) : (
                  <span className="w-9 shrink-0" />
                )}
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm">{preset.name}</span>
                  <span className="block truncate text-xs text-zinc-600 dark:text-zinc-400">
                    {[
                      metadataText(preset),
                      presetModel && presetModel !== model ? `uses ${presetModel}` : null,
                      // Said rather than left blank: no picture stands in for a voice's sound.
                      presetSampleKind(preset) === 'audio' ? null : 'no sample on this server',
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                  {player.loading === preset.id && (
                    <span role="status" className="block text-xs text-zinc-600 dark:text-zinc-400">
                      Loading the sample…
                    </span>
                  )}
                  {player.failed === preset.id && (
                    <span role="alert" className="block text-xs text-red-700 dark:text-red-400">
                      The sample could not be played.
                    </span>
                  )}
                </span>
                <Button
                  variant={chosen ? 'primary' : 'secondary'}
                  size="sm"
                  disabled={!fragment}
                  title={fragment ? undefined : 'This preset cannot be used with this tool.'}
                  onClick={() => onChoose(preset)}
                >
                  {/* The name starts with the visible word, so "click Use" finds it by voice. */}
                  {chosen ? 'Chosen' : 'Use'}
                  <span className="sr-only">{`${chosen ? ':' : ''} ${preset.name}`}</span>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function metadataText(preset: Preset): string {
  const { language, gender } = preset.metadata;
  return [language, gender]
    .map((v) => (Array.isArray(v) ? v.join(', ') : v))
    .filter(Boolean)
    .join(' · ');
}

function PlayIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="currentColor">
      <path d="M5 3.5v9l7-4.5z" />
    </svg>
  );
}

function StopIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4" fill="currentColor">
      <rect x="4" y="4" width="8" height="8" rx="1" />
    </svg>
  );
}
