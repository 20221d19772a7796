import { useMemo, useRef, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { Job } from '../../../../contract/jobs.ts';
import type { Template } from '../../../../contract/templates.ts';
import { Button } from '../../../components/button.tsx';
import { useRenderTemplate } from '../../../queries/templates.ts';
import { fieldLabel } from '../../../schema-form/field-label.ts';
import { FieldGrid } from '../../../schema-form/fields/object-fields.tsx';
import { schemaResolver, zodFromSchema } from '../../../schema-form/form-validation.ts';
import { type FormValues, initialValues, toBody } from '../../../schema-form/form-values.ts';
import { showServerFieldErrors } from '../../../schema-form/server-field-errors.ts';
import { walkSchema } from '../../../schema-form/walk-schema.ts';
import { WidgetContext, type WidgetOverride } from '../../../schema-form/widget-context.ts';
import { type Attempt, attemptFor, fingerprintOf } from '../playground/attempt-key.ts';
import { SubmitFailure } from '../playground/submit-failure.tsx';
import { UrlSourceInput } from '../playground/url-source-input.tsx';
import { variablesSchema, variableValuesOf } from './variable-schema.ts';

const mediaOverride: WidgetOverride = ({ spec, name }) =>
  spec.kind === 'url' ? <UrlSourceInput spec={spec} name={name} /> : undefined;

/**
 * The template's variables as a generated form; Render sends them as one attempt (one Idempotency-Key,
 * reused for a retry or a double click, so a render is never paid twice) and hands the job on.
 */
export function RenderForm({ template, onCreated }: { template: Template; onCreated: (job: Job) => void }) {
  const schema = useMemo(() => variablesSchema(template.variables), [template.variables]);
  const spec = useMemo(() => walkSchema(schema), [schema]);
  const resolver = useMemo(
    () => schemaResolver(zodFromSchema(schema), (values: FormValues) => toBody(values, spec)),
    [schema, spec],
  );
  const form = useForm<FormValues, unknown, Record<string, unknown>>({
    defaultValues: initialValues(spec),
    resolver,
    mode: 'onTouched',
  });
  const render = useRenderTemplate();
  const attempt = useRef<Attempt | null>(null);
  // Set at once (state is not): the second click of a double click arrives before React re-renders.
  const inFlight = useRef(false);
  const [failure, setFailure] = useState<unknown>(null);

  const send = async (body: Record<string, unknown>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    const variables = variableValuesOf(body);
    const current = attemptFor(attempt.current, fingerprintOf({ id: template.id, variables }), Date.now());
    attempt.current = current;
    setFailure(null);
    try {
      const job = await render.mutateAsync({ id: template.id, variables, idempotencyKey: current.key });
      attempt.current = { ...current, phase: 'succeeded', at: Date.now() };
      onCreated(job);
    } catch (error) {
      attempt.current = { ...current, phase: 'failed', at: Date.now() };
      showServerFieldErrors(form.setError, error, (field) => {
        const name = field.replace(/^variables\./, '');
        return spec.fields.some((f) => f.key === name) ? name : null;
      });
      setFailure(error);
    } finally {
      inFlight.current = false;
    }
  };

  const submit = form.handleSubmit(send);

  return (
    <FormProvider {...form}>
      <WidgetContext.Provider value={mediaOverride}>
        <form
          noValidate
          aria-label={`Render ${template.name}`}
          onSubmit={submit}
          className="flex flex-col gap-5"
        >
          {spec.fields.length > 0 ? (
            <FieldGrid spec={spec} name="" />
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">This template has nothing to fill in.</p>
          )}
          <div className="flex flex-col gap-3">
            <div>
              <Button type="submit" pending={render.isPending}>
                {render.isPending ? 'Starting…' : 'Render'}
              </Button>
            </div>
            {failure !== null && (
              <SubmitFailure
                error={failure}
                onRetry={() => void submit()}
                labelOf={(field) => fieldLabel(spec, field.replace(/^variables\./, ''))}
              />
            )}
          </div>
        </form>
      </WidgetContext.Provider>
    </FormProvider>
  );
}
