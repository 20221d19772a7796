import { randomBytes } from 'node:crypto';
import type { Provider, RunContext, RunInput, RunResult } from '../../domain/jobs/provider.ts';

/** One offline engine: runs one kind of local model to completion. */
export type LocalEngine = (input: RunInput, context: RunContext) => Promise<RunResult>;

/** The id of one run of a local engine: the job's `provider_job_id` (spec 2.1 gives every job one). */
const newRunId = () => `local_${randomBytes(12).toString('hex')}`;

/** The `local` provider: the engines built into this server, keyed by the offer's providerModelId. */
export function createLocalProvider(engines: ReadonlyMap<string, LocalEngine>): Provider {
  return {
    id: 'local',
    unavailableReason: (id) =>
      engines.has(id) ? null : 'Not available on this server yet: its local engine is not built.',
    async run(input, context) {
      const engine = engines.get(input.offer.providerModelId);
      if (!engine) throw new Error(`No local engine for ${input.offer.providerModelId}.`);
      // Each run is its own: a job resumed after a crash runs the engine again, under a new id.
      await context.submitted?.(newRunId(), 'running');
      return engine(input, context);
    },
  };
}
