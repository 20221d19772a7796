import { useFieldArray, useFormContext } from 'react-hook-form';
import { Button } from '../../components/button.tsx';
import { hintOf, singular } from '../field-hints.ts';
import type { ArraySpec, FieldSpec } from '../field-spec.ts';
import { initialValue } from '../form-values.ts';
import { FieldsetShell, useFieldIds } from './field-shell.tsx';
import { useGroupError } from './group-error.ts';
import { childName, FieldGrid } from './object-fields.tsx';
import { SchemaField } from './schema-field.tsx';
import { UnionField } from './union-field.tsx';

function ItemBody({ item, name }: { item: FieldSpec; name: string }) {
  if (item.kind === 'union') return <UnionField spec={item} name={name} />;
  if (item.kind === 'object') return <FieldGrid spec={item} name={name} />;
  return <SchemaField spec={item} name={name} />;
}

/**
 * A list: rows added, removed and reordered (order matters for operations and layers), with the
 * schema's item limits as the hint and on the add button.
 */
export function ArrayField({ spec, name }: { spec: ArraySpec; name: string }) {
  const { control } = useFormContext();
  const { fields, append, remove, move } = useFieldArray({ control, name });
  const error = useGroupError(name);
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  const one = singular(spec.label);
  const full = spec.maxItems !== undefined && fields.length >= spec.maxItems;

  return (
    <FieldsetShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className="sm:col-span-2"
    >
      {fields.length > 0 && (
        <ol className="flex flex-col gap-3">
          {fields.map((row, index) => {
            const rowLabel = `${one} ${index + 1}`;
            return (
              <li
                key={row.id}
                aria-label={rowLabel}
                className="rounded-xl border border-zinc-200 bg-zinc-50/60 p-4 dark:border-zinc-800 dark:bg-zinc-900/40"
              >
                <div className="mb-3 flex items-center justify-between gap-2">
                  <span className="text-xs font-semibold tracking-wide text-zinc-500 uppercase dark:text-zinc-400">
                    {rowLabel}
                  </span>
                  <span className="flex gap-1">
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={index === 0}
                      onClick={() => move(index, index - 1)}
                      aria-label={`Move ${rowLabel} up`}
                    >
                      ↑
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      disabled={index === fields.length - 1}
                      onClick={() => move(index, index + 1)}
                      aria-label={`Move ${rowLabel} down`}
                    >
                      ↓
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => remove(index)}
                      aria-label={`Remove ${rowLabel}`}
                    >
                      Remove
                    </Button>
                  </span>
                </div>
                <ItemBody item={spec.item} name={childName(name, index)} />
              </li>
            );
          })}
        </ol>
      )}
      <div>
        <Button variant="secondary" size="sm" disabled={full} onClick={() => append(newRow(spec.item))}>
          Add {one.toLowerCase()}
        </Button>
      </div>
    </FieldsetShell>
  );
}

/** Rows are objects (the walker writes lists of plain values as JSON), as useFieldArray needs. */
function newRow(item: FieldSpec): Record<string, unknown> {
  const value = initialValue(item);
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
