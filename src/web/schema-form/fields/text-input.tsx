import { useController } from 'react-hook-form';
import { cx } from '../../components/cx.ts';
import { hintOf, placeholderOf } from '../field-hints.ts';
import type { TextSpec, UrlSpec } from '../field-spec.ts';
import { FieldShell, useFieldIds } from './field-shell.tsx';
import { inputClasses } from './input-classes.ts';

const count = new Intl.NumberFormat('en-US');

/** A string: one line, or a text area with a character counter for prompts and long text. */
export function TextInput({ spec, name }: { spec: TextSpec | UrlSpec; name: string }) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const value = typeof field.value === 'string' ? field.value : '';
  const multiline = spec.kind === 'text' && spec.multiline;
  const max = spec.maxLength;
  const over = max !== undefined && value.length > max;
  const common = {
    id: ids.id,
    name: field.name,
    value,
    onBlur: field.onBlur,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids.describedBy,
    'aria-required': spec.required || undefined,
    placeholder: placeholderOf(spec) ?? exampleOf(spec),
  };
  const counter =
    multiline && max !== undefined ? (
      <span
        className={cx(
          'text-xs tabular-nums',
          over ? 'font-medium text-red-700 dark:text-red-400' : 'text-zinc-500 dark:text-zinc-400',
        )}
      >
        {count.format(value.length)} / {count.format(max)}
        <span className="sr-only"> characters</span>
      </span>
    ) : undefined;

  return (
    <FieldShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      aside={counter}
      className={multiline ? 'sm:col-span-2' : undefined}
    >
      {multiline ? (
        <textarea
          {...common}
          ref={field.ref}
          rows={value.length > 300 ? 8 : 4}
          onChange={(event) => field.onChange(event.target.value)}
          className={inputClasses(Boolean(error), 'min-h-24 resize-y py-2')}
        />
      ) : (
        <div className="flex items-center gap-2">
          {spec.kind === 'text' && spec.color && (
            <input
              type="color"
              aria-label={`${spec.label} colour picker`}
              value={swatchColor(value, spec.defaultValue)}
              onChange={(event) => field.onChange(event.target.value)}
              className="h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-zinc-300 bg-white p-1 dark:border-zinc-700 dark:bg-zinc-900"
            />
          )}
          <input
            {...common}
            ref={field.ref}
            type={spec.kind === 'url' ? 'url' : 'text'}
            inputMode={spec.kind === 'url' ? 'url' : undefined}
            spellCheck={spec.kind === 'url' ? false : undefined}
            onChange={(event) => field.onChange(event.target.value)}
            className={inputClasses(Boolean(error), 'h-10')}
          />
        </div>
      )}
    </FieldShell>
  );
}

function exampleOf(spec: TextSpec | UrlSpec): string | undefined {
  if (spec.kind === 'url') return 'https://…';
  const example = spec.examples.find((e): e is string => typeof e === 'string');
  return example ? `For example ${example}` : undefined;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The swatch shows the colour typed, else the default the server will use. */
function swatchColor(value: string, fallback: unknown): string {
  if (HEX.test(value)) return value;
  return typeof fallback === 'string' && HEX.test(fallback) ? fallback : '#000000';
}
