import { randomUUID } from 'node:crypto';
import { ProviderError } from '../../domain/jobs/provider-error.ts';
import type { RemoteJobState, RemoteOutput, SubmitContext } from './remote-provider.ts';

const MAX_JOBS = 16;
const KEEP_MS = 10 * 60_000;

/**
 * Results of synchronous provider calls (OpenAI images/speech/transcription, every ElevenLabs call),
 * which have no job to poll at the provider. `submit` answers them finished; this keeps the last few so
 * `poll` of their made-up ids (a refresh, or a resumed job in this process) can answer the same state.
 * Bounded in count and age: results hold output bytes. Shared by the OpenAI and ElevenLabs adapters.
 */
export class FinishedJobs {
  private readonly jobs = new Map<string, { state: RemoteJobState; at: number }>();

  constructor(
    /** The provider, for messages. */
    private readonly who: string,
    private readonly max = MAX_JOBS,
    private readonly keepMs = KEEP_MS,
  ) {}

  /** An id for a call the provider gave none: `<prefix>-<uuid>`. */
  static newId(prefix: string): string {
    return `${prefix}-${randomUUID()}`;
  }

  remember(state: RemoteJobState, now = Date.now()): RemoteJobState {
    for (const [id, job] of this.jobs) {
      if (now - job.at > this.keepMs) this.jobs.delete(id);
    }
    this.jobs.delete(state.providerJobId);
    while (this.jobs.size >= this.max) {
      const oldest = this.jobs.keys().next().value;
      if (oldest === undefined) break;
      this.jobs.delete(oldest);
    }
    this.jobs.set(state.providerJobId, { state, at: now });
    return state;
  }

  /** The state `submit` answered for this id; a clear, final error when it is no longer held. */
  recall(providerJobId: string, now = Date.now()): RemoteJobState {
    const job = this.jobs.get(providerJobId);
    if (job && now - job.at <= this.keepMs) return job.state;
    throw new ProviderError(
      'provider_error',
      `${this.who} answered request ${providerJobId} at once and has no job to poll; this server no longer holds its result (it keeps the last ${this.max} for ${Math.round(this.keepMs / 60_000)} minutes). Run the job again.`,
      { retryable: false },
    );
  }
}

/** The state of a synchronous call that answered with its outputs. */
export function finishedState(
  providerJobId: string,
  outputs: RemoteOutput[],
  billedUnits: Record<string, number>,
): RemoteJobState {
  return {
    providerJobId,
    providerStatus: 'completed',
    phase: 'succeeded',
    progress: 1,
    message: null,
    outputs,
    billedUnits,
  };
}

/**
 * Sends the one request that creates (and bills) work at a provider that answers synchronously: marks it
 * sent (`context.beforeSend()`) first, and when it fails in a way that may have been taken (a timeout or a
 * reset after sending, a 5xx: `accepted: 'unknown'`) fails the job with `provider_submit_unknown`, never
 * retried: there is no job at the provider to look up, and sending it again could run and bill it twice.
 * Failures that provably created nothing (429, a refused connection, a 4xx) pass through as they are, so
 * the driver may try them again.
 */
export async function sendOnce<T>(who: string, context: SubmitContext, send: () => Promise<T>): Promise<T> {
  await context.beforeSend();
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof ProviderError) || error.options.accepted !== 'unknown') throw error;
    throw new ProviderError(
      'provider_submit_unknown',
      `${who} may have taken this request before it failed (${error.message}); it was not sent again, since that could run and bill it twice.`,
      { ...error.options, retryable: false },
    );
  }
}
