import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AnalyticsPerformanceRow } from '../../contract/analytics-performance.ts';
import type { RunEstimate } from '../../contract/run-times.ts';
import { api } from '../api/client.ts';
import { teamScoped } from '../team/current-team.ts';
import { runTimeText } from './run-times.ts';

/*
 * How reliable each model has been for this team lately ("4% failed"), for the playground's model picker:
 * one request to the performance endpoint for every model, not one per model. How long a run takes is
 * not read here: it is the server's one rule (run-times.ts), which a new job's estimate follows too.
 */

/** The window the figures cover: recent enough to follow a provider's changes, long enough to have runs. */
export const MEASURED_DAYS = 7;
/** Fewer finished runs (completed or failed) than this, and a model shows no figures: a few runs mislead. */
export const MIN_FINISHED_RUNS = 5;

export interface MeasuredModel {
  /** The provider whose runs these are (the model's busiest here). */
  provider: string;
  failure_rate: number | null;
  finished: number;
}

/** Per model, the figures of its busiest provider here, when it has finished enough runs. */
export function measuredModels(rows: readonly AnalyticsPerformanceRow[]): Map<string, MeasuredModel> {
  const measured = new Map<string, MeasuredModel>();
  // Two providers' figures are not one model's: the busiest one speaks for the model.
  const busiest = [...rows].sort((a, b) => b.completed + b.failed - (a.completed + a.failed));
  for (const row of busiest) {
    const finished = row.completed + row.failed;
    if (measured.has(row.model) || finished < MIN_FINISHED_RUNS) continue;
    measured.set(row.model, {
      provider: row.provider,
      failure_rate: row.failure_rate,
      finished,
    });
  }
  return measured;
}

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

/**
 * What the picker says of a model: its expected run (the server's rule, run-times.ts) and, when this team
 * has finished enough runs of it lately, how many failed: "usually 18–25 s here · 4% failed".
 */
export function modelFiguresText(
  run: RunEstimate | undefined,
  measured: MeasuredModel | undefined,
): string | null {
  const parts = [
    run ? runTimeText(run) : null,
    measured && measured.failure_rate !== null ? `${percent.format(measured.failure_rate)} failed` : null,
  ].filter((part) => part !== null);
  return parts.length ? parts.join(' · ') : null;
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
