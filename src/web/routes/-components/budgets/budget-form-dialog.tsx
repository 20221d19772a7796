import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { BUDGET_CREDITS_MAX, type Budget } from '../../../../contract/budgets.ts';
import { Email, HttpUrl } from '../../../../contract/common.ts';
import { Alert } from '../../../components/alert.tsx';
import { Button } from '../../../components/button.tsx';
import { errorMessage } from '../../../components/confirm-dialog.tsx';
import { fieldMessage } from '../../../components/field-message.ts';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { apiKeysQueryOptions } from '../../../queries/api-keys.ts';
import { useCreateBudget, useUpdateBudget } from '../../../queries/budgets.ts';
import { foldersQueryOptions } from '../../../queries/folders.ts';
import { teamMembersQueryOptions } from '../../../queries/team.ts';
import { scopeWords, weekdayName } from './budget-words.ts';

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((part) => part.trim())
    .filter(Boolean);

/**
 * The form's own fields as typed (text), checked with the contract's rules for each part: whole credits,
 * percentages 1–100 without repeats, addresses and an http(s) URL.
 */
export const BudgetForm = z
  .object({
    scopeType: z.enum(['team', 'member', 'folder', 'key']),
    scopeId: z.string(),
    credits: z
      .string()
      .regex(/^\d+$/, 'must be a whole number of credits')
      .refine((v) => Number(v) >= 1 && Number(v) <= BUDGET_CREDITS_MAX, 'must be at least 1 credit'),
    period: z.enum(['day', 'week', 'month']),
    weekday: z.string(),
    monthDay: z
      .string()
      .regex(/^\d+$/, 'must be a day from 1 to 28')
      .refine((v) => Number(v) >= 1 && Number(v) <= 28, 'must be a day from 1 to 28'),
    mode: z.enum(['alert', 'cap']),
    thresholds: z.string().refine((text) => {
      const values = list(text);
      return (
        values.length <= 10 &&
        values.every((v) => /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 100) &&
        new Set(values).size === values.length
      );
    }, 'must be up to 10 different percentages from 1 to 100, separated by commas'),
    emails: z
      .string()
      .refine((text) => list(text).every((e) => Email.safeParse(e).success), 'must be email addresses'),
    webhookUrl: z
      .string()
      .refine((v) => v.trim() === '' || HttpUrl.safeParse(v.trim()).success, 'must be an http(s) URL'),
  })
  .refine((v) => v.scopeType === 'team' || v.scopeId !== '', {
    path: ['scopeId'],
    message: 'Choose who or what the budget covers.',
  });
type BudgetFormValues = z.infer<typeof BudgetForm>;

function defaultsOf(budget: Budget | null): BudgetFormValues {
  return {
    scopeType: budget?.scope.type ?? 'team',
    scopeId: budget && budget.scope.type !== 'team' ? budget.scope.id : '',
    credits: String(budget?.credits ?? 1000),
    period: budget?.period ?? 'month',
    weekday: String(budget?.period === 'week' ? budget.reset_day : 1),
    monthDay: String(budget?.period === 'month' ? budget.reset_day : 1),
    mode: budget?.mode ?? 'alert',
    thresholds: (budget?.thresholds ?? [50, 80, 100]).join(', '),
    emails: (budget?.alert_emails ?? []).join(', '),
    webhookUrl: budget?.alert_webhook_url ?? '',
  };
}

/** Creates a budget, or edits one (`budget`); the scope of an existing budget stays. */
export function BudgetFormDialog({
  budget,
  teamId,
  onClose,
}: {
  budget: Budget | null;
  teamId: string;
  onClose: () => void;
}) {
  const formId = useId();
  const create = useCreateBudget();
  const update = useUpdateBudget();
  const mutation = budget ? update : create;
  const form = useForm({ resolver: zodResolver(BudgetForm), defaultValues: defaultsOf(budget) });
  const scopeType = form.watch('scopeType');
  const period = form.watch('period');
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const resetDay =
      values.period === 'week'
        ? Number(values.weekday)
        : values.period === 'month'
          ? Number(values.monthDay)
          : undefined;
    const fields = {
      credits: Number(values.credits),
      period: values.period,
      ...(resetDay !== undefined ? { reset_day: resetDay } : {}),
      mode: values.mode,
      thresholds: list(values.thresholds).map(Number),
      alert_emails: list(values.emails),
      alert_webhook_url: values.webhookUrl.trim() || null,
    };
    try {
      if (budget) await update.mutateAsync({ id: budget.id, body: fields });
      else
        await create.mutateAsync({
          scope: { type: values.scopeType, id: values.scopeType === 'team' ? teamId : values.scopeId },
          ...fields,
        });
      onClose();
    } catch {
      // Shown below from the mutation's error.
    }
  });

  return (
    <ModalDialog
      title={budget ? 'Edit budget' : 'New budget'}
      description="Periods count in the team's time zone. A cap refuses jobs that would pass it; alerts go out once per threshold per period."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} pending={mutation.isPending}>
            {budget ? 'Save' : 'Create budget'}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        {budget ? (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">Covers: {scopeWords(budget)}</p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            <LabelledField label="Covers">
              {(id) => (
                <select id={id} className={FIELD_SELECT} {...form.register('scopeType')}>
                  <option value="team">The whole team</option>
                  <option value="member">A member</option>
                  <option value="folder">A folder</option>
                  <option value="key">An API key</option>
                </select>
              )}
            </LabelledField>
            {scopeType !== 'team' && (
              <ScopeChoice
                type={scopeType}
                register={form.register('scopeId')}
                error={errors.scopeId?.message}
              />
            )}
          </div>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Credits per period"
            inputMode="numeric"
            error={fieldMessage('Credits', errors.credits?.message)}
            data-autofocus
            {...form.register('credits')}
          />
          <LabelledField label="Period">
            {(id) => (
              <select id={id} className={FIELD_SELECT} {...form.register('period')}>
                <option value="day">Day</option>
                <option value="week">Week</option>
                <option value="month">Month</option>
              </select>
            )}
          </LabelledField>
          {period === 'week' && (
            <LabelledField label="Week starts on">
              {(id) => (
                <select id={id} className={FIELD_SELECT} {...form.register('weekday')}>
                  {[1, 2, 3, 4, 5, 6, 7].map((day) => (
                    <option key={day} value={String(day)}>
                      {weekdayName(day)}
                    </option>
                  ))}
                </select>
              )}
            </LabelledField>
          )}
          {period === 'month' && (
            <TextField
              label="Month starts on day"
              hint="1 to 28"
              inputMode="numeric"
              error={fieldMessage('The day', errors.monthDay?.message)}
              {...form.register('monthDay')}
            />
          )}
        </div>
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-zinc-800 dark:text-zinc-200">At the budget</legend>
          <label className="flex items-start gap-2 text-sm text-zinc-700 dark:text-zinc-300">
            <input type="radio" value="alert" className="mt-1" {...form.register('mode')} />
            <span>Alert only: jobs keep running past it.</span>
          </label>
          <label className="flex items-start gap-2 text-sm text-zinc-700 dark:text-zinc-300">
            <input type="radio" value="cap" className="mt-1" {...form.register('mode')} />
            <span>Hard cap: jobs that would pass it are refused until it resets.</span>
          </label>
        </fieldset>
        <TextField
          label="Alert at (% of the budget)"
          hint="Comma-separated, for example 50, 80, 100. Empty: no alerts."
          error={fieldMessage('Thresholds', errors.thresholds?.message)}
          {...form.register('thresholds')}
        />
        <TextField
          label="Alert emails"
          hint="Comma-separated. Empty: the team's owners and managers."
          autoComplete="off"
          spellCheck={false}
          error={fieldMessage('Alert emails', errors.emails?.message)}
          {...form.register('emails')}
        />
        <TextField
          label="Alert webhook URL (optional)"
          hint="Receives budget.threshold_reached, signed with the team's webhook secret."
          spellCheck={false}
          error={fieldMessage('The webhook URL', errors.webhookUrl?.message)}
          {...form.register('webhookUrl')}
        />
        {mutation.error && <Alert tone="error">{errorMessage(mutation.error)}</Alert>}
      </form>
    </ModalDialog>
  );
}

/** The member, folder or key a new budget covers, chosen from the team's. */
function ScopeChoice({
  type,
  register,
  error,
}: {
  type: 'member' | 'folder' | 'key';
  register: ReturnType<ReturnType<typeof useForm<BudgetFormValues>>['register']>;
  error: string | undefined;
}) {
  const members = useQuery({ ...teamMembersQueryOptions(), enabled: type === 'member' });
  const folders = useQuery({ ...foldersQueryOptions(), enabled: type === 'folder' });
  const keys = useQuery({ ...apiKeysQueryOptions(), enabled: type === 'key' });
  const query = type === 'member' ? members : type === 'folder' ? folders : keys;
  const options =
    type === 'member'
      ? (members.data?.data ?? []).map((m) => ({ id: m.user_id, label: m.display_name || m.email }))
      : type === 'folder'
        ? (folders.data ?? []).map((f) => ({ id: f.id, label: f.name }))
        : (keys.data ?? [])
            .filter((k) => !k.revoked_at)
            .map((k) => ({ id: k.id, label: `${k.name} (…${k.last4})` }));
  const label = { member: 'Member', folder: 'Folder', key: 'API key' }[type];
  return (
    <LabelledField label={label}>
      {(id) => (
        <>
          <select
            id={id}
            className={FIELD_SELECT}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            {...register}
          >
            <option value="">{query.isPending ? 'Loading…' : `Choose a ${label.toLowerCase()}`}</option>
            {options.map((option) => (
              <option key={option.id} value={option.id}>
                {option.label}
              </option>
            ))}
          </select>
          {query.isError && (
            <span className="text-sm text-red-700 dark:text-red-400">Could not load the list.</span>
          )}
          {error && (
            <span id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
              {error}
            </span>
          )}
        </>
      )}
    </LabelledField>
  );
}
