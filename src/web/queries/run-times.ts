import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { RunEstimate, RunTime } from '../../contract/run-times.ts';
import { api } from '../api/client.ts';
import { formatDuration } from '../format/duration.ts';

/*
 * How long a run takes, as the server estimates it (GET /v2/run-times, the rule a new job gets): the
 * picker, the text before Run and the followed job all read it here and word it with `runTimeText`, so they
 * cannot disagree about the same model.
 */

/** `duration`: the seconds of media the form asks for, when the model asks a length. */
export function runTimesQueryOptions(duration: number | null) {
  return queryOptions({
    queryKey: ['run-times', duration] as const,
    queryFn: () => api().listRunTimes({ query: duration === null ? {} : { duration } }),
    select: (answer) => answer.data,
    // While another length is asked for, the last answer stays in view rather than blinking out.
    placeholderData: keepPreviousData,
    // Measurements move slowly; a minute of staleness keeps switching models free.
    staleTime: 60_000,
  });
}

/** The estimate of `model` at `provider`, or undefined while the list loads or when it cannot be read. */
export function useRunEstimate(
  model: string | undefined,
  provider: string | undefined,
  duration: number | null = null,
): RunEstimate | undefined {
  const runTimes = useQuery(runTimesQueryOptions(duration)).data;
  return model && provider ? runEstimateOf(runTimes, model, provider) : undefined;
}

export function runEstimateOf(
  runTimes: readonly RunTime[] | undefined,
  model: string,
  provider: string,
): RunEstimate | undefined {
  return runTimes?.find((row) => row.model === model && row.provider === provider)?.estimate;
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

/**
 * The one wording of a run's expected time: the measured range as measured ("usually 18–25 s here"),
 * the catalog's time as the catalog's ("about 6 s (typical for this model)"), never one posing as the other.
 */
export function runTimeText(estimate: RunEstimate): string {
  if (estimate.basis === 'measured') return typicalTimeText(estimate.p50_ms, estimate.p90_ms);
  // A round figure reads as the rough one it is: "about 6 s", not "about 6.0 s".
  return `about ${formatDuration(estimate.p50_ms).replace(/\.0 s$/, ' s')} (typical for this model)`;
}

/** Whole seconds, rounded up, under a minute: a countdown never says "0 s left" while time remains. */
function leftText(ms: number): string {
  return ms < 60_000 ? `${Math.max(1, Math.ceil(ms / 1000))} s` : formatDuration(ms);
}

/**
 * A followed job's countdown, from the estimate it was given when created (`estimated_run`) and how long
 * it has run (null while it waits for a worker): its p50 is `estimated_duration_ms`, the point a run most
 * likely ends; past it, the p90 bounds the wait; past that, it says so plainly rather than counting below 0.
 */
export function runProgressText(estimate: RunEstimate, runMs: number | null): string {
  const usual = runTimeText(estimate);
  if (runMs === null) return `Expected run: ${usual}`;
  if (runMs < estimate.p50_ms) return `About ${leftText(estimate.p50_ms - runMs)} left · ${usual}`;
  if (runMs < estimate.p90_ms) return `Within ${leftText(estimate.p90_ms - runMs)} · ${usual}`;
  return `Taking longer than usual · ${usual}`;
}
