import { useController } from 'react-hook-form';
import { hintOf } from '../field-hints.ts';
import type { BooleanSpec } from '../field-spec.ts';
import { FieldNotes, FieldsetShell, useFieldIds } from './field-shell.tsx';
import { SEGMENTS, segmentClasses } from './input-classes.ts';

/**
 * A boolean. Optional ones have three states (default, on, off): a provider's default may be "on",
 * so an untouched switch must not send "off".
 */
export function BooleanInput({ spec, name }: { spec: BooleanSpec; name: string }) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);

  if (spec.required) {
    return (
      <div className="flex flex-col gap-1.5">
        <label className="flex items-center gap-2 text-sm font-medium text-zinc-800 dark:text-zinc-200">
          <input
            ref={field.ref}
            id={ids.id}
            type="checkbox"
            name={field.name}
            checked={field.value === true}
            onChange={(event) => field.onChange(event.target.checked)}
            onBlur={field.onBlur}
            aria-describedby={ids.describedBy}
            className="size-4 rounded border-zinc-300 accent-zinc-900 dark:border-zinc-600 dark:accent-zinc-100"
          />
          {spec.label}
        </label>
        <FieldNotes ids={ids} hint={hint} error={error} />
      </div>
    );
  }

  const defaultText =
    typeof spec.defaultValue === 'boolean' ? `Default (${spec.defaultValue ? 'on' : 'off'})` : 'Default';
  const choices = [
    { key: 'default', label: defaultText, value: undefined },
    { key: 'on', label: 'On', value: true },
    { key: 'off', label: 'Off', value: false },
  ];
  return (
    <FieldsetShell ids={ids} label={spec.label} required={false} hint={hint} error={error}>
      <div className={SEGMENTS}>
        {choices.map((choice) => {
          // Exactly one is checked, and focus enters the group there (react-hook-form's too, on an error).
          const checked =
            choice.value === undefined ? typeof field.value !== 'boolean' : field.value === choice.value;
          return (
            <label key={choice.key} className={segmentClasses(checked)}>
              <input
                ref={checked ? field.ref : undefined}
                type="radio"
                name={field.name}
                checked={checked}
                onChange={() => field.onChange(choice.value)}
                onBlur={field.onBlur}
                className="sr-only"
              />
              {choice.label}
            </label>
          );
        })}
      </div>
    </FieldsetShell>
  );
}
