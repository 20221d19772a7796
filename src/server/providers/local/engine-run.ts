import { AbortError } from '../../domain/jobs/engine-errors.ts';

export { AbortError, EngineInputError } from '../../domain/jobs/engine-errors.ts';

/** How a local engine reports progress and learns it should stop; shared by the local engines. */
export interface EngineRunOptions {
  /** Called with a fraction 0..1 and a short message for people, as a job's progress fields hold them. */
  onProgress?: (fraction: number, message: string) => void;
  /** Checked between steps: an aborted signal makes the engine throw AbortError at the next step. */
  signal?: AbortSignal;
}

export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(signal.reason);
}

export function report(options: EngineRunOptions, fraction: number, message: string): void {
  options.onProgress?.(Math.min(1, Math.max(0, fraction)), message);
}
