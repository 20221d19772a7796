import { useState } from 'react';
import { useController } from 'react-hook-form';
import { Button } from '../../../components/button.tsx';
import { hintOf } from '../../../schema-form/field-hints.ts';
import type { UrlSpec } from '../../../schema-form/field-spec.ts';
import { FieldShell, useFieldIds } from '../../../schema-form/fields/field-shell.tsx';
import { inputClasses } from '../../../schema-form/fields/input-classes.ts';
import { LazyOutputPicker } from './lazy-output-picker.tsx';
import { UploadControl } from './upload-control.tsx';

const KIND_BY_KEY: Record<string, 'video' | 'audio' | 'image'> = { video_url: 'video', audio_url: 'audio' };

/** A media input by URL (`video_url`, `audio_url`, a layer's `url`): typed, picked from outputs or uploaded. */
export function UrlSourceInput({ spec, name }: { spec: UrlSpec; name: string }) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const [picking, setPicking] = useState(false);
  const value = typeof field.value === 'string' ? field.value : '';

  return (
    <FieldShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className="sm:col-span-2"
    >
      <UploadControl onUploaded={(url) => field.onChange(url)}>
        <div className="flex gap-2">
          <input
            ref={field.ref}
            id={ids.id}
            name={field.name}
            type="url"
            inputMode="url"
            spellCheck={false}
            placeholder="https://… (a public URL)"
            value={value}
            onChange={(event) => field.onChange(event.target.value)}
            onBlur={field.onBlur}
            aria-invalid={error ? true : undefined}
            aria-describedby={ids.describedBy}
            aria-required={spec.required || undefined}
            className={inputClasses(Boolean(error), 'h-10')}
          />
          <Button
            variant="secondary"
            className="whitespace-nowrap"
            aria-expanded={picking}
            onClick={() => setPicking(!picking)}
          >
            From your files
          </Button>
        </div>
        {picking && (
          <LazyOutputPicker
            initialKind={KIND_BY_KEY[spec.key] ?? 'all'}
            onPick={(url) => {
              field.onChange(url);
              setPicking(false);
            }}
          />
        )}
      </UploadControl>
    </FieldShell>
  );
}
