import { setTimeout as sleep } from 'node:timers/promises';
import type {
  Provider,
  ProviderJobState,
  RunContext,
  RunInput,
  RunOutput,
  RunResult,
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
export interface RemoteJobState extends ProviderJobState {
  providerJobId: string;
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
  /** The job's log at the provider so far (fal, Replicate), newest last; shown in the job's drawer. */
  logs?: string;
}

/** What `submit` is given beyond a run's context. */
export interface SubmitContext extends RunContext {
  /**
   * Where the provider should call back when the job finishes (fal's `fal_webhook`, Replicate's
   * `webhook`), or null when this server cannot be reached from the internet: then it is polled.
   */
  webhookUrl: string | null;
  /**
   * Called right before the request that creates the job at the provider (after inputs are uploaded):
   * from then on a failure may have created it, and the job is never submitted again blindly.
   */
  beforeSend(): Promise<void>;
}

/** One of a provider's webhook deliveries, as received (the raw body: signatures cover its bytes). */
export interface WebhookDelivery {
  headers: Headers;
  body: Buffer;
}

/** A webhook whose signature, timestamp or id does not hold: refused with 401, never acted upon. */
export class WebhookRejected extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookRejected';
  }
}

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
  /** First pause between polls; it doubles up to `maxPollMs`. */
  firstPollMs?: number;
  maxPollMs?: number;
  /** Tries of one call when the provider is rate limiting or failing (5xx, network). */
  attempts?: number;
  /** Longest pause we honour from a Retry-After header. */
  maxRetryAfterMs?: number;
  /** A job still unfinished after this long fails (default 30 minutes). */
  deadlineMs?: number;
}

const DEFAULTS: Required<RemoteProviderOptions> = {
  firstPollMs: 500,
  maxPollMs: 5_000,
  attempts: 4,
  maxRetryAfterMs: 30_000,
  deadlineMs: 30 * 60_000,
};

const TERMINAL = new Set<ProviderJobState['phase']>(['succeeded', 'failed', 'cancelled']);

/** Turns a RemoteAdapter into a Provider: submit once, follow to the end, download, cancel on abort. */
export function createRemoteProvider(adapter: RemoteAdapter, options: RemoteProviderOptions = {}): Provider {
  const o = { ...DEFAULTS, ...options };

  /** Calls `call`, pausing and trying again while the provider rate limits or fails transiently. */
  async function withRetries<T>(call: () => Promise<T>, signal: AbortSignal): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (error) {
        if (signal.aborted) throw new AbortError(signal.reason);
        if (!(error instanceof ProviderError) || !error.retryable || attempt >= o.attempts) throw error;
        const pause = Math.min(error.options.retryAfterMs ?? 1000 * 2 ** (attempt - 1), o.maxRetryAfterMs);
        await sleep(pause, undefined, { signal }).catch(() => {
          throw new AbortError(signal.reason);
        });
      }
    }
  }

  async function outputsOf(state: RemoteJobState, context: RunContext): Promise<RunOutput[]> {
    const outputs: RunOutput[] = [];
    for (const output of state.outputs ?? []) {
      if ('inline' in output) {
        outputs.push({ kind: 'inline', mediaType: output.mediaType, data: output.inline });
      } else if ('data' in output) {
        outputs.push({ kind: 'file', data: output.data, mediaType: output.mediaType, name: output.name });
      } else if ('fetch' in output) {
        const data = await withRetries(() => output.fetch(context.signal), context.signal);
        outputs.push({ kind: 'file', data, mediaType: output.mediaType, name: output.name });
      } else {
        if (!context.download) throw new Error('This runner cannot download provider outputs.');
        const fetched = await withRetries(() => context.download!(output.url), context.signal);
        const mediaType =
          output.mediaType ?? (fetched.contentType.split(';')[0]?.trim() || 'application/octet-stream');
        outputs.push({ kind: 'file', data: fetched.body, mediaType, name: output.name });
      }
    }
    if (outputs.length === 0)
      throw new ProviderError('provider_error', `${adapter.id} finished without an output.`);
    return outputs;
  }

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
    poll: (input, signal) => adapter.poll(input, signal),

    async run(input, context): Promise<RunResult> {
      try {
        return await follow(input, context);
      } catch (error) {
        // A failed job's message is shown to the person: never with the server's own key in it.
        const key = adapter.key;
        if (error instanceof ProviderError && key && error.message.includes(key)) {
          throw new ProviderError(error.code, error.message.split(key).join('[key]'), error.options);
        }
        throw error;
      }
    },
  };

  async function follow(input: RunInput, context: RunContext): Promise<RunResult> {
    const { signal } = context;
    const started = Date.now();
    let state: RemoteJobState;
    if (input.providerJobId) {
      state = await withRetries(
        () => adapter.poll({ ...input, providerJobId: input.providerJobId! }, signal),
        signal,
      );
    } else {
      context.progress(0.02, `Submitting to ${adapter.id}`);
      const submitContext = { ...context, webhookUrl: null, beforeSend: async () => {} };
      state = await withRetries(() => adapter.submit(input, submitContext), signal);
      await context.submitted?.(state.providerJobId, state.providerStatus);
    }
    const submitted: SubmittedInput = { ...input, providerJobId: state.providerJobId };

    try {
      let pause = o.firstPollMs;
      while (!TERMINAL.has(state.phase)) {
        const waited = Date.now() - started;
        if (waited > o.deadlineMs) {
          throw new ProviderError(
            'provider_error',
            `${adapter.id} did not finish within ${Math.round(o.deadlineMs / 60_000)} minutes.`,
          );
        }
        context.progress(
          state.progress ?? (state.phase === 'queued' ? 0.05 : 0.1 + 0.8 * (1 - Math.exp(-waited / 30_000))),
          state.message ??
            (state.phase === 'queued' ? `Queued at ${adapter.id}` : `Running at ${adapter.id}`),
        );
        await sleep(pause, undefined, { signal });
        pause = Math.min(pause * 2, o.maxPollMs);
        state = await withRetries(() => adapter.poll(submitted, signal), signal);
      }
    } catch (error) {
      if (signal.aborted) {
        // Cancelled here: stop the work (and the spending) at the provider too; best effort.
        await adapter.cancel(submitted).catch(() => {});
        throw new AbortError(signal.reason);
      }
      throw error;
    }

    if (state.phase === 'failed') {
      throw new ProviderError(
        'provider_error',
        `${adapter.id} failed the job: ${state.error ?? state.providerStatus}`,
      );
    }
    if (state.phase === 'cancelled') {
      throw new ProviderError('provider_cancelled', `${adapter.id} cancelled the job on its side.`);
    }
    context.progress(0.95, `Downloading the output from ${adapter.id}`);
    const outputs = await outputsOf(state, context);
    return {
      outputs,
      billedUnits: state.billedUnits ?? {},
      providerStatus: state.providerStatus,
      providerJobId: state.providerJobId,
    };
  }
}
