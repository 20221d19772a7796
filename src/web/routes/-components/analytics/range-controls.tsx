import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/button.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { LOCAL_DATE } from '../../../format/date-time.ts';
import type { AnalyticsSearch, AnalyticsView } from './analytics-search.ts';
import { customRangeProblem, PRESET_LABELS, RANGE_PRESETS, type RangePreset } from './date-range.ts';
import { formatDays } from './format.ts';

interface RangeControlsProps {
  view: AnalyticsView;
  onChange: (patch: Partial<AnalyticsSearch>) => void;
}

/** Range (preset or custom days), timezone and comparison; every choice goes to the URL. */
export function RangeControls({ view, onChange }: RangeControlsProps) {
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-[12rem_16rem_auto]">
        <LabelledField label="Range">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={view.preset}
              onChange={(e) => {
                const range = e.target.value as RangePreset;
                // Custom starts from the days on screen, so switching to it changes nothing until edited.
                onChange(
                  range === 'custom'
                    ? { range, from: view.from, to: view.lastDay }
                    : { range, from: undefined, to: undefined },
                );
              }}
            >
              {RANGE_PRESETS.map((preset) => (
                <option key={preset} value={preset}>
                  {PRESET_LABELS[preset]}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
        <TimeZoneSelect value={view.timezone} onChange={(tz) => onChange({ tz })} />
        <label className="flex h-10 items-center gap-2 text-sm text-zinc-800 dark:text-zinc-200">
          <input
            type="checkbox"
            className="size-4 rounded border-zinc-300 accent-zinc-900 dark:accent-zinc-100"
            checked={view.compare}
            onChange={(e) => onChange({ compare: e.target.checked ? undefined : 'off' })}
          />
          Compare with the previous period
        </label>
      </div>
      {view.preset === 'custom' && (
        <CustomRange
          from={view.from}
          lastDay={view.lastDay}
          onApply={(from, to) => onChange({ range: 'custom', from, to })}
        />
      )}
      <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {formatDays(view.from, view.lastDay)} · {view.days} {view.days === 1 ? 'day' : 'days'} in{' '}
        {view.timezone}
      </p>
    </div>
  );
}

/** Every IANA zone the browser knows, the current one kept even when the list lacks it (UTC on some). */
function TimeZoneSelect({ value, onChange }: { value: string; onChange: (tz: string) => void }) {
  const zones = useMemo(() => {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    const all = new Set(['UTC', ...known]);
    all.add(value);
    return [...all].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
  }, [value]);
  return (
    <LabelledField label="Timezone">
      {(id) => (
        <select id={id} className={FIELD_SELECT} value={value} onChange={(e) => onChange(e.target.value)}>
          {zones.map((zone) => (
            <option key={zone} value={zone}>
              {zone.replaceAll('_', ' ')}
            </option>
          ))}
        </select>
      )}
    </LabelledField>
  );
}

const CustomRangeSchema = z
  .object({
    from: z.string().regex(LOCAL_DATE, 'Choose the first day.'),
    to: z.string().regex(LOCAL_DATE, 'Choose the last day.'),
  })
  .superRefine((value, ctx) => {
    const problem = customRangeProblem(value.from, value.to);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['to'] });
  });

interface CustomRangeProps {
  from: string;
  lastDay: string;
  onApply: (from: string, to: string) => void;
}

/** First and last day (both inclusive), applied together so a half-edited range asks for nothing. */
function CustomRange({ from, lastDay, onApply }: CustomRangeProps) {
  const form = useForm({ resolver: zodResolver(CustomRangeSchema), defaultValues: { from, to: lastDay } });
  useEffect(() => {
    form.reset({ from, to: lastDay });
  }, [form, from, lastDay]);
  const { errors } = form.formState;
  return (
    <form
      noValidate
      aria-label="Custom range"
      className="flex flex-wrap items-start gap-3"
      onSubmit={form.handleSubmit((values) => onApply(values.from, values.to))}
    >
      <TextField label="First day" type="date" error={errors.from?.message} {...form.register('from')} />
      <TextField label="Last day" type="date" error={errors.to?.message} {...form.register('to')} />
      <Button type="submit" variant="secondary" className="mt-7">
        Apply range
      </Button>
    </form>
  );
}
