/**
 * Errors an engine throws that the job runner reads: they live in domain so the runner and the
 * pipeline engine need not import the local engines (providers depend on domain, never back).
 */

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
