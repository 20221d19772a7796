import { resolveBound, zoneOffsetMs } from './analytics.ts';

export const BUDGET_PERIODS = ['day', 'week', 'month'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

const DAY_MS = 86_400_000;

/** The instant of a local midnight (a wall-clock time as if UTC) in a time zone; a time in a DST gap moves forward. */
function instantOfWall(wall: number, timeZone: string): number {
  return resolveBound({ kind: 'local', wall, offsetMinutes: null }, timeZone);
}

/**
 * The calendar period of a budget that holds `now`, in `timeZone`: from a local midnight to the next
 * period's (exclusive). A week starts on `resetDay` (ISO weekday, 1 Monday … 7 Sunday), a month on the
 * `resetDay`-th (1–28, so every month has it). Counted on the wall clock, so a period across a
 * daylight-saving change is 23 or 25 hours longer or shorter, never shifted by an hour.
 */
export function budgetPeriod(
  period: BudgetPeriod,
  resetDay: number,
  timeZone: string,
  now: number,
): { start: Date; end: Date } {
  const local = new Date(now + zoneOffsetMs(now, timeZone));
  const y = local.getUTCFullYear();
  const m = local.getUTCMonth();
  const d = local.getUTCDate();
  let start: number;
  let end: number;
  if (period === 'day') {
    start = Date.UTC(y, m, d);
    end = Date.UTC(y, m, d + 1);
  } else if (period === 'week') {
    const weekday = local.getUTCDay() || 7;
    const back = (weekday - resetDay + 7) % 7;
    start = Date.UTC(y, m, d - back);
    end = Date.UTC(y, m, d - back + 7);
  } else {
    const month = d >= resetDay ? m : m - 1;
    start = Date.UTC(y, month, resetDay);
    end = Date.UTC(y, month + 1, resetDay);
  }
  return { start: new Date(instantOfWall(start, timeZone)), end: new Date(instantOfWall(end, timeZone)) };
}

/**
 * When a budget runs out at the rate it has been spent this period (spent over the time since the period
 * began): null when nothing was spent, or when at that rate it lasts past the reset. A budget already
 * used up ran out now.
 */
export function budgetForecast(
  spent: number,
  credits: number,
  start: number,
  end: number,
  now: number,
): { runs_out_at: string | null; credits_per_day: number } {
  const elapsed = Math.max(now - start, 60_000);
  const perMs = spent > 0 ? spent / elapsed : 0;
  const creditsPerDay = Math.round(perMs * DAY_MS * 100) / 100;
  if (spent >= credits) return { runs_out_at: new Date(now).toISOString(), credits_per_day: creditsPerDay };
  if (perMs === 0) return { runs_out_at: null, credits_per_day: 0 };
  const at = now + (credits - spent) / perMs;
  return {
    runs_out_at: at < end ? new Date(Math.ceil(at)).toISOString() : null,
    credits_per_day: creditsPerDay,
  };
}
