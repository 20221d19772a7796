import { useFieldArray, useFormContext } from 'react-hook-form';
import { Button } from '../../components/button.tsx';
import { hintOf } from '../field-hints.ts';
import type { FilesSpec } from '../field-spec.ts';
import { FieldsetShell, useFieldIds } from './field-shell.tsx';
import { useGroupError } from './group-error.ts';
import { TextInput } from './text-input.tsx';

/** Input files as a list of URLs (the playground draws a richer picker over the same values). */
export function FilesInput({ spec, name }: { spec: FilesSpec; name: string }) {
  const { control } = useFormContext();
  const { fields, append, remove } = useFieldArray({ control, name });
  const error = useGroupError(name);
  const hint = hintOf(spec);
  const ids = useFieldIds(hint, error);
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
      <ol className="flex flex-col gap-2">
        {fields.map((row, index) => (
          <li key={row.id} className="flex items-end gap-2">
            <div className="min-w-0 flex-1">
              <TextInput
                spec={{
                  kind: 'url',
                  key: 'url',
                  label: `File ${index + 1}`,
                  description: undefined,
                  required: true,
                  nullable: false,
                  defaultValue: undefined,
                  examples: [],
                  maxLength: undefined,
                }}
                name={`${name}.${index}.url`}
              />
            </div>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => remove(index)}
              aria-label={`Remove file ${index + 1}`}
            >
              Remove
            </Button>
          </li>
        ))}
      </ol>
      <div>
        <Button variant="secondary" size="sm" disabled={full} onClick={() => append({ url: '' })}>
          Add a file URL
        </Button>
      </div>
    </FieldsetShell>
  );
}
