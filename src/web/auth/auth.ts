import type { z } from 'zod';
import { createClient } from '../../client/create-client.ts';
import type { VerifyOtpResponse } from '../../contract/auth.ts';
import { resolveBaseUrl, serverSettingsStore } from '../api/server-settings.ts';
import { currentSession, sessionStore } from './session.ts';

/** What routes see of authentication (router context). */
export interface Auth {
  /** A valid session, or a custom API key from Settings: either is enough to use the console. */
  isAuthenticated(): boolean;
}

export const auth: Auth = {
  isAuthenticated: () => currentSession() !== null || serverSettingsStore.get().apiKey !== null,
};

/** Set when the server refused the credentials (a 401), until the next sign-in. */
let refused = false;

/** Whether this tab was signed out because the server refused its credentials (the sign-in page says so). */
export function credentialsRefused(): boolean {
  return refused && !auth.isAuthenticated();
}

/**
 * Whether a sign-in has just led to the console's next page, for that page to take focus as a new page
 * would (routes/-components/app-shell/use-focus-on-new-page.ts): the console layout mounts anew after the
 * sign-in page, whether the console replaced it (a signed-out first load) or the router did.
 */
let arrivedBySignIn = false;

export function markArrivalBySignIn(): void {
  arrivedBySignIn = true;
}

/** True once after markArrivalBySignIn(). */
export function takeArrivalBySignIn(): boolean {
  const was = arrivedBySignIn;
  arrivedBySignIn = false;
  return was;
}

export function signIn(result: z.output<typeof VerifyOtpResponse>): void {
  refused = false;
  sessionStore.set({ token: result.access_token, expiresAt: result.expires_at, email: result.email });
}

/**
 * Forgets every credential kept in this browser: the session and a custom API key (a refused or
 * signed-out key must not keep the console "signed in"). The base URL stays.
 */
export function forgetCredentials(options: { refused?: boolean } = {}): void {
  refused = options.refused ?? false;
  sessionStore.clear();
  const settings = serverSettingsStore.get();
  if (settings.apiKey !== null) serverSettingsStore.set({ ...settings, apiKey: null });
}

/**
 * Revokes the session on the server, then forgets it here. The revoke goes through its own client:
 * it must carry the session JWT even when a custom key is the usual Bearer, and a 401 (session
 * already gone) must not trigger the console's sign-out-on-401 handler. Failure is ignored: the
 * person asked to leave, and the local session is dropped either way.
 */
export async function signOut(): Promise<void> {
  const session = currentSession();
  if (session) {
    const revoke = createClient({ baseUrl: resolveBaseUrl(serverSettingsStore.get()), token: session.token });
    await revoke.signOut().catch(() => undefined);
  }
  forgetCredentials();
}
