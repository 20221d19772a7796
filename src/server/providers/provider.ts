import type { ModelDefinition, ProviderOffer } from '../domain/catalog/types.ts';

/** What an engine needs to do one job. */
export interface RunInput {
  model: ModelDefinition;
  offer: ProviderOffer;
  /** The validated request body. */
  body: Record<string, unknown>;
}

export interface RunContext {
  signal: AbortSignal;
  /** Progress 0..1 with a message for people; cheap to call often (writes are throttled). */
  progress(fraction: number, message: string): void;
  /** Reads an input URL: our own files from storage, anything else through the guarded fetcher. */
  readInput(url: string): Promise<{ body: Buffer; contentType: string }>;
}

export type RunOutput =
  | { kind: 'file'; data: Buffer; mediaType: string; name: string }
  | { kind: 'inline'; mediaType: string; data: unknown };

export interface RunResult {
  outputs: RunOutput[];
  /** Counts by unit name (images, seconds, ...); what the job is billed for. */
  billedUnits: Record<string, number>;
  providerStatus: string;
  providerJobId?: string;
}

/**
 * A provider: says what it can run here and runs it. Local engines finish within `run`; external
 * adapters (providers issue) will submit, poll and cancel behind the same call.
 */
export interface Provider {
  id: string;
  /** Null when this server can run the model, otherwise what would enable it. */
  unavailableReason(providerModelId: string): string | null;
  run(input: RunInput, context: RunContext): Promise<RunResult>;
}
