import { useQuery, useSuspenseQuery } from '@tanstack/react-query';
import { type KeyboardEvent, lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider, useForm, useWatch } from 'react-hook-form';
import type { ToolKey } from '../../../../contract/common.ts';
import type { Job } from '../../../../contract/jobs.ts';
import type { PriceCatalogEntry } from '../../../../contract/pricing.ts';
import { api } from '../../../api/client.ts';
import { Button } from '../../../components/button.tsx';
import { LoadingNote } from '../../../components/loading-note.tsx';
import { MODEL_NOT_ENABLED } from '../../../format/availability.ts';
import { isAnalysis, useCreateJob } from '../../../queries/generation.ts';
import { meQueryOptions } from '../../../queries/me.ts';
import { pricingQueryOptions } from '../../../queries/pricing.ts';
import { runTimeText, useRunEstimate } from '../../../queries/run-times.ts';
import { fieldLabel } from '../../../schema-form/field-label.ts';
import type { FieldSpec, NumberSpec, ObjectSpec } from '../../../schema-form/field-spec.ts';
import { FieldGrid } from '../../../schema-form/fields/object-fields.tsx';
import type { BodyProblem } from '../../../schema-form/form-validation.ts';
import {
  type FormValues,
  fromBody,
  initialValues,
  toBody,
  withDraft,
} from '../../../schema-form/form-values.ts';
import type { JsonSchema } from '../../../schema-form/json-schema.ts';
import { lazySchemaResolver, useValidation } from '../../../schema-form/lazy-validation.ts';
import { missingRequired } from '../../../schema-form/required-fields.ts';
import { showServerFieldErrors } from '../../../schema-form/server-field-errors.ts';
import { walkSchema } from '../../../schema-form/walk-schema.ts';
import { WidgetContext, type WidgetOverride } from '../../../schema-form/widget-context.ts';
import { type Attempt, attemptFor, fingerprintOf } from './attempt-key.ts';
import { CopyRequest } from './copy-request.tsx';
import { CostBar } from './cost-bar.tsx';
import { estimateCost, estimatePipeline, routedProvider } from './cost-estimate.ts';
import { FilesPicker } from './files-picker.tsx';
import { FoldAway } from './fold-away.tsx';
import { dropPrefill, peekPrefill, readDraft, saveDraft } from './form-drafts.ts';
import { ProviderOptions } from './provider-options.tsx';
import type { SnippetLanguage } from './request-snippets.ts';
import { preloadFollowedJob } from './result-panel.tsx';
import { randomSeed, SeedField } from './seed-field.tsx';
import { StylePresets } from './style-presets.tsx';
import { UrlSourceInput } from './url-source-input.tsx';

// The voice field is the speech tool's alone: it loads with that tool's form (which waits for it behind
// the page's "Loading the form…"), not with every visit to the playground.
const VoiceField = lazy(() => import('./voice-field.tsx').then((m) => ({ default: m.VoiceField })));

// What a refused run says comes after a send, which needs the checks first: it loads with them, when the
// form is first touched.
const loadSubmitFailure = () => import('./submit-failure.tsx');
const SubmitFailure = lazy(() => loadSubmitFailure().then((m) => ({ default: m.SubmitFailure })));

export interface RunFormProps {
  tool: ToolKey;
  /** The model as sent: its id, or `<provider>:<id>` when pinned. */
  model: string;
  /** The model id without a pinned provider (drafts and presets go by it). */
  baseModel: string;
  pinned: string | null;
  entry: PriceCatalogEntry | undefined;
  inputSchema: JsonSchema;
  /** Another model's form is on its way: this one takes no input and starts nothing. */
  opening?: boolean;
  onCreated: (job: Job) => void;
  /** A preset names another model: continue there with these values. */
  onSwitchModel: (model: string, body: Record<string, unknown>) => void;
}

/** Fields the page draws apart from the generated ones: the model picker and the two option groups. */
const SET_APART = new Set(['model', 'provider_options', 'options']);
const DRAFT_DELAY_MS = 400;

function groupOf(spec: ObjectSpec, key: string): ObjectSpec | null {
  const field = spec.fields.find((f) => f.key === key);
  return field?.kind === 'object' ? field : null;
}

/** The number field `seed` of one provider's options, if the model has one there. */
function seedOf(providers: ObjectSpec | null, provider: string | null): NumberSpec | null {
  const group = providers?.fields.find((f) => f.key === provider);
  const seed = group?.kind === 'object' ? group.fields.find((f) => f.key === 'seed') : undefined;
  return seed?.kind === 'number' ? seed : null;
}

function mergeBodies(base: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    const bothObjects =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object';
    out[key] =
      bothObjects && !Array.isArray(current)
        ? mergeBodies(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}

/**
 * The run form of one tool and model, generated from the model's input schema: values kept as a
 * draft in this browser, the price before sending, and a submission that never pays twice (one
 * Idempotency-Key per attempt, reused for its retries and for a double click).
 */
export function RunForm(props: RunFormProps) {
  const {
    tool,
    model,
    baseModel,
    pinned,
    entry,
    inputSchema,
    opening = false,
    onCreated,
    onSwitchModel,
  } = props;
  const spec = useMemo(() => walkSchema(inputSchema), [inputSchema]);
  // The checks load on the form's first focus or press (see lazy-validation.ts); the resolver waits for them.
  const [validation, loadChecks] = useValidation();
  // So does what shows the outcome of a run: the followed job, or why it was refused.
  const firstTouch = useCallback(() => {
    loadChecks();
    preloadFollowedJob();
    void loadSubmitFailure();
  }, [loadChecks]);
  const check = useMemo(() => {
    if (!validation) return null;
    const validator = validation.zodFromSchema(inputSchema);
    return (body: unknown) => validation.validateBody(validator, body);
  }, [validation, inputSchema]);
  // The picked model wins over any `model` a prefill or draft carried; it is sent first, for reading.
  const toRequest = useCallback(
    (values: FormValues) => {
      const { model: _carried, ...body } = toBody(values, spec);
      return { model, ...body };
    },
    [model, spec],
  );
  const resolver = useMemo(() => lazySchemaResolver(inputSchema, toRequest), [inputSchema, toRequest]);
  // Values waiting for this form (a rerun with changes) win over its draft, once.
  const [prefilled] = useState(() => peekPrefill(tool, model) !== null);
  const [defaultValues] = useState(() => {
    const prefill = peekPrefill(tool, model);
    return prefill ? fromBody(prefill, spec) : withDraft(initialValues(spec), readDraft(tool, baseModel));
  });
  useEffect(() => dropPrefill(tool, model), [tool, model]);
  const form = useForm<FormValues, unknown, Record<string, unknown>>({
    defaultValues,
    resolver,
    mode: 'onTouched',
    reValidateMode: 'onChange',
  });

  useDraftSaving(form, tool, baseModel, prefilled);

  const create = useCreateJob();
  const attempt = useRef<Attempt | null>(null);
  const inFlight = useRef(false);
  // Read by `send` (Ctrl/Cmd+Enter calls it directly, past the disabled fieldset).
  const openingRef = useRef(opening);
  openingRef.current = opening;
  const [failure, setFailure] = useState<unknown>(null);
  const [varyEachRun, setVaryEachRun] = useState(true);

  const send = async (body: Record<string, unknown>) => {
    // The second click of a double click arrives while the first is on its way: it is the same run.
    if (inFlight.current || openingRef.current) return;
    inFlight.current = true;
    const request = { tool, body };
    const current = attemptFor(attempt.current, fingerprintOf(request), Date.now());
    attempt.current = current;
    setFailure(null);
    try {
      const job = await create.mutateAsync({ request, idempotencyKey: current.key });
      attempt.current = { ...current, phase: 'succeeded', at: Date.now() };
      // The next run gets a new take; this one's seed stays in its request. Drawn after a run, not
      // before: a retry of a failed send must carry the same body (and key) so it is never paid twice.
      if (seedName && varyEachRun) form.setValue(seedName, randomSeed(), { shouldDirty: true });
      onCreated(job);
    } catch (error) {
      attempt.current = { ...current, phase: 'failed', at: Date.now() };
      showServerFieldErrors(form.setError, error, (field) => {
        const top = field.split('.')[0] ?? '';
        return top !== 'model' && spec.fields.some((f) => f.key === top) ? field : null;
      });
      setFailure(error);
    } finally {
      inFlight.current = false;
    }
  };

  // A refusal is about the values that were sent: once they change, it no longer describes the form.
  useEffect(() => {
    if (failure === null) return;
    const subscription = form.watch(() => setFailure(null));
    return () => subscription.unsubscribe();
  }, [failure, form]);

  const submit = form.handleSubmit(send);

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Enter') return;
    if (event.metaKey || event.ctrlKey) {
      event.preventDefault();
      void submit();
    } else if (event.target instanceof HTMLInputElement) {
      // Enter in a one-line field must not start a paid run; Ctrl/Cmd+Enter does that.
      event.preventDefault();
    }
  }

  function applyFragment(fragment: Record<string, unknown>) {
    const { model: fragmentModel, ...rest } = fragment;
    const merged = mergeBodies(toBody(form.getValues(), spec), rest);
    if (typeof fragmentModel === 'string' && fragmentModel !== model && fragmentModel !== baseModel) {
      onSwitchModel(fragmentModel, merged);
      return;
    }
    const next = fromBody(merged, spec);
    for (const key of Object.keys(rest)) {
      form.setValue(key, next[key], { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    }
  }

  const override: WidgetOverride = ({ spec: field, name }) => {
    // The seed is drawn in view, beside Run (see SeedField), not again inside the provider's options.
    if (name === seedName) return null;
    if (field.kind === 'files') return <FilesPicker spec={field} name={name} />;
    if (field.kind === 'url' && name !== 'options.webhook_url')
      return <UrlSourceInput spec={field} name={name} />;
    if (tool === 'speech' && name === 'voice' && field.kind === 'text') {
      return <VoiceField spec={field} name={name} tool={tool} model={baseModel} onPreset={applyFragment} />;
    }
    return undefined;
  };

  const main: ObjectSpec = { ...spec, fields: spec.fields.filter((f: FieldSpec) => !SET_APART.has(f.key)) };
  const providerSpec = groupOf(spec, 'provider_options');
  const optionsSpec = groupOf(spec, 'options');
  const routed = entry ? (routedProvider(entry, pinned)?.provider ?? null) : null;
  const seedSpec = seedOf(providerSpec, routed);
  const seedName = seedSpec ? `provider_options.${routed}.seed` : null;
  const analysis = isAnalysis({ tool, body: { model } });

  const snippet = (language: SnippetLanguage) =>
    language.build({
      baseUrl: api().baseUrl,
      tool,
      analysis,
      body: toRequest(form.getValues()),
      idempotencyKey: crypto.randomUUID(),
    });

  return (
    <FormProvider {...form}>
      <WidgetContext.Provider value={override}>
        <form
          noValidate
          aria-label="Run"
          aria-busy={opening || undefined}
          onSubmit={submit}
          onKeyDown={onKeyDown}
          onFocus={firstTouch}
          onPointerDown={firstTouch}
        >
          {/* A field that takes focus (Tab, or the first in error) scrolls clear of the sticky Run bar below. */}
          <fieldset
            disabled={opening}
            className="flex min-w-0 flex-col gap-6 disabled:opacity-60 [&_:where(input,textarea,select)]:scroll-mb-64"
          >
            <StylePresets tool={tool} model={baseModel} onPreset={applyFragment} />
            <FieldGrid spec={main} name="" />
            {seedSpec && seedName && (
              <SeedField
                name={seedName}
                spec={seedSpec}
                varyEachRun={varyEachRun}
                onVaryEachRunChange={setVaryEachRun}
              />
            )}
            {(providerSpec || optionsSpec) && (
              <div className="flex flex-col gap-2">
                {providerSpec && <ProviderOptions spec={providerSpec} routed={routed} />}
                {optionsSpec && (
                  <FoldAway title="Job options" name="options" note="webhook, result cache">
                    <FieldGrid spec={optionsSpec} name="options" />
                  </FoldAway>
                )}
              </div>
            )}
            {opening && <LoadingNote>Opening the model you picked…</LoadingNote>}
            {/* The Run bar stays in view at the bottom of the form column, however long the form. */}
            <div
              data-testid="run-bar"
              className="sticky bottom-0 z-20 -mx-2 flex flex-col gap-3 rounded-t-xl border-t border-zinc-200 bg-zinc-50/95 px-2 pt-4 pb-3 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/95"
            >
              <LiveCost
                entry={entry}
                pinned={pinned}
                toRequest={toRequest}
                check={check ?? ((body) => missingRequired(inputSchema, body as Record<string, unknown>))}
              />
              <div className="flex flex-wrap items-center justify-between gap-3">
                <div className="flex items-center gap-3">
                  <Button
                    type="submit"
                    pending={create.isPending}
                    disabled={!routed}
                    aria-describedby="run-shortcut"
                  >
                    {create.isPending ? 'Starting…' : 'Run'}
                  </Button>
                  <span id="run-shortcut" className="text-xs text-zinc-600 dark:text-zinc-400">
                    or <kbd className="font-sans">Ctrl</kbd>/<kbd className="font-sans">⌘</kbd>+
                    <kbd className="font-sans">Enter</kbd>
                  </span>
                </div>
                <CopyRequest snippet={snippet} />
              </div>
              {failure !== null && (
                <Suspense fallback={null}>
                  <SubmitFailure
                    error={failure}
                    onRetry={() => void submit()}
                    labelOf={(field) => fieldLabel(spec, field)}
                    onUseModel={(next) => onSwitchModel(next, toBody(form.getValues(), spec))}
                  />
                </Suspense>
              )}
            </div>
          </fieldset>
        </form>
      </WidgetContext.Provider>
    </FormProvider>
  );
}

/** Saves the values as a draft shortly after each change, and once more when the form goes away. */
function useDraftSaving(
  form: ReturnType<typeof useForm<FormValues, unknown, Record<string, unknown>>>,
  tool: ToolKey,
  model: string,
  saveNow: boolean,
) {
  useEffect(() => {
    if (saveNow) saveDraft(tool, model, form.getValues());
    let timer: number | undefined;
    const subscription = form.watch((values) => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => saveDraft(tool, model, values as FormValues), DRAFT_DELAY_MS);
    });
    return () => {
      window.clearTimeout(timer);
      subscription.unsubscribe();
      saveDraft(tool, model, form.getValues());
    };
  }, [form, tool, model, saveNow]);
}

/**
 * The estimate follows the form as it is typed in; kept apart so typing re-renders only this. A body
 * the schema refuses has no price (a duration of 99999999 is not a run), so it says why instead.
 */
function LiveCost({
  entry,
  pinned,
  toRequest,
  check,
}: {
  entry: PriceCatalogEntry | undefined;
  pinned: string | null;
  toRequest: (values: FormValues) => Record<string, unknown>;
  /** The schema's checks, once loaded; until then, whether the required fields are there. */
  check: (body: unknown) => BodyProblem[];
}) {
  const values = useWatch() as FormValues;
  const { data: me } = useSuspenseQuery(meQueryOptions());
  const body = toRequest(values);
  const problems = check(body);
  const catalog = useQuery(pricingQueryOptions()).data?.data;
  // One rule everywhere: a pipeline is estimated as the sum of its steps, as the server estimates it.
  const estimate =
    !entry || problems.length > 0
      ? null
      : entry.tool === 'pipeline'
        ? estimatePipeline(catalog ?? [], body)
        : estimateCost(entry, pinned, body);
  // How long it will take, by the rule the job's own estimate follows (run-times.ts), for the length asked.
  const asked = typeof body.duration === 'number' && body.duration > 0 ? body.duration : null;
  const run = useRunEstimate(
    estimate && 'provider' in estimate ? entry?.model : undefined,
    estimate && 'provider' in estimate ? estimate.provider.provider : undefined,
    asked,
  );
  // Why there is no price, in the user's words (the API's reason is for operators: format/availability.ts).
  const reason = entry?.providers.some((p) => !p.available && (!pinned || p.provider === pinned))
    ? MODEL_NOT_ENABLED
    : null;
  return (
    <CostBar
      estimate={estimate}
      runTime={run ? runTimeText(run) : null}
      balance={me.balance_cents}
      unavailableReason={reason ?? null}
      invalid={problems.length > 0 ? problems : null}
    />
  );
}
