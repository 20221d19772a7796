import { useController } from 'react-hook-form';
import { hintOf } from '../field-hints.ts';
import type { JsonSpec } from '../field-spec.ts';
import { FieldShell, useFieldIds } from './field-shell.tsx';
import { inputClasses } from './input-classes.ts';

/** Free-form values (records, untyped schemas) are written as JSON. */
export function JsonInput({ spec, name }: { spec: JsonSpec; name: string }) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec) ?? (spec.expects === 'object' ? 'A JSON object.' : 'A JSON value.');
  const ids = useFieldIds(hint, error);
  const value =
    typeof field.value === 'string'
      ? field.value
      : field.value === undefined
        ? ''
        : JSON.stringify(field.value);
  return (
    <FieldShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className="sm:col-span-2"
    >
      <textarea
        ref={field.ref}
        id={ids.id}
        name={field.name}
        value={value}
        rows={4}
        spellCheck={false}
        placeholder={spec.expects === 'object' ? '{ }' : undefined}
        onChange={(event) => field.onChange(event.target.value)}
        onBlur={field.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        className={inputClasses(Boolean(error), 'resize-y py-2 font-mono text-xs')}
      />
    </FieldShell>
  );
}
