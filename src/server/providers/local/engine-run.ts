/** How a local engine reports progress and learns it should stop; shared by the local engines. */
export interface EngineRunOptions {
  /** Called with a fraction 0..1 and a short message for people, as a job's progress fields hold them. */
  onProgress?: (fraction: number, message: string) => void;
  /** Checked between steps: an aborted signal makes the engine throw AbortError at the next step. */
  signal?: AbortSignal;
}

/** The engine stopped because its signal was aborted; `cause` is the signal's reason. */
export class AbortError extends Error {
  constructor(reason?: unknown) {
    super('The operation was aborted.', { cause: reason });
    this.name = 'AbortError';
  }
}

/** The input cannot be processed (bad parameters, unreadable image): the job fails, a retry will not help. */
export class EngineInputError extends Error {
  readonly code = 'invalid_input';
  constructor(message: string) {
    super(message);
    this.name = 'EngineInputError';
  }
}

export function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(signal.reason);
}

export function report(options: EngineRunOptions, fraction: number, message: string): void {
  options.onProgress?.(Math.min(1, Math.max(0, fraction)), message);
}
