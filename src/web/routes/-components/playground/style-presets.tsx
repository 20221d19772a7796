import { useQuery } from '@tanstack/react-query';
import type { ToolKey } from '../../../../contract/common.ts';
import type { Preset } from '../../../../contract/presets.ts';
import { presetFragment, presetsQueryOptions } from '../../../queries/presets.ts';

interface StylePresetsProps {
  tool: ToolKey;
  /** The model of the form (without a provider pin). */
  model: string;
  onPreset: (fragment: Record<string, unknown>) => void;
}

/**
 * The style presets of the form's model, with their preview images; drawn only when it has some. A
 * style made for another model (one names its model) is left out: applying it would change the model,
 * and a model with no styles (an upscaler) shows none.
 */
export function StylePresets({ tool, model, onPreset }: StylePresetsProps) {
  const { data } = useQuery(presetsQueryOptions({ type: 'style', tool }));
  const styles = (data?.data ?? []).filter((preset) => {
    const fragment = presetFragment(preset, tool);
    return fragment !== null && (fragment.model === undefined || fragment.model === model);
  });
  if (styles.length === 0) return null;
  return (
    <section aria-labelledby="styles-heading" className="flex flex-col gap-2">
      <h3 id="styles-heading" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
        Styles
      </h3>
      <ul className="relative flex gap-2 overflow-x-auto pb-1">
        {styles.map((preset) => (
          <li key={preset.id} className="shrink-0">
            <StyleTile preset={preset} onUse={() => onPreset(presetFragment(preset, tool) ?? {})} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function StyleTile({ preset, onUse }: { preset: Preset; onUse: () => void }) {
  return (
    <button
      type="button"
      onClick={onUse}
      title={preset.description}
      aria-label={`Apply style ${preset.name}`}
      className="flex w-28 flex-col overflow-hidden rounded-lg border border-zinc-200 text-left hover:border-zinc-400 dark:border-zinc-700 dark:hover:border-zinc-500"
    >
      <span className="grid aspect-square w-full place-items-center bg-zinc-100 text-xs text-zinc-500 dark:bg-zinc-800">
        {preset.preview_url ? (
          <img src={preset.preview_url} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          'No preview'
        )}
      </span>
      <span className="truncate px-2 py-1 text-xs font-medium">{preset.name}</span>
    </button>
  );
}
