/** Socket errors of a connection to the database that is refused, reset or cut. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * Whether an error means the database is away (restarting, shutting down, unreachable) rather than a
 * bug: class 08 (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now),
 * 53300 (too many connections), the socket errors, and node-postgres's own words for a cut connection.
 * A socket error counts only as a socket's own (with its `syscall`, as node-postgres passes them on): a
 * request whose client went away fails with Node's `aborted` (ECONNRESET, no syscall), which is no
 * database outage.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
    if (NETWORK_CODES.has(code) && typeof (error as { syscall?: unknown }).syscall === 'string') return true;
  }
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return /^Connection terminated|^Client has encountered a connection error|timeout exceeded when trying to connect/.test(
    error.message,
  );
}
