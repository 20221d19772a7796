import type { Readable } from 'node:stream';
import type { OutputEnvelope } from '../../../contract/jobs.ts';
import type { ModelDefinition, ProviderOffer } from '../catalog/types.ts';

type OutputEntry = OutputEnvelope['outputs'][number];

/** What an engine or adapter needs to do one job. */
export interface RunInput {
  model: ModelDefinition;
  offer: ProviderOffer;
  /** The validated request body. */
  body: Record<string, unknown>;
  /**
   * The provider's id for this job when an earlier run already submitted it (a worker died after the
   * submit): the job is then followed, never submitted (and paid for) twice.
   */
  providerJobId?: string | null;
  /** Our job's id (engines that start jobs of their own, such as pipelines, link them to it). */
  jobId?: string;
}

/**
 * An input file as an external provider may take it: by a URL it can fetch itself, or as bytes we stream
 * to it (its own storage, or a multipart body). Nothing is read until asked, so a 200 MB input never sits
 * in memory.
 */
export interface InputFile {
  /** The URL as the request gave it. */
  url: string;
  /**
   * A URL the provider can fetch itself: ours when this server's PUBLIC_URL is reachable from the
   * internet (PROVIDERS_REACH_PUBLIC_URL), a caller's public URL as it is; null when the provider cannot
   * reach the file and must be sent its bytes.
   */
  publicUrl: string | null;
  /** The MIME type without parameters (`application/octet-stream` when unknown). */
  contentType: string;
  /** `image`, `video`, `audio` or `other`, from the content type. */
  kind: 'image' | 'video' | 'audio' | 'other';
  /** Bytes; null when the source did not say (a caller's URL not yet read). */
  size: number | null;
  /** A plain file name for multipart bodies and provider storage. */
  fileName: string;
  /** The bytes as a stream; each call opens a new one. */
  open(signal?: AbortSignal): Promise<Readable>;
  /** Play time of audio or video, read from the media itself; null for images or when unknown. */
  durationSeconds(): Promise<number | null>;
}

export interface RunContext {
  signal: AbortSignal;
  /** Progress 0..1 with a message for people; cheap to call often (writes are throttled). */
  progress(fraction: number, message: string): void;
  /**
   * Reads an input URL: our own files from storage, anything else through the guarded fetcher, which
   * stops reading past `maxBytes` (default: the spec's 200 MB file limit).
   */
  readInput(url: string, limits?: { maxBytes?: number }): Promise<{ body: Buffer; contentType: string }>;
  /** An input URL as a file a provider can be given by URL or by streamed bytes (see InputFile). */
  inputFile?(url: string): Promise<InputFile>;
  /** Records the provider's job id and raw status as soon as the provider accepts the job. */
  submitted?(providerJobId: string, providerStatus: string): Promise<void>;
  /** Downloads an output the provider made, through the guarded fetcher. */
  download?(url: string): Promise<{ body: Buffer; contentType: string }>;
}

export type RunOutput =
  | { kind: 'file'; data: Buffer; mediaType: string; name: string }
  | { kind: 'inline'; mediaType: string; data: unknown }
  /** An output another job already stored (a pipeline's last step): passed on as it is. */
  | { kind: 'stored'; entry: OutputEntry };

export interface RunResult {
  outputs: RunOutput[];
  /** Counts by unit name (images, seconds, ...); what the job is billed for. */
  billedUnits: Record<string, number>;
  providerStatus: string;
  providerJobId?: string;
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

/** A provider's view of a job it holds. */
export interface ProviderJobState {
  /** The provider's raw status string. */
  providerStatus: string;
  /** Our reading of it. */
  phase: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress: number | null;
  message: string | null;
}

/** A job submitted to an external provider, as the follower sees it at one moment. */
export interface FollowedState extends ProviderJobState {
  providerJobId: string;
  /** The job's log at the provider so far (tail), for the job's drawer. */
  logs?: string;
}

export type SubmittedRunInput = RunInput & { providerJobId: string };

/** A job to look up in a provider's listing: when it was submitted bounds how far back to read. */
export interface PolledJob {
  input: SubmittedRunInput;
  submittedAt: Date;
}

/**
 * An external provider that holds jobs while it works: a worker submits once and is free; the job is then
 * followed (remote-follower.ts) by polls or the provider's webhooks until `result` can be fetched.
 */
export interface RemoteRunner {
  /** Whether the provider calls back when a job finishes (then it is not polled). */
  webhooks: boolean;
  /**
   * Submits the job once. Failures that prove the provider took nothing (a refused connection, a 429)
   * are tried again; one that leaves it unknown throws a ProviderError with `accepted: 'unknown'` after
   * `beforeSend` was called, and is never sent again blindly.
   */
  submit(input: RunInput, context: SubmitContext): Promise<FollowedState>;
  /** The job's state now (transient failures are tried again). */
  poll(input: SubmittedRunInput, signal: AbortSignal): Promise<FollowedState>;
  /**
   * Many jobs' states in a few calls, where the provider lists its jobs (see RemoteAdapter.pollMany): only
   * jobs the listing shows still queued or running are answered; the others are polled one by one.
   */
  pollMany?(jobs: PolledJob[], signal: AbortSignal): Promise<Map<string, FollowedState>>;
  /** Stops the job at the provider (and its spending); best effort. */
  cancel(input: SubmittedRunInput): Promise<void>;
  /**
   * The outputs and billed units of a job that reached `succeeded` (downloads tried again with backoff);
   * throws the job's ProviderError for `failed` and `cancelled`.
   */
  result(
    input: SubmittedRunInput,
    state: FollowedState,
    context: Pick<RunContext, 'signal' | 'download'>,
  ): Promise<RunResult>;
  /** See RemoteAdapter.verifyWebhook; absent when the provider has no webhooks. */
  verifyWebhook?(delivery: WebhookDelivery, signal?: AbortSignal): Promise<{ providerJobId: string }>;
  stateFromWebhook?(input: SubmittedRunInput, delivery: WebhookDelivery): FollowedState | null;
  /** See RemoteAdapter.findSubmitted. */
  findSubmitted?(
    input: RunInput & { jobId: string; sentAt: Date },
    signal?: AbortSignal,
  ): Promise<FollowedState | null>;
}

/**
 * A provider: says what it can run here and runs it. Local engines finish within `run`; external
 * providers also offer `remote`, which the job runner uses so that no worker waits while they work.
 */
export interface Provider {
  id: string;
  /** Null when this server can run the model, otherwise what would enable it. */
  unavailableReason(providerModelId: string): string | null;
  /** Billed units a request is expected to use, when the provider knows better than the generic estimate. */
  estimateUnits?(input: RunInput): number | null;
  run(input: RunInput, context: RunContext): Promise<RunResult>;
  /** Providers that hold jobs elsewhere: submit, follow and collect separately (see RemoteRunner). */
  remote?: RemoteRunner;
}
