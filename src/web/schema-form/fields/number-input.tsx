import { useEffect, useState } from 'react';
import { useController } from 'react-hook-form';
import { hintOf, placeholderOf } from '../field-hints.ts';
import type { NumberSpec } from '../field-spec.ts';
import { FieldShell, useFieldIds } from './field-shell.tsx';
import { inputClasses } from './input-classes.ts';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Typed text → the form's value: a number when it is one, the text itself when not (validation names it). */
export function parseNumber(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return NUMBER.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * A number. The text is kept as typed ("1.", "-") while the form holds the number, so typing is never
 * fought; bounds from the schema show as the hint.
 */
export function NumberInput({ spec, name }: { spec: NumberSpec; name: string }) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const external = field.value === undefined || field.value === null ? '' : String(field.value);
  const [text, setText] = useState(external);

  // A reset or a restored draft replaces the value: show it, unless it is what the text already says.
  useEffect(() => {
    setText((current) => (Object.is(parseNumber(current), field.value ?? undefined) ? current : external));
  }, [external, field.value]);

  return (
    <FieldShell ids={ids} label={spec.label} required={spec.required} hint={hint} error={error}>
      <div className="relative">
        <input
          ref={field.ref}
          id={ids.id}
          name={field.name}
          type="text"
          inputMode={spec.integer ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={text}
          placeholder={placeholderOf(spec)}
          onChange={(event) => {
            setText(event.target.value);
            field.onChange(parseNumber(event.target.value));
          }}
          onBlur={field.onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={ids.describedBy}
          aria-required={spec.required || undefined}
          className={inputClasses(Boolean(error), spec.unit ? 'h-10 pr-14' : 'h-10')}
        />
        {spec.unit && (
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 right-3 flex items-center text-sm text-zinc-500 dark:text-zinc-400"
          >
            seconds
          </span>
        )}
      </div>
    </FieldShell>
  );
}
