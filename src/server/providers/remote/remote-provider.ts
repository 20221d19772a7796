import { setTimeout as sleep } from 'node:timers/promises';
import type {
  FollowedState,
  Provider,
  ProviderJobState,
  RemoteRunner,
  RunContext,
  RunInput,
  RunOutput,
  RunResult,
  SubmitContext,
  WebhookDelivery,
} from '../../domain/jobs/provider.ts';
import { ProviderError, type ProviderErrorCode } from '../../domain/jobs/provider-error.ts';
import { AbortError } from '../local/engine-run.ts';

/** An output as a provider hands it back: a URL to download, bytes, or inline data. */
export type RemoteOutput =
  | { url: string; mediaType?: string; name: string }
  | { data: Buffer; mediaType: string; name: string }
  /** Bytes only the adapter can fetch (behind the provider's auth); fetched once, when the job is done. */
  | { fetch: (signal: AbortSignal) => Promise<Buffer>; mediaType: string; name: string }
  | { inline: unknown; mediaType: string };

/** A job at the provider, as an adapter reads it. */
export interface RemoteJobState extends FollowedState {
  /** Set when `phase` is `succeeded`. */
  outputs?: RemoteOutput[];
  /** What the provider billed, in our unit names (images, seconds, ...); set when `phase` is `succeeded`. */
  billedUnits?: Record<string, number>;
  /** The provider's reason when `phase` is `failed`. */
  error?: string;
  /**
   * The error's kind when the provider says it (`content_policy_violation` for a refused prompt or
   * input); absent for an ordinary failure (`provider_error`).
   */
  errorCode?: ProviderErrorCode;
}

// The submit context and webhook types belong to the job runner's provider contract (domain); adapters
// import them from here, beside the rest of the adapter interface.
export type { SubmitContext, WebhookDelivery } from '../../domain/jobs/provider.ts';
export { WebhookRejected } from '../../domain/jobs/provider.ts';

export type SubmittedInput = RunInput & { providerJobId: string };

/**
 * One external provider's API. `submit` may answer a finished job at once (synchronous APIs such as
 * OpenAI's images or speech); queue APIs answer `queued` and are then polled.
 */
export interface RemoteAdapter {
  id: string;
  /** The environment variable that enables the provider, for the "how to enable it" message. */
  keyVariable: string;
  /** The configured key; the provider is unavailable without it. */
  key: string | undefined;
  /** Provider model ids this adapter knows how to call (others are listed as unavailable). */
  supports(providerModelId: string): boolean;
  submit(input: RunInput, context: SubmitContext): Promise<RemoteJobState>;
  poll(input: SubmittedInput, signal?: AbortSignal): Promise<RemoteJobState>;
  /**
   * The states of many submitted jobs from the provider's listing of its jobs, in as few calls as the
   * listing allows. Answers only the jobs it shows still queued or running: a finished job is polled on
   * its own (its full record), and so is one the listing did not reach. Providers without a listing
   * leave it out.
   */
  pollMany?(
    jobs: { input: SubmittedInput; submittedAt: Date }[],
    signal?: AbortSignal,
  ): Promise<Map<string, RemoteJobState>>;
  cancel(input: SubmittedInput): Promise<void>;
  estimateUnits?(input: RunInput): number | null;
  /**
   * Checks a webhook delivery's signature as the provider documents it (and refuses a replay: a
   * timestamp outside the provider's tolerance) and answers the provider's id of the job it is about.
   * Throws WebhookRejected when it does not hold. Providers without webhooks leave it out.
   */
  verifyWebhook?(delivery: WebhookDelivery, signal?: AbortSignal): Promise<{ providerJobId: string }>;
  /**
   * The job's state as a verified delivery carries it (Replicate sends the whole prediction, fal the
   * result payload), so no status call is needed; null when the body does not say enough (then it is polled).
   */
  stateFromWebhook?(input: SubmittedInput, delivery: WebhookDelivery): RemoteJobState | null;
  /**
   * After a submit whose failure left it unknown whether the provider took the job (a timeout, a reset),
   * finds that job at the provider where its API allows a lookup; null when it is certainly not there.
   * Throws when it cannot tell. Without it such a job fails with `provider_submit_unknown`.
   */
  findSubmitted?(
    input: RunInput & { jobId: string; sentAt: Date },
    signal?: AbortSignal,
  ): Promise<RemoteJobState | null>;
}

export interface RemoteProviderOptions {
  /** First pause between polls of `run` (in-line following); it doubles up to `maxPollMs`. */
  firstPollMs?: number;
  maxPollMs?: number;
  /** Tries of one call when the provider is rate limiting or failing (5xx, network). */
  attempts?: number;
  /** Longest pause we honour from a Retry-After header. */
  maxRetryAfterMs?: number;
  /** First pause before a failed download of a finished job's output is tried again; it quadruples. */
  downloadRetryMs?: number;
}

const DEFAULTS: Required<RemoteProviderOptions> = {
  firstPollMs: 500,
  maxPollMs: 5_000,
  attempts: 4,
  maxRetryAfterMs: 30_000,
  downloadRetryMs: 1_000,
};

const TERMINAL = new Set<ProviderJobState['phase']>(['succeeded', 'failed', 'cancelled']);

/**
 * Turns a RemoteAdapter into a Provider. `remote` is what the job runner uses: submit once, then poll or
 * take webhooks (remote-follower.ts), then collect the result. `run` follows a job in-line with the same
 * pieces, for callers that wait anyway (adapter tests, scripts).
 */
export function createRemoteProvider(adapter: RemoteAdapter, options: RemoteProviderOptions = {}): Provider {
  const o = { ...DEFAULTS, ...options };

  /** The server's key never reaches a job's message (it is shown to people) or a log. */
  function redacted(error: unknown): unknown {
    const key = adapter.key;
    if (error instanceof ProviderError && key && error.message.includes(key)) {
      return new ProviderError(error.code, error.message.split(key).join('[key]'), error.options);
    }
    return error;
  }

  /** Waits `ms`, or throws AbortError when the signal stops the wait. */
  async function pause(ms: number, signal: AbortSignal): Promise<void> {
    await sleep(ms, undefined, { signal }).catch(() => {
      throw new AbortError(signal.reason);
    });
  }

  /**
   * Calls `call`, pausing and trying again while `again(error)` holds and tries remain: by default while
   * the provider rate limits or fails transiently (safe for reads, which change nothing).
   */
  async function withRetries<T>(
    call: () => Promise<T>,
    signal: AbortSignal,
    again: (error: ProviderError) => boolean = (error) => error.retryable,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (signal.aborted) throw new AbortError(signal.reason);
        if (!(error instanceof ProviderError) || !again(error) || attempt >= o.attempts) throw error;
        await pause(
          Math.min(error.options.retryAfterMs ?? 1000 * 2 ** (attempt - 1), o.maxRetryAfterMs),
          signal,
        );
      }
    }
  }

  /** A finished job's output bytes: a failed download is tried again with growing pauses. */
  async function download(
    fetchOnce: () => Promise<{ body: Buffer; contentType: string }>,
    signal: AbortSignal,
  ): Promise<{ body: Buffer; contentType: string }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetchOnce();
      } catch (error) {
        if (signal.aborted) throw new AbortError(signal.reason);
        // The provider made (and billed) the output: a download that keeps failing is ours, not the person's.
        if (attempt >= o.attempts) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new ProviderError(
            'provider_error',
            `The output ${adapter.id} made could not be downloaded (${attempt} tries): ${reason}`,
            { retryable: false },
          );
        }
        const retryAfter = error instanceof ProviderError ? error.options.retryAfterMs : undefined;
        await pause(
          Math.min(retryAfter ?? o.downloadRetryMs * 4 ** (attempt - 1), o.maxRetryAfterMs),
          signal,
        );
      }
    }
  }

  async function outputsOf(
    state: RemoteJobState,
    context: Pick<RunContext, 'signal' | 'download'>,
  ): Promise<RunOutput[]> {
    const outputs: RunOutput[] = [];
    for (const output of state.outputs ?? []) {
      if ('inline' in output) {
        outputs.push({ kind: 'inline', mediaType: output.mediaType, data: output.inline });
      } else if ('data' in output) {
        outputs.push({ kind: 'file', data: output.data, mediaType: output.mediaType, name: output.name });
      } else if ('fetch' in output) {
        const fetched = await download(
          async () => ({ body: await output.fetch(context.signal), contentType: output.mediaType }),
          context.signal,
        );
        outputs.push({ kind: 'file', data: fetched.body, mediaType: output.mediaType, name: output.name });
      } else {
        const fetchUrl = context.download;
        if (!fetchUrl) throw new Error('This runner cannot download provider outputs.');
        const fetched = await download(() => fetchUrl(output.url), context.signal);
        const mediaType =
          output.mediaType ?? (fetched.contentType.split(';')[0]?.trim() || 'application/octet-stream');
        outputs.push({ kind: 'file', data: fetched.body, mediaType, name: output.name });
      }
    }
    if (outputs.length === 0)
      throw new ProviderError('provider_error', `${adapter.id} finished without an output.`);
    return outputs;
  }

  /** The failure of a job the provider ended without success. */
  function failureOf(state: RemoteJobState): ProviderError {
    if (state.phase === 'cancelled') {
      return new ProviderError('provider_cancelled', `${adapter.id} cancelled the job on its side.`);
    }
    const reason = state.error ?? state.providerStatus;
    if (state.errorCode === 'content_policy_violation') {
      return new ProviderError(
        'content_policy_violation',
        `${adapter.id} refused this request under its content policy: ${reason}`,
      );
    }
    return new ProviderError(state.errorCode ?? 'provider_error', `${adapter.id} failed the job: ${reason}`);
  }

  /**
   * Submits once. Before `beforeSend` nothing was created at the provider, so any transient failure (an
   * input upload) may be tried again; after it, only a failure that proves the provider took nothing.
   */
  async function submitOnce(input: RunInput, context: SubmitContext): Promise<RemoteJobState> {
    let sent = false;
    const tracked: SubmitContext = {
      ...context,
      beforeSend: async () => {
        await context.beforeSend();
        sent = true;
      },
    };
    try {
      return await withRetries(
        () => {
          sent = false;
          return adapter.submit(input, tracked);
        },
        context.signal,
        (error) => error.retryable && (!sent || error.options.accepted === 'no'),
      );
    } catch (error) {
      if (sent && error instanceof ProviderError && error.options.accepted !== 'no') {
        // Whatever the failure said, the provider may hold the job now: the caller reconciles.
        throw new ProviderError(error.code, error.message, {
          ...error.options,
          accepted: 'unknown',
          retryable: false,
        });
      }
      throw error;
    }
  }

  const remote: RemoteRunner = {
    webhooks: Boolean(adapter.verifyWebhook),
    submit: async (input, context) => {
      try {
        return await submitOnce(input, context);
      } catch (error) {
        throw redacted(error);
      }
    },
    poll: async (input, signal) => {
      try {
        return await withRetries(() => adapter.poll(input, signal), signal);
      } catch (error) {
        throw redacted(error);
      }
    },
    ...(adapter.pollMany && {
      pollMany: async (jobs, signal) => {
        try {
          return await withRetries(() => adapter.pollMany!(jobs, signal), signal);
        } catch (error) {
          throw redacted(error);
        }
      },
    }),
    cancel: (input) => adapter.cancel(input),
    result: async (_input, state, context) => {
      const remoteState = state as RemoteJobState;
      try {
        if (remoteState.phase !== 'succeeded') throw failureOf(remoteState);
        return {
          outputs: await outputsOf(remoteState, context),
          billedUnits: remoteState.billedUnits ?? {},
          providerStatus: remoteState.providerStatus,
          providerJobId: remoteState.providerJobId,
        };
      } catch (error) {
        throw redacted(error);
      }
    },
    ...(adapter.verifyWebhook && { verifyWebhook: adapter.verifyWebhook.bind(adapter) }),
    ...(adapter.stateFromWebhook && { stateFromWebhook: adapter.stateFromWebhook.bind(adapter) }),
    ...(adapter.findSubmitted && { findSubmitted: adapter.findSubmitted.bind(adapter) }),
  };

  return {
    id: adapter.id,
    unavailableReason(providerModelId) {
      if (!adapter.key) return `Set ${adapter.keyVariable} on the server to enable ${adapter.id}.`;
      if (!adapter.supports(providerModelId)) {
        return `This server's ${adapter.id} adapter cannot call ${providerModelId} yet.`;
      }
      return null;
    },
    estimateUnits: adapter.estimateUnits ? (input) => adapter.estimateUnits!(input) : undefined,
    remote,
    run: (input, context) => followInLine(input, context),
  };

  /** Submits (or resumes) a job and follows it to its result while the caller waits. */
  async function followInLine(input: RunInput, context: RunContext): Promise<RunResult> {
    const { signal } = context;
    let state: FollowedState;
    if (input.providerJobId) {
      state = await remote.poll({ ...input, providerJobId: input.providerJobId }, signal);
    } else {
      context.progress(0.02, `Submitting to ${adapter.id}`);
      state = await remote.submit(input, { ...context, webhookUrl: null, beforeSend: async () => {} });
      await context.submitted?.(state.providerJobId, state.providerStatus);
    }
    const submitted = { ...input, providerJobId: state.providerJobId };
    try {
      let wait = o.firstPollMs;
      while (!TERMINAL.has(state.phase)) {
        context.progress(state.progress ?? 0.1, state.message ?? `Running at ${adapter.id}`);
        await sleep(wait, undefined, { signal });
        wait = Math.min(wait * 2, o.maxPollMs);
        state = await remote.poll(submitted, signal);
      }
    } catch (error) {
      if (signal.aborted) {
        await adapter.cancel(submitted).catch(() => {});
        throw new AbortError(signal.reason);
      }
      throw error;
    }
    context.progress(0.95, `Downloading the output from ${adapter.id}`);
    return remote.result(submitted, state, context);
  }
}
