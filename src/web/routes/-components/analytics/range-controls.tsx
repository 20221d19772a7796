import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/button.tsx';
import { FIELD_SELECT, LabelledField } from '../../../components/labelled-field.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { LOCAL_DATE } from '../../../format/date-time.ts';
import type { AnalyticsSearch, AnalyticsView } from './analytics-search.ts';
import { COMPARE_LABELS, COMPARE_MODES, type CompareMode, resolveComparison } from './comparison.ts';
import {
  customRangeProblem,
  PRESET_LABELS,
  RANGE_PRESETS,
  type RangePreset,
  type ResolvedRange,
  resolveRange,
} from './date-range.ts';
import { formatDays } from './format.ts';

interface RangeControlsProps {
  view: AnalyticsView;
  onChange: (patch: Partial<AnalyticsSearch>) => void;
}

/** Range (preset or custom days), timezone and comparison; every choice goes to the URL. */
export function RangeControls({ view, onChange }: RangeControlsProps) {
  const range = { from: view.from, to: view.to, lastDay: view.lastDay, days: view.days };
  return (
    <div className="flex flex-col gap-3">
      <div className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)_minmax(0,2fr)]">
        <LabelledField label="Range">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={view.preset}
              onChange={(e) => {
                const preset = e.target.value as RangePreset;
                // Custom starts from the days on screen, so switching to it changes nothing until edited.
                onChange(
                  preset === 'custom'
                    ? { range: preset, from: view.from, to: view.lastDay }
                    : { range: preset, from: undefined, to: undefined },
                );
              }}
            >
              {RANGE_PRESETS.map((preset) => (
                <option key={preset} value={preset}>
                  {preset === 'custom'
                    ? `${PRESET_LABELS[preset]}…`
                    : `${PRESET_LABELS[preset]} · ${daysText(resolveRange(preset, view.timezone, view.now))}`}
                </option>
              ))}
            </select>
          )}
        </LabelledField>
        <TimeZoneSelect value={view.timezone} onChange={(tz) => onChange({ tz })} />
        <LabelledField label="Compare with">
          {(id) => (
            <select
              id={id}
              className={FIELD_SELECT}
              value={view.compareMode}
              onChange={(e) => {
                const mode = e.target.value as CompareMode;
                // Custom starts from the days compared now; the other modes forget custom days.
                onChange(
                  mode === 'custom'
                    ? { compare: mode, cfrom: view.comparison?.from, cto: view.comparison?.lastDay }
                    : { compare: mode === 'previous' ? undefined : mode, cfrom: undefined, cto: undefined },
                );
              }}
            >
              {COMPARE_MODES.map((mode) => {
                const days =
                  mode === 'custom' || mode === 'off' ? null : resolveComparison(mode, view.preset, range);
                return (
                  <option key={mode} value={mode}>
                    {days
                      ? `${COMPARE_LABELS[mode]} · ${daysText(days)}`
                      : `${COMPARE_LABELS[mode]}${mode === 'custom' ? '…' : ''}`}
                  </option>
                );
              })}
            </select>
          )}
        </LabelledField>
      </div>
      {view.preset === 'custom' && (
        <DayRange
          words={RANGE_WORDS}
          from={view.from}
          lastDay={view.lastDay}
          onApply={(from, to) => onChange({ range: 'custom', from, to })}
        />
      )}
      {view.compareMode === 'custom' && view.comparison && (
        <DayRange
          words={COMPARISON_WORDS}
          from={view.comparison.from}
          lastDay={view.comparison.lastDay}
          onApply={(cfrom, cto) => onChange({ compare: 'custom', cfrom, cto })}
        />
      )}
      <p className="text-sm text-zinc-600 dark:text-zinc-400" aria-live="polite">
        {daysText(range)} in {view.timezone}
        {view.comparison && <>, compared with {daysText(view.comparison)}</>}
      </p>
    </div>
  );
}

/** "Oct 1, 2026 – Oct 31, 2026 (31 days)": what a range covers, both ends included. */
function daysText(range: ResolvedRange): string {
  return `${formatDays(range.from, range.lastDay)} (${range.days} ${range.days === 1 ? 'day' : 'days'})`;
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

/** The words of a form of days: its name, its fields' labels and its button. */
interface DayRangeWords {
  name: string;
  first: string;
  last: string;
  apply: string;
}
const RANGE_WORDS: DayRangeWords = {
  name: 'Custom range',
  first: 'First day',
  last: 'Last day',
  apply: 'Apply range',
};
const COMPARISON_WORDS: DayRangeWords = {
  name: 'Days compared',
  first: 'First day compared',
  last: 'Last day compared',
  apply: 'Apply comparison',
};

interface DayRangeProps {
  words: DayRangeWords;
  from: string;
  lastDay: string;
  onApply: (from: string, to: string) => void;
}

/** First and last day (both inclusive), applied together so a half-edited range asks for nothing. */
function DayRange({ words, from, lastDay, onApply }: DayRangeProps) {
  const form = useForm({ resolver: zodResolver(CustomRangeSchema), defaultValues: { from, to: lastDay } });
  useEffect(() => {
    form.reset({ from, to: lastDay });
  }, [form, from, lastDay]);
  const { errors } = form.formState;
  return (
    <form
      noValidate
      aria-label={words.name}
      className="flex flex-wrap items-start gap-3"
      onSubmit={form.handleSubmit((values) => onApply(values.from, values.to))}
    >
      <TextField label={words.first} type="date" error={errors.from?.message} {...form.register('from')} />
      <TextField label={words.last} type="date" error={errors.to?.message} {...form.register('to')} />
      <Button type="submit" variant="secondary" className="mt-7">
        {words.apply}
      </Button>
    </form>
  );
}
