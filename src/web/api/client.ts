import type { ApiError } from '../../client/api-error.ts';
import { type Client, createClient } from '../../client/create-client.ts';
import { currentSession } from '../auth/session.ts';
import { teamHeaders } from '../team/current-team.ts';
import { resolveBaseUrl, serverSettingsStore } from './server-settings.ts';

type UnauthorizedHandler = (error: ApiError) => void;

let onUnauthorized: UnauthorizedHandler | null = null;

/** Registers what happens when any call answers 401 (main.tsx: end the session, go to sign-in). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): void {
  onUnauthorized = handler;
}

/** The Bearer value for API calls: a custom key from Settings wins over the session JWT. */
export function bearerToken(): string | null {
  return serverSettingsStore.get().apiKey ?? currentSession()?.token ?? null;
}

function build(): Client {
  return createClient({
    baseUrl: resolveBaseUrl(serverSettingsStore.get()),
    token: bearerToken,
    // Every call acts for the team the console works in (the one place X-Team-Id is added).
    headers: teamHeaders,
    onError: (error) => {
      if (error.status === 401) onUnauthorized?.(error);
    },
  });
}

/** Keys and team endpoints take only a session (spec 5.3): a custom key from Settings must not replace it. */
function buildSessionClient(): Client {
  return createClient({
    baseUrl: resolveBaseUrl(serverSettingsStore.get()),
    token: () => currentSession()?.token ?? null,
    headers: teamHeaders,
    onError: (error) => {
      if (error.status === 401) onUnauthorized?.(error);
    },
  });
}

let client = build();
let sessionClient = buildSessionClient();
serverSettingsStore.subscribe(() => {
  client = build();
  sessionClient = buildSessionClient();
});

/** The console's one API client, rebuilt when the server settings change. */
export function api(): Client {
  return client;
}

/** A client that always sends the session JWT, for the endpoints that refuse API keys. */
export function sessionApi(): Client {
  return sessionClient;
}
