import { sanitizeRedirect } from './redirect.ts';

/** Search params of /sign-in. */
export interface SignInSearch {
  /** Where to go after signing in: a path of this app (anything else was dropped: no open redirect). */
  redirect?: string;
  /** Why the person is here. */
  reason?: 'expired';
}

/**
 * Reads /sign-in's search params; a value that does not fit is dropped, never an error page. A plain
 * function, not zod: the sign-in page loads without zod.
 */
export function parseSignInSearch(raw: Record<string, unknown>): SignInSearch {
  const search: SignInSearch = {};
  const redirect = sanitizeRedirect(raw.redirect);
  if (redirect !== null) search.redirect = redirect;
  if (raw.reason === 'expired') search.reason = 'expired';
  return search;
}
