import {
  addDays,
  customRangeProblem,
  type RangePreset,
  type ResolvedRange,
  shiftMonths,
  span,
} from './date-range.ts';

/*
 * The period a view is compared with, as plain days in the view's timezone. The page always sends it
 * to the API as explicit `compare_from`/`compare_to`, so the dates on screen, in exports and in the
 * request are one and the same (the API's own `previous_period` is the equal-length period right
 * before, which puts "last quarter" a day early: Jul 1–Sep 30 against Mar 31–Jun 30).
 */

export const COMPARE_MODES = ['previous', 'year', 'custom', 'off'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];

export const COMPARE_LABELS: Record<CompareMode, string> = {
  previous: 'The period before',
  year: 'The same period last year',
  custom: 'Custom days',
  off: 'No comparison',
};

/** The same days a year earlier (Feb 29 becomes Feb 28). */
function yearBefore(range: ResolvedRange): ResolvedRange {
  return span(shiftMonths(range.from, -12), addDays(shiftMonths(range.lastDay, -12), 1));
}

/**
 * "The period before" for a preset: the calendar period before a calendar one (last quarter for this
 * quarter, whatever their lengths), the same days of the month before for month to date, the same
 * months a year earlier for 12 months to date, and the same number of days right before otherwise.
 */
export function periodBefore(preset: RangePreset, range: ResolvedRange): ResolvedRange {
  switch (preset) {
    case 'mtd':
      return span(shiftMonths(range.from, -1), addDays(shiftMonths(range.lastDay, -1), 1));
    case 'this_month':
    case 'last_month':
      return span(shiftMonths(range.from, -1), range.from);
    case 'this_quarter':
    case 'last_quarter':
      return span(shiftMonths(range.from, -3), range.from);
    case 'this_year':
    case 'last_year':
      return span(shiftMonths(range.from, -12), range.from);
    case '12m':
      return yearBefore(range);
    default:
      return span(addDays(range.from, -range.days), range.from);
  }
}

/**
 * The comparison period of a view, or null without one. A custom comparison (both days inclusive) that
 * cannot be asked for falls back to the period before, as a bad custom range falls back to 30 days.
 */
export function resolveComparison(
  mode: CompareMode,
  preset: RangePreset,
  range: ResolvedRange,
  custom: { from?: string | undefined; to?: string | undefined } = {},
): ResolvedRange | null {
  switch (mode) {
    case 'off':
      return null;
    case 'year':
      return yearBefore(range);
    case 'custom':
      if (custom.from && custom.to && !customRangeProblem(custom.from, custom.to)) {
        return span(custom.from, addDays(custom.to, 1));
      }
      return periodBefore(preset, range);
    default:
      return periodBefore(preset, range);
  }
}
