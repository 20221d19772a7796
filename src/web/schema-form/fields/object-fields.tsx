import { hintOf } from '../field-hints.ts';
import type { ObjectSpec } from '../field-spec.ts';
import { FieldsetShell, useFieldIds } from './field-shell.tsx';
import { useGroupError } from './group-error.ts';
import { SchemaField } from './schema-field.tsx';

export function childName(parent: string, key: string | number): string {
  return parent ? `${parent}.${key}` : String(key);
}

/** The fields of an object, laid out two to a row where they fit (long ones take the row). */
export function FieldGrid({ spec, name }: { spec: ObjectSpec; name: string }) {
  const fields = spec.fields.filter((field) => field.kind !== 'const');
  if (fields.length === 0) {
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing to set here.</p>;
  }
  return (
    <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
      {fields.map((field) => (
        <SchemaField key={field.key} spec={field} name={childName(name, field.key)} />
      ))}
    </div>
  );
}

/** A nested object: a titled group of its fields. */
export function ObjectFields({ spec, name }: { spec: ObjectSpec; name: string }) {
  const error = useGroupError(name);
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
  return (
    <FieldsetShell
      ids={ids}
      label={spec.label}
      required={spec.required}
      hint={hint}
      error={error}
      className="rounded-xl border border-zinc-200 p-4 sm:col-span-2 dark:border-zinc-800"
    >
      <FieldGrid spec={spec} name={name} />
    </FieldsetShell>
  );
}
