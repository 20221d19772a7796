import { ApiError } from '../../../../client/api-error.ts';

export interface SignInProblem {
  message: string;
  /** When a rate limit lifts (epoch ms), from Retry-After; null when not rate limited or unknown. */
  retryAt: number | null;
  /** The server refused the code itself (wrong, expired, used): the code field reads as invalid. */
  aboutCode?: boolean;
}

function seconds(count: number): string {
  return `${count} ${count === 1 ? 'second' : 'seconds'}`;
}

/** What to tell a person whose sign-in call failed. The server's own message is kept where it is specific. */
export function describeSignInError(error: unknown, now: number = Date.now()): SignInProblem {
  if (!(error instanceof ApiError)) {
    return {
      message: error instanceof Error ? error.message : 'Something went wrong. Try again.',
      retryAt: null,
    };
  }
  if (error.status === 429) {
    const wait = error.retryAfter;
    return wait
      ? { message: `Too many attempts. Try again in ${seconds(wait)}.`, retryAt: now + wait * 1000 }
      : { message: 'Too many attempts. Wait a moment, then try again.', retryAt: null };
  }
  if (error.status === 0) {
    return { message: 'Could not reach the server. Check your connection and try again.', retryAt: null };
  }
  if (error.status === 401) {
    // Wrong, expired, used or burnt code: the server says which.
    return { message: error.message || 'That code is wrong or has expired.', retryAt: null, aboutCode: true };
  }
  if (error.status >= 500) {
    return {
      message: `The server could not complete the sign-in (${error.message}). Try again.`,
      retryAt: null,
    };
  }
  return { message: error.message, retryAt: null };
}
