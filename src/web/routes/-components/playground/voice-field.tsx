import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useController } from 'react-hook-form';
import type { ToolKey } from '../../../../contract/common.ts';
import { isPresetId } from '../../../../contract/values.ts';
import { Button } from '../../../components/button.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { presetFragment, presetQueryOptions } from '../../../queries/presets.ts';
import { hintOf } from '../../../schema-form/field-hints.ts';
import type { TextSpec } from '../../../schema-form/field-spec.ts';
import { FieldShell, useFieldIds } from '../../../schema-form/fields/field-shell.tsx';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';

// Browsing voices is occasional: the list, its search and player load when first opened.
const VoiceList = lazy(() => import('./voice-list.tsx').then((m) => ({ default: m.VoiceList })));

interface VoiceFieldProps {
  spec: TextSpec;
  name: string;
  tool: ToolKey;
  model: string;
  /** Merges a preset's request fragment into the form (it may name another model). */
  onPreset: (fragment: Record<string, unknown>) => void;
}

/** The voice: typed (a voice name or preset id), or chosen from the voice presets with a sample to play. */
export function VoiceField({ spec, name, tool, model, onPreset }: VoiceFieldProps) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const [browsing, setBrowsing] = useState(false);
  const value = typeof field.value === 'string' ? field.value : '';
  // A chosen preset is sent by its id; people read its name (the id stays on hover and to copy).
  const presetId = isPresetId(value) ? value : null;
  const preset = useQuery({ ...presetQueryOptions(presetId ?? ''), enabled: presetId !== null });
  const presetName = presetId && preset.data ? preset.data.name : null;
  const [copied, setCopied] = useState(false);

  async function copyId() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <FieldShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className="sm:col-span-2"
    >
      <div className="flex gap-2">
        <input
          ref={field.ref}
          id={ids.id}
          name={field.name}
          type="text"
          value={presetName ?? value}
          readOnly={presetName !== null}
          title={presetName ? `Voice preset ${value}` : undefined}
          placeholder="A voice name, or choose a preset"
          onChange={(event) => field.onChange(event.target.value)}
          onBlur={field.onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={ids.describedBy}
          className={inputClasses(Boolean(error), 'h-10')}
        />
        {presetName && (
          <Button
            variant="ghost"
            className="whitespace-nowrap"
            onClick={() => {
              field.onChange('');
              setCopied(false);
            }}
          >
            Type a voice
          </Button>
        )}
        <Button
          variant="secondary"
          className="whitespace-nowrap"
          aria-expanded={browsing}
          onClick={() => setBrowsing(!browsing)}
        >
          Browse voices
        </Button>
      </div>
      {presetName && (
        <p className="mt-1 flex flex-wrap items-center gap-x-2 text-xs text-zinc-600 dark:text-zinc-400">
          <span>
            Preset <code className="font-mono select-all">{value}</code>
          </span>
          <button
            type="button"
            onClick={() => void copyId()}
            className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            {copied ? 'Copied the id' : 'Copy id'}
          </button>
        </p>
      )}
      {browsing && (
        <Suspense fallback={<LoadingNote>Loading voices…</LoadingNote>}>
          <VoiceList
            tool={tool}
            model={model}
            current={value}
            onChoose={(preset) => {
              const fragment = presetFragment(preset, tool);
              if (fragment) onPreset(fragment);
              setBrowsing(false);
            }}
          />
        </Suspense>
      )}
    </FieldShell>
  );
}
