import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/*
 * How long a run takes (ours, issues #29 and #33): one rule on the server (domain/jobs/run-estimate.ts),
 * read by a job's `estimated_duration_ms` and `estimated_run`, by the list below, and through them by every
 * place the console says how long a run takes.
 */

/** Completed runs of an offer (model at provider) needed before its measured range replaces the catalog's. */
export const MIN_MEASURED_RUNS = 5;

/**
 * What a run of a model at a provider is expected to take. `measured`: the 50th to 90th percentile of the
 * recent completed runs on this server (`started_at` to `completed_at`), per second asked for when
 * `scaled_to_seconds` is set. `typical`: too few runs measured yet; both ends are the catalog's typical time.
 */
export const RunEstimate = z
  .object({
    basis: z.enum(['measured', 'typical']),
    p50_ms: z
      .int()
      .min(0)
      .meta({ description: 'Half the runs took at most this long (the catalog time when `typical`).' }),
    p90_ms: z
      .int()
      .min(0)
      .meta({ description: 'Nine runs in ten took at most this long (= p50_ms when `typical`).' }),
    runs: z
      .int()
      .min(0)
      .meta({ description: 'Completed runs the figures come from (fewer than needed when `typical`).' }),
    scaled_to_seconds: z.number().positive().nullable().meta({
      description:
        'The `duration` asked for when the range was scaled from measured time per second; else null.',
    }),
  })
  .meta({ id: 'RunEstimate' });
export type RunEstimate = z.infer<typeof RunEstimate>;

export const RunTime = z
  .object({ model: z.string(), provider: z.string(), estimate: RunEstimate })
  .meta({ id: 'RunTime' });
export type RunTime = z.infer<typeof RunTime>;

export const ListRunTimesQuery = z.object({
  duration: z.coerce.number().positive().max(86_400).optional().meta({
    description:
      'Seconds of media asked for (`duration` of the request); scales the models that measure per second.',
  }),
});

export const listRunTimes = defineEndpoint({
  operationId: 'listRunTimes',
  method: 'GET',
  path: '/v2/run-times',
  host: 'api',
  tag: 'Pricing',
  summary: 'Expected run time of every model',
  description: `Per model and provider, how long a run is expected to take before it is sent: the p50–p90 of the recent completed runs on this server once it has measured ${MIN_MEASURED_RUNS}, else the catalog's typical time. A new job's \`estimated_duration_ms\` is the \`p50_ms\` of the same estimate.`,
  auth: 'any',
  query: ListRunTimesQuery,
  responses: {
    200: { description: 'Every offer of every model.', schema: z.object({ data: z.array(RunTime) }) },
  },
  errors: ['rate_limited'],
});
