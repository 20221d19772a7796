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

export interface RunContext {
  signal: AbortSignal;
  /** Progress 0..1 with a message for people; cheap to call often (writes are throttled). */
  progress(fraction: number, message: string): void;
  /**
   * Reads an input URL: our own files from storage, anything else through the guarded fetcher, which
   * stops reading past `maxBytes` (default: the spec's 200 MB file limit).
   */
  readInput(url: string, limits?: { maxBytes?: number }): Promise<{ body: Buffer; contentType: string }>;
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

/** A provider's view of a job it holds, read by `POST /jobs/{id}/refresh`. */
export interface ProviderJobState {
  /** The provider's raw status string. */
  providerStatus: string;
  /** Our reading of it. */
  phase: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  progress: number | null;
  message: string | null;
}

/**
 * A provider: says what it can run here and runs it. Local engines finish within `run`; external
 * adapters submit, poll, download and (on abort) cancel at the provider behind the same call.
 */
export interface Provider {
  id: string;
  /** Null when this server can run the model, otherwise what would enable it. */
  unavailableReason(providerModelId: string): string | null;
  /** Billed units a request is expected to use, when the provider knows better than the generic estimate. */
  estimateUnits?(input: RunInput): number | null;
  run(input: RunInput, context: RunContext): Promise<RunResult>;
  /** Reads the state of a submitted job at the provider (only providers that hold jobs elsewhere). */
  poll?(input: RunInput & { providerJobId: string }, signal?: AbortSignal): Promise<ProviderJobState>;
}
