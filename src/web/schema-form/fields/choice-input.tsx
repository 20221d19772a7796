import { useController } from 'react-hook-form';
import { isHexColour } from '../../format/colour-name.ts';
import { hintOf } from '../field-hints.ts';
import type { ChoiceOption, ChoiceSpec } from '../field-spec.ts';
import { FieldShell, FieldsetShell, useFieldIds } from './field-shell.tsx';
import { inputClasses, SEGMENTS, segmentClasses } from './input-classes.ts';

/** Few short options read best side by side; more go in a list box. */
const MAX_SEGMENTS = 5;
const MAX_SEGMENT_LABEL = 12;

function optionLabel(option: ChoiceOption, unit: string | undefined): string {
  return unit ? `${option.label} ${unit}` : option.label;
}

function defaultLabel(spec: ChoiceSpec): string {
  return spec.defaultValue === undefined
    ? 'Default'
    : `Default (${optionLabel({ value: spec.defaultValue, label: String(spec.defaultValue) }, spec.unit)})`;
}

/** An `enum` (or `anyOf` of consts): segmented buttons or a select; optional ones offer "Default". */
export function ChoiceInput({ spec, name }: { spec: ChoiceSpec; name: string }) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const selected = spec.options.findIndex((o) => Object.is(o.value, field.value));
  const segmented =
    spec.options.length <= MAX_SEGMENTS &&
    spec.options.every((o) => optionLabel(o, spec.unit).length <= MAX_SEGMENT_LABEL);

  if (segmented) {
    const choices = [
      ...(spec.required ? [] : [{ key: 'default', label: defaultLabel(spec), value: undefined as unknown }]),
      ...spec.options.map((o, i) => ({ key: String(i), label: optionLabel(o, spec.unit), value: o.value })),
    ];
    const isChecked = (choice: (typeof choices)[number]) =>
      choice.value === undefined ? selected === -1 : Object.is(choice.value, field.value);
    // Focus (react-hook-form's, on an error) enters the group at its checked radio, as the keyboard does.
    const entered = choices.find(isChecked) ?? choices[0];
    return (
      <FieldsetShell ids={ids} label={spec.label} required={spec.required} hint={hint} error={error}>
        <div className={SEGMENTS}>
          {choices.map((choice) => {
            const checked = isChecked(choice);
            return (
              <label key={choice.key} className={segmentClasses(checked)}>
                <input
                  ref={choice === entered ? field.ref : undefined}
                  type="radio"
                  name={field.name}
                  checked={checked}
                  onChange={() => field.onChange(choice.value)}
                  onBlur={field.onBlur}
                  className="sr-only"
                />
                {isHexColour(choice.value) && <Swatch colour={choice.value} />}
                {choice.label}
              </label>
            );
          })}
        </div>
      </FieldsetShell>
    );
  }

  return (
    <FieldShell ids={ids} label={spec.label} required={spec.required} hint={hint} error={error}>
      <select
        ref={field.ref}
        id={ids.id}
        name={field.name}
        value={selected === -1 ? '' : String(selected)}
        onChange={(event) =>
          field.onChange(
            event.target.value === '' ? undefined : spec.options[Number(event.target.value)]?.value,
          )
        }
        onBlur={field.onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        aria-required={spec.required || undefined}
        className={inputClasses(Boolean(error), 'h-10')}
      >
        <option value="" disabled={spec.required}>
          {spec.required ? 'Choose…' : defaultLabel(spec)}
        </option>
        {spec.options.map((option, index) => (
          <option key={String(index)} value={String(index)}>
            {optionLabel(option, spec.unit)}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/** The colour of a colour choice, beside its name (the code on hover). */
function Swatch({ colour }: { colour: string }) {
  return (
    <span
      aria-hidden="true"
      title={colour}
      style={{ backgroundColor: colour }}
      className="mr-1.5 inline-block size-3.5 shrink-0 rounded-full border border-zinc-300 align-[-2px] dark:border-zinc-600"
    />
  );
}
