import { useId } from 'react';
import { useFormContext } from 'react-hook-form';
import type { NumberSpec } from '../../../schema-form/field-spec.ts';
import { NumberInput } from '../../../schema-form/fields/number-input.tsx';

/** The largest seed the engines take (32 bits). */
const MAX_SEED = 4_294_967_295;

/** A random seed for the next run, from the browser's random source. */
export function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

interface SeedFieldProps {
  /** The seed's path in the form, for example `provider_options.local.seed`. */
  name: string;
  spec: NumberSpec;
  /** Whether the form puts a new seed in after each run. */
  varyEachRun: boolean;
  onVaryEachRunChange: (vary: boolean) => void;
}

/**
 * The seed of the model's provider, in view rather than folded away in its options: the same seed
 * repeats a picture (and is served from the result cache), another gives another take. "Vary" draws a
 * new one now; with "New seed after each run" on (the default) the form draws one after each run, so
 * running again gives something new while the seed a run used stays readable in its request.
 */
export function SeedField({ name, spec, varyEachRun, onVaryEachRunChange }: SeedFieldProps) {
  const form = useFormContext();
  const checkbox = useId();
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div className="w-48">
        <NumberInput spec={{ ...spec, label: 'Seed', maximum: spec.maximum ?? MAX_SEED }} name={name} />
      </div>
      <button
        type="button"
        onClick={() => form.setValue(name, randomSeed(), { shouldDirty: true })}
        className="h-10 rounded-md border border-zinc-300 px-3 text-sm font-medium hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        Vary
      </button>
      <label htmlFor={checkbox} className="flex h-10 items-center gap-2 text-sm">
        <input
          id={checkbox}
          type="checkbox"
          checked={varyEachRun}
          onChange={(event) => onVaryEachRunChange(event.target.checked)}
        />
        New seed after each run
      </label>
    </div>
  );
}
