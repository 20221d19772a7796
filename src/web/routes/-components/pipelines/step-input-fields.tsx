import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState } from 'react';
import { useFormContext } from 'react-hook-form';
import { FIELD_SELECT } from '../../../components/labelled-field.tsx';
import { LoadFailed } from '../../../components/load-failed.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { toolSchemaQueryOptions } from '../../../queries/generation.ts';
import type { FieldSpec, FilesSpec, ObjectSpec, UrlSpec } from '../../../schema-form/field-spec.ts';
import { FilesInput } from '../../../schema-form/fields/files-input.tsx';
import { FieldGrid } from '../../../schema-form/fields/object-fields.tsx';
import { TextInput } from '../../../schema-form/fields/text-input.tsx';
import { fromBody, initialValues } from '../../../schema-form/form-values.ts';
import { asSchema } from '../../../schema-form/json-schema.ts';
import { walkSchema } from '../../../schema-form/walk-schema.ts';
import { WidgetContext, type WidgetOverride } from '../../../schema-form/widget-context.ts';
import { type BuilderStep, outputReference } from './builder-steps.ts';

/** A select beside its label, as wide as its choices. */
const INLINE_SELECT = FIELD_SELECT.replace('w-full', 'w-auto min-w-0');

/** Drawn by the builder itself (model), or left to the server's defaults in a pipeline step. */
const SET_APART = new Set(['model', 'provider_options', 'options']);

interface StepInputFieldsProps {
  step: BuilderStep;
  /** Ids of the steps listed before this one: their outputs can feed its URL inputs. */
  earlier: readonly string[];
  onSpec: (spec: ObjectSpec) => void;
}

/** A step's input as the generated form of its tool and model (`GET /v2/tools/{key}?model=`). */
export function StepInputFields({ step, earlier, onSpec }: StepInputFieldsProps) {
  const schema = useQuery(toolSchemaQueryOptions(step.tool, step.model));
  const spec = useMemo(() => {
    if (!schema.data) return null;
    const whole = walkSchema(asSchema(schema.data.input_schema));
    return { ...whole, fields: whole.fields.filter((f: FieldSpec) => !SET_APART.has(f.key)) };
  }, [schema.data]);
  const form = useFormContext();
  const name = `inputs.${step.key}`;
  const [ready, setReady] = useState(false);

  // Only when the schema arrives: later edits are the person's.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per schema
  useEffect(() => {
    if (!spec) return;
    onSpec(spec);
    // A re-run starts from the step's earlier input; a new tool or model from the form's defaults.
    form.setValue(name, step.initialInput ? fromBody(step.initialInput, spec) : initialValues(spec));
    setReady(true);
  }, [spec]);

  if (schema.isError) {
    return (
      <LoadFailed
        title="The form of this tool could not be loaded."
        error={schema.error}
        onRetry={() => void schema.refetch()}
      />
    );
  }
  if (!spec || !ready) {
    return <LoadingNote>Loading the form…</LoadingNote>;
  }
  const override: WidgetOverride = ({ spec: field, name: fieldName }) => {
    if (!earlier.length) return undefined;
    if (field.kind === 'url') return <UrlFromStep spec={field} name={fieldName} earlier={earlier} />;
    if (field.kind === 'files') return <FilesFromStep spec={field} name={fieldName} earlier={earlier} />;
    return undefined;
  };
  return (
    <WidgetContext.Provider value={override}>
      <FieldGrid spec={spec} name={name} />
    </WidgetContext.Provider>
  );
}

/** A URL input that can take an earlier step's output instead of a typed address. */
function UrlFromStep({ spec, name, earlier }: { spec: UrlSpec; name: string; earlier: readonly string[] }) {
  const { setValue, watch } = useFormContext();
  const value = watch(name) as unknown;
  const picked = earlier.find((id) => value === outputReference(id)) ?? '';
  const id = useId();
  return (
    <div className="flex flex-col gap-2 sm:col-span-2">
      <TextInput spec={spec} name={name} />
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={id} className="whitespace-nowrap text-zinc-700 dark:text-zinc-300">
          or use the output of
        </label>
        <select
          id={id}
          className={INLINE_SELECT}
          value={picked}
          onChange={(e) =>
            setValue(name, e.target.value ? outputReference(e.target.value) : '', { shouldDirty: true })
          }
        >
          <option value="">no step</option>
          {earlier.map((stepId) => (
            <option key={stepId} value={stepId}>
              step {stepId}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

/** Input files, to which an earlier step's output can be added by picking it. */
function FilesFromStep({
  spec,
  name,
  earlier,
}: {
  spec: FilesSpec;
  name: string;
  earlier: readonly string[];
}) {
  const { getValues, setValue } = useFormContext();
  // Through the form, not a second field array on the same name (the two would drift apart).
  const append = (file: { url: string }) =>
    setValue(name, [...((getValues(name) as unknown[] | undefined) ?? []), file], { shouldDirty: true });
  const id = useId();
  return (
    <div className="flex flex-col gap-2 sm:col-span-2">
      <FilesInput spec={spec} name={name} />
      <div className="flex items-center gap-2 text-sm">
        <label htmlFor={id} className="whitespace-nowrap text-zinc-700 dark:text-zinc-300">
          Add the output of
        </label>
        <select
          id={id}
          className={INLINE_SELECT}
          value=""
          onChange={(e) => {
            if (e.target.value) append({ url: outputReference(e.target.value) });
          }}
        >
          <option value="">pick a step</option>
          {earlier.map((stepId) => (
            <option key={stepId} value={stepId}>
              step {stepId}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
