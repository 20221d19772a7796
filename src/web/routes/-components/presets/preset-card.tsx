import { Link, useNavigate } from '@tanstack/react-router';
import type { Preset } from '../../../../contract/presets.ts';
import { Badge } from '../../../components/badge.tsx';
import { Button, buttonClasses } from '../../../components/button.tsx';
import { NOT_ENABLED } from '../../../format/availability.ts';
import { presetFragment, presetSampleKind } from '../../../queries/presets.ts';
import { AudioSample } from './audio-sample.tsx';
import { presetTool, toggledPair } from './preset-search.ts';

interface PresetCardProps {
  preset: Preset;
  /** The metadata filters in force, to mark the values already picked. */
  picked: readonly string[] | undefined;
  onRename: () => void;
  onDelete: () => void;
  /** Whether it can be used on this server (undefined while the price catalog loads). */
  runsHere?: boolean | undefined;
}

/** One preset: its sample in place, what it is, its metadata (each value filters), and what to do with it. */
export function PresetCard({ preset, picked, onRename, onDelete, runsHere }: PresetCardProps) {
  const navigate = useNavigate({ from: '/presets' });
  const tool = presetTool(preset);
  const fragment = tool ? presetFragment(preset, tool) : null;
  const model = typeof fragment?.model === 'string' ? fragment.model : undefined;
  const own = preset.namespace === 'team';
  const headingId = `${preset.id}-name`;
  const sample = presetSampleKind(preset);
  return (
    <article
      aria-labelledby={headingId}
      data-preset-id={preset.id}
      className="flex flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900"
    >
      {sample === 'none' ? (
        // Said rather than left blank, and never a picture standing in for a voice's sound.
        <p className="bg-zinc-50 p-3 text-sm text-zinc-600 dark:bg-zinc-800/60 dark:text-zinc-400">
          {runsHere === false
            ? 'No sample on this server: this voice is not enabled here.'
            : preset.type === 'voice'
              ? 'No sample on this server: use it in the playground to hear it.'
              : 'No sample on this server.'}
        </p>
      ) : sample === 'image' ? (
        <img
          src={preset.preview_url}
          alt={`Sample of ${preset.name}`}
          loading="lazy"
          className="aspect-square w-full bg-zinc-100 object-cover dark:bg-zinc-800"
        />
      ) : (
        <div className="bg-zinc-50 p-3 dark:bg-zinc-800/60">
          <AudioSample url={preset.preview_url} name={preset.name} />
        </div>
      )}
      <div className="flex flex-1 flex-col gap-2 p-3">
        <div className="flex items-start justify-between gap-2">
          <h2 id={headingId} className="text-sm font-semibold text-zinc-950 dark:text-white">
            {preset.name}
          </h2>
          <span className="flex shrink-0 gap-1">
            <Badge>{preset.type}</Badge>
            {preset.status === 'deprecated' && <Badge tone="muted">deprecated</Badge>}
            {runsHere === false && <Badge tone="muted">{NOT_ENABLED}</Badge>}
          </span>
        </div>
        <p className="text-xs text-zinc-500 dark:text-zinc-400">{own ? 'My team' : preset.namespace}</p>
        {preset.description && (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{preset.description}</p>
        )}
        <ul aria-label={`Metadata of ${preset.name}`} className="flex flex-wrap gap-1">
          {Object.entries(preset.metadata).flatMap(([key, value]) =>
            (Array.isArray(value) ? value : [value]).map((v) => {
              const pair = `${key}:${v}`;
              const on = picked?.includes(pair) ?? false;
              return (
                <li key={pair}>
                  <button
                    type="button"
                    aria-pressed={on}
                    title={on ? `Stop filtering by ${pair}` : `Show only presets with ${pair}`}
                    onClick={() =>
                      void navigate({
                        search: (prev) => ({ ...prev, metadata: toggledPair(prev.metadata, pair) }),
                      })
                    }
                    className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 hover:bg-zinc-200 aria-pressed:bg-zinc-900 aria-pressed:text-white dark:bg-zinc-800 dark:text-zinc-300 dark:hover:bg-zinc-700 dark:aria-pressed:bg-zinc-100 dark:aria-pressed:text-zinc-900"
                  >
                    {key}: {v}
                  </button>
                </li>
              );
            }),
          )}
        </ul>
        <div className="mt-auto flex flex-wrap gap-2 pt-2">
          {tool && runsHere !== false && (
            <Link
              to="/playground"
              search={{ tool, preset: preset.id, ...(model ? { model } : {}) }}
              className={buttonClasses('primary', 'sm')}
            >
              {/* The name is read out but not shown: the card already shows it above. */}
              Use<span className="sr-only"> {preset.name}</span> in playground
            </Link>
          )}
          {own && (
            <>
              <Button size="sm" variant="secondary" onClick={onRename} aria-label={`Rename ${preset.name}`}>
                Rename
              </Button>
              <Button
                size="sm"
                variant="danger-ghost"
                onClick={onDelete}
                aria-label={`Delete ${preset.name}`}
              >
                Delete
              </Button>
            </>
          )}
        </div>
      </div>
    </article>
  );
}
