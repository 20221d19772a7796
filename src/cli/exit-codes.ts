import { ApiError } from '../client/api-error.ts';

/**
 * The exit codes scripts can rely on (docs/cli.md). One per kind of outcome a script would branch on:
 * fix the command, sign in again, top up, look at the job, or simply try again later.
 */
export const EXIT = {
  ok: 0,
  /** Anything not covered below (a bug of ours, an answer we did not expect). */
  error: 1,
  /** The command or its input was refused: unknown flag, bad value, unknown model, file not found. */
  refused: 2,
  /** Not signed in, a bad or revoked key, or no right to do this. */
  auth: 3,
  /** The team's balance is too low for the run. */
  balance: 4,
  /** The job ran and failed, or was cancelled. */
  jobFailed: 5,
  /** The server could not be reached, or answered "try again later" (429, 5xx). */
  network: 6,
  /** Interrupted (Ctrl-C), as shells count it. */
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error the CLI itself raises, with the one line to print and the exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** Extra fields for `--json` output (the job of a failed run, for example). */
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/** The exit code for an answer of the API. */
export function exitCodeOf(error: ApiError): ExitCode {
  if (error.status === 0) return EXIT.network;
  if (error.code === 'insufficient_balance' || error.status === 402) return EXIT.balance;
  if (error.status === 401 || error.status === 403) return EXIT.auth;
  if (error.status === 429 || error.status >= 500) return EXIT.network;
  if (error.status >= 400) return EXIT.refused;
  return EXIT.error;
}

/** One line for a person: the envelope's message, its code, and the request id to quote to support. */
export function describeError(error: unknown): {
  line: string;
  exitCode: ExitCode;
  data: Record<string, unknown>;
} {
  if (error instanceof CliError) {
    return { line: error.message, exitCode: error.exitCode, data: { ...error.data } };
  }
  if (error instanceof ApiError) {
    const request = error.requestId ? ` (request ${error.requestId})` : '';
    const retry = error.retryAfter ? ` Try again in ${error.retryAfter} s.` : '';
    return {
      line: `${error.message} [${error.code}]${request}${retry}`,
      exitCode: exitCodeOf(error),
      data: { code: error.code, status: error.status, request_id: error.requestId, details: error.details },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { line: message, exitCode: EXIT.error, data: {} };
}
