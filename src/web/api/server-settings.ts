import { useSyncExternalStore } from 'react';
import { storedValue } from '../storage/stored-value.ts';

/**
 * Which v2 server the console talks to. `baseUrl: null` means this console's own origin + `/v2`
 * (the reference server serves the console); `apiKey`, when set, is sent instead of the session JWT.
 */
export interface ServerSettings {
  baseUrl: string | null;
  apiKey: string | null;
}

const isNullableString = (value: unknown): value is string | null =>
  value === null || typeof value === 'string';

/** Plain checks, not zod: every first screen reads these settings, and zod loads only with the pages that need it. */
function readServerSettings(json: unknown): ServerSettings | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const { baseUrl, apiKey } = json as Record<string, unknown>;
  return isNullableString(baseUrl) && isNullableString(apiKey) ? { baseUrl, apiKey } : undefined;
}

export const DEFAULT_SERVER_SETTINGS: ServerSettings = { baseUrl: null, apiKey: null };

export const serverSettingsStore = storedValue<ServerSettings>(
  'media-console:server',
  readServerSettings,
  DEFAULT_SERVER_SETTINGS,
);

export function defaultBaseUrl(): string {
  return `${window.location.origin}/v2`;
}

export function resolveBaseUrl(settings: ServerSettings): string {
  return settings.baseUrl ?? defaultBaseUrl();
}

export function useServerSettings(): ServerSettings {
  return useSyncExternalStore(serverSettingsStore.subscribe, serverSettingsStore.get);
}
