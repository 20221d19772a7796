import { useFormContext, useWatch } from 'react-hook-form';
import type { UnionSpec } from '../field-spec.ts';
import { variantOf, variantValue } from '../form-values.ts';
import { humanize } from '../json-schema.ts';
import { FieldShell, useFieldIds } from './field-shell.tsx';
import { inputClasses } from './input-classes.ts';
import { childName, FieldGrid } from './object-fields.tsx';

const TAG_LABELS: Record<string, string> = { op: 'Operation', type: 'Type', kind: 'Kind' };

/** One of several object shapes told apart by a tag: pick the shape, then fill in its fields. */
export function UnionField({ spec, name }: { spec: UnionSpec; name: string }) {
  const { setValue, getValues } = useFormContext();
  const tagName = childName(name, spec.discriminator);
  useWatch({ name: tagName });
  const variant = variantOf(spec, getValues(name));
  const hint = variant?.description;
  const ids = useFieldIds(hint, undefined);
  const index = variant ? spec.variants.indexOf(variant) : -1;

  return (
    <div className="flex flex-col gap-4 sm:col-span-2">
      <FieldShell
        ids={ids}
        label={
          spec.label
            ? `${spec.label}: ${TAG_LABELS[spec.discriminator] ?? humanize(spec.discriminator)}`
            : (TAG_LABELS[spec.discriminator] ?? humanize(spec.discriminator))
        }
        required
        hint={hint}
        error={undefined}
      >
        <select
          id={ids.id}
          value={String(index)}
          aria-describedby={ids.describedBy}
          onChange={(event) => {
            const next = spec.variants[Number(event.target.value)];
            // A new shape starts clean: fields of the old one mean nothing to it.
            if (next) setValue(name, variantValue(spec, next), { shouldDirty: true });
          }}
          className={inputClasses(false, 'h-10')}
        >
          {spec.variants.map((v, i) => (
            <option key={String(v.value)} value={String(i)}>
              {v.label}
            </option>
          ))}
        </select>
      </FieldShell>
      {variant && <FieldGrid key={String(variant.value)} spec={variant.spec} name={name} />}
    </div>
  );
}
