import { useSyncExternalStore } from 'react';
import { storedValue } from '../storage/stored-value.ts';

/** What the console keeps of a sign-in: the session JWT, when it stops working, and whose it is. */
export interface Session {
  token: string;
  /** ISO 8601 with an offset, as the server sends `expires_at`. */
  expiresAt: string;
  email: string;
}

/** `2026-01-31T12:00:00Z`, `…T12:00:00.123+02:00`: what `Date.parse` reads the same everywhere. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

/** A stored session, or null when there is none or it does not fit (older console, hand edits). */
export function readSession(json: unknown): Session | null | undefined {
  if (json === null) return null;
  if (typeof json !== 'object') return undefined;
  const { token, expiresAt, email } = json as Record<string, unknown>;
  if (typeof token !== 'string' || token === '' || typeof email !== 'string') return undefined;
  if (
    typeof expiresAt !== 'string' ||
    !ISO_WITH_OFFSET.test(expiresAt) ||
    Number.isNaN(Date.parse(expiresAt))
  ) {
    return undefined;
  }
  return { token, expiresAt, email };
}

export const SESSION_KEY = 'media-console:session';

export const sessionStore = storedValue<Session | null>(SESSION_KEY, readSession, null);

export function isExpired(session: Session, now: number = Date.now()): boolean {
  return Date.parse(session.expiresAt) <= now;
}

/**
 * The stored session while it is still valid. Pure (no clean-up here: it also serves as a
 * `useSyncExternalStore` snapshot); an expired session is overwritten at the next sign-in.
 */
export function currentSession(now: number = Date.now()): Session | null {
  const session = sessionStore.get();
  return session && !isExpired(session, now) ? session : null;
}

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, currentSession);
}
