import { ERROR_STATUS, type ErrorCode } from '../contract/errors.ts';

/**
 * The one error class of the server: a code from the contract's list (which fixes the HTTP status), a
 * message for a person, optional details and extra response headers (Retry-After and friends).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: unknown; headers?: Record<string, string>; status?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? ERROR_STATUS[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}
