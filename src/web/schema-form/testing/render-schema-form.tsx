import { render } from '@testing-library/react';
import { useMemo } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { vi } from 'vitest';
import { FieldGrid } from '../fields/object-fields.tsx';
import { schemaResolver, zodFromSchema } from '../form-validation.ts';
import { type FormValues, initialValues, toBody } from '../form-values.ts';
import type { JsonSchema } from '../json-schema.ts';
import { walkSchema } from '../walk-schema.ts';

function SchemaFormHarness({
  schema,
  values,
  onSend,
}: {
  schema: JsonSchema;
  values?: FormValues;
  onSend: (body: Record<string, unknown>) => void;
}) {
  const spec = useMemo(() => walkSchema(schema), [schema]);
  const form = useForm<FormValues, unknown, Record<string, unknown>>({
    defaultValues: values ?? initialValues(spec),
    resolver: schemaResolver(zodFromSchema(schema), (v) => toBody(v, spec)),
  });
  return (
    <FormProvider {...form}>
      <form noValidate onSubmit={form.handleSubmit(onSend)}>
        <FieldGrid spec={spec} name="" />
        <button type="submit">Send</button>
      </form>
    </FormProvider>
  );
}

/** A generated form as the playground draws it (without its own widgets), and the bodies it sends. */
export function renderSchemaForm(schema: JsonSchema, values?: FormValues) {
  const onSend = vi.fn<(body: Record<string, unknown>) => void>();
  const view = render(<SchemaFormHarness schema={schema} values={values} onSend={onSend} />);
  const sent = () => onSend.mock.calls.map(([body]) => body);
  return { ...view, onSend, sent };
}
