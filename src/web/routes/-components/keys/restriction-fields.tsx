import { useId } from 'react';
import { useFormContext } from 'react-hook-form';
import { TOOL_KEYS } from '../../../../contract/common.ts';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import type { RestrictionValues } from './key-restrictions-form.ts';

const CHECKBOX =
  'mt-0.5 size-4 shrink-0 rounded border-zinc-300 accent-zinc-900 dark:border-zinc-600 dark:accent-zinc-100';

/**
 * The restriction fields of the create and edit forms (inside a FormProvider whose values hold
 * `restrictions`). Empty means "no restriction"; the server checks models against its catalog.
 */
export function RestrictionFields() {
  const id = useId();
  const { register, formState } = useFormContext<{ restrictions: RestrictionValues }>();
  const errors = formState.errors.restrictions;
  const ipsHint = `${id}-ips-hint`;
  const ipsError = `${id}-ips-error`;
  return (
    <div className="flex flex-col gap-5">
      <TextField
        label="Expires"
        type="datetime-local"
        hint="Empty: never. The Keys page warns a week before."
        error={errors?.expires_at?.message}
        {...register('restrictions.expires_at')}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium text-zinc-800 dark:text-zinc-200">Tools</legend>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">None ticked: every tool.</p>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {TOOL_KEYS.map((tool) => (
            <label key={tool} className="flex items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
              <input
                type="checkbox"
                value={tool}
                className={CHECKBOX}
                {...register('restrictions.allowed_tools')}
              />
              {tool}
            </label>
          ))}
        </div>
      </fieldset>
      <TextField
        label="Models"
        autoComplete="off"
        placeholder="local-sketch, flux-schnell"
        hint="Model ids, separated by commas. Empty: every model. A key limited to models must name one in each request."
        error={errors?.allowed_models?.message}
        {...register('restrictions.allowed_models')}
      />
      <div className="flex flex-col gap-1.5">
        <label htmlFor={`${id}-ips`} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Allowed addresses
        </label>
        <textarea
          id={`${id}-ips`}
          rows={3}
          spellCheck={false}
          placeholder={'203.0.113.0/24\n2001:db8::/32'}
          aria-invalid={errors?.allowed_ips ? true : undefined}
          aria-describedby={errors?.allowed_ips ? `${ipsHint} ${ipsError}` : ipsHint}
          className="w-full rounded-lg border border-zinc-300 bg-white px-3 py-2 font-mono text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus-visible:outline-2 aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-500"
          {...register('restrictions.allowed_ips')}
        />
        <p id={ipsHint} className="text-xs text-zinc-600 dark:text-zinc-400">
          IPv4 or IPv6 addresses or CIDRs, one a line. Empty: from anywhere.
        </p>
        {errors?.allowed_ips && (
          <p id={ipsError} className="text-xs font-medium text-red-700 dark:text-red-400">
            {errors.allowed_ips.message}
          </p>
        )}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Requests a minute"
          inputMode="numeric"
          autoComplete="off"
          hint="Empty: no limit of its own."
          error={errors?.rate_limit_per_minute?.message}
          {...register('restrictions.rate_limit_per_minute')}
        />
        <TextField
          label="Jobs at once"
          inputMode="numeric"
          autoComplete="off"
          hint="Queued or running. Empty: no cap."
          error={errors?.max_concurrent_jobs?.message}
          {...register('restrictions.max_concurrent_jobs')}
        />
        <TextField
          label="Spend limit (credits)"
          inputMode="numeric"
          autoComplete="off"
          hint="A job that would pass it is refused until the period resets. Empty: no limit."
          error={errors?.spend_limit_credits?.message}
          {...register('restrictions.spend_limit_credits')}
        />
        <LabelledField label="Spend limit per">
          {(fieldId) => (
            <select id={fieldId} className={FIELD_SELECT} {...register('restrictions.spend_limit_period')}>
              <option value="day">Day</option>
              <option value="week">Week (from Monday)</option>
              <option value="month">Month (from the 1st)</option>
            </select>
          )}
        </LabelledField>
      </div>
      <label className="flex gap-3 text-sm">
        <input type="checkbox" className={CHECKBOX} {...register('restrictions.read_only')} />
        <span>
          <span className="font-medium text-zinc-800 dark:text-zinc-200">Read-only</span>
          <span className="block text-zinc-600 dark:text-zinc-400">
            May read jobs, files and analytics, but create and change nothing.
          </span>
        </span>
      </label>
    </div>
  );
}
