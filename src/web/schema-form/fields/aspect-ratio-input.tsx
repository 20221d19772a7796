import { useController } from 'react-hook-form';
import { hintOf } from '../field-hints.ts';
import type { AspectRatioSpec } from '../field-spec.ts';
import { FieldsetShell, useFieldIds } from './field-shell.tsx';
import { inputClasses, SEGMENTS, segmentClasses } from './input-classes.ts';

/** Offered when the model takes any `<w>:<h>`; another ratio can be typed. */
export const COMMON_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4', '3:2', '2:3', '21:9'];

/** A small outline of the ratio, so the choice reads at a glance. */
function RatioShape({ ratio }: { ratio: string }) {
  const [w, h] = ratio.split(':').map(Number);
  if (!w || !h) return null;
  const scale = 14 / Math.max(w, h);
  return (
    <span aria-hidden="true" className="grid size-4 place-items-center">
      <span
        className="block rounded-[2px] border border-current"
        style={{ width: `${Math.max(4, w * scale)}px`, height: `${Math.max(4, h * scale)}px` }}
      />
    </span>
  );
}

/** The aspect ratio: the model's allowed ratios (or common ones and a free field) as a segmented choice. */
export function AspectRatioInput({ spec, name }: { spec: AspectRatioSpec; name: string }) {
  const { field, fieldState } = useController({ name });
  const error = fieldState.error?.message;
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const value = typeof field.value === 'string' ? field.value : '';
  const ratios = spec.choices ?? COMMON_RATIOS;
  const options = [...(spec.required ? [] : ['']), ...ratios];
  // react-hook-form focuses a field in error through its ref: the typed ratio when that is what was given,
  // else the chosen ratio (a radio group is entered at its checked radio).
  const typed = spec.choices === null && value !== '' && !ratios.includes(value);
  const focusIndex = Math.max(0, options.indexOf(value));

  return (
    <FieldsetShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className="sm:col-span-2"
    >
      <div className="flex flex-wrap items-center gap-2">
        <div className={SEGMENTS}>
          {options.map((ratio, index) => {
            const checked = ratio === '' ? value === '' : value === ratio;
            return (
              <label
                key={ratio || 'default'}
                className={`${segmentClasses(checked)} flex items-center gap-1.5`}
              >
                <input
                  ref={!typed && index === focusIndex ? field.ref : undefined}
                  type="radio"
                  name={field.name}
                  checked={checked}
                  onChange={() => field.onChange(ratio === '' ? undefined : ratio)}
                  onBlur={field.onBlur}
                  className="sr-only"
                />
                {ratio === '' ? 'Default' : <RatioShape ratio={ratio} />}
                {ratio}
              </label>
            );
          })}
        </div>
        {spec.choices === null && (
          <input
            ref={typed ? field.ref : undefined}
            type="text"
            aria-label={`${spec.label}, another ratio`}
            placeholder="Other, e.g. 5:4"
            value={ratios.includes(value) ? '' : value}
            onChange={(event) => field.onChange(event.target.value === '' ? undefined : event.target.value)}
            onBlur={field.onBlur}
            aria-invalid={error ? true : undefined}
            className={inputClasses(Boolean(error), 'h-9 w-36')}
          />
        )}
      </div>
    </FieldsetShell>
  );
}
