import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsPerformanceRow } from '../../contract/analytics-performance.ts';
import { api } from '../api/client.ts';
import { formatDuration } from '../format/duration.ts';
import { teamScoped } from '../team/current-team.ts';

/*
 * How each model has done here lately ("usually 18–25 s here · 4% failed"), for the playground's model
 * picker: one request to the performance endpoint for every model, not one per model.
 */

/** The window the figures cover: recent enough to follow a provider's changes, long enough to have runs. */
export const MEASURED_DAYS = 7;
/** Fewer finished runs (completed or failed) than this, and a model shows no figures: a few runs mislead. */
export const MIN_FINISHED_RUNS = 5;

export interface MeasuredModel {
  /** The provider whose runs these are (the model's busiest here). */
  provider: string;
  /** Total time, median and 90th percentile, of completed runs. */
  p50_ms: number;
  p90_ms: number;
  failure_rate: number | null;
  finished: number;
}

/** Per model, the figures of its busiest provider here, when it has finished enough runs. */
export function measuredModels(rows: readonly AnalyticsPerformanceRow[]): Map<string, MeasuredModel> {
  const measured = new Map<string, MeasuredModel>();
  // Percentiles of two providers cannot be merged: the busiest one speaks for the model.
  const busiest = [...rows].sort((a, b) => b.completed + b.failed - (a.completed + a.failed));
  for (const row of busiest) {
    const finished = row.completed + row.failed;
    if (measured.has(row.model) || finished < MIN_FINISHED_RUNS || !row.total) continue;
    measured.set(row.model, {
      provider: row.provider,
      p50_ms: row.total.p50_ms,
      p90_ms: row.total.p90_ms,
      failure_rate: row.failure_rate,
      finished,
    });
  }
  return measured;
}

/** "usually 18–25 s here", "usually 4.2 s here", "usually 1 min 05 s–2 min 10 s here". */
export function typicalTimeText(p50Ms: number, p90Ms: number): string {
  const low = formatDuration(p50Ms);
  const high = formatDuration(p90Ms);
  if (low === high) return `usually ${low} here`;
  // Both in seconds: the unit once.
  if (/^[\d.]+ s$/.test(low) && /^[\d.]+ s$/.test(high)) return `usually ${low.slice(0, -2)}–${high} here`;
  return `usually ${low}–${high} here`;
}

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/** "usually 18–25 s here · 4% failed": what the picker says of a model. */
export function measuredText(measured: MeasuredModel): string {
  const time = typicalTimeText(measured.p50_ms, measured.p90_ms);
  return measured.failure_rate === null ? time : `${time} · ${percent.format(measured.failure_rate)} failed`;
}

/** Rounded to the minute, so a refetch asks for the same window as the cache key says. */
function windowStart(now: number): string {
  const minute = 60_000;
  return new Date(Math.floor(now / minute) * minute - MEASURED_DAYS * 86_400_000).toISOString();
}

export function modelPerformanceQueryOptions() {
  return queryOptions({
    queryKey: teamScoped(['model-performance', MEASURED_DAYS] as const),
    queryFn: () =>
      api().getAnalyticsPerformance({ query: { from: windowStart(Date.now()), timezone: 'UTC' } }),
    select: (answer) => measuredModels(answer.data),
    // Figures move slowly; a minute of staleness keeps switching tools free.
    staleTime: 60_000,
  });
}

/**
 * The measured figures of every model, or an empty map while they load or when they cannot be read
 * (a picker without figures still works).
 */
export function useMeasuredModels(): Map<string, MeasuredModel> {
  return useQuery(modelPerformanceQueryOptions()).data ?? EMPTY;
}

const EMPTY = new Map<string, MeasuredModel>();
