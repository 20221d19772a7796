import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { storedValue } from '../storage/stored-value.ts';

/** What the console keeps of a sign-in: the session JWT, when it stops working, and whose it is. */
const Session = z.object({
  token: z.string().min(1),
  expiresAt: z.iso.datetime({ offset: true }),
  email: z.string(),
});
export type Session = z.infer<typeof Session>;

export const SESSION_KEY = 'media-console:session';

export const sessionStore = storedValue<Session | null>(SESSION_KEY, Session.nullable(), null);

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
