import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { storedValue } from '../storage/stored-value.ts';

/**
 * Which v2 server the console talks to. `baseUrl: null` means this console's own origin + `/v2`
 * (the reference server serves the console); `apiKey`, when set, is sent instead of the session JWT.
 */
const ServerSettings = z.object({
  baseUrl: z.string().nullable(),
  apiKey: z.string().nullable(),
});
export type ServerSettings = z.infer<typeof ServerSettings>;

export const DEFAULT_SERVER_SETTINGS: ServerSettings = { baseUrl: null, apiKey: null };

export const serverSettingsStore = storedValue<ServerSettings>(
  'media-console:server',
  ServerSettings,
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

/**
 * The settings form. The base URL must be an http(s) URL without credentials, query or fragment;
 * `/v2` is appended when missing, since `{base_url}` includes the version segment (spec, top).
 */
export const ServerSettingsForm = z.object({
  baseUrl: z
    .string()
    .trim()
    .min(1, { message: 'Enter the base URL of a v2 server' })
    .pipe(z.url({ protocol: /^https?$/, message: 'Enter an http:// or https:// URL' }))
    .refine(
      (value) => {
        // An unparsable value was already reported by the URL check (zod runs later checks anyway).
        if (!URL.canParse(value)) return true;
        const url = new URL(value);
        return !url.username && !url.password && !url.search && !url.hash;
      },
      { message: 'Leave out credentials, query and fragment' },
    )
    .transform((value) => {
      const url = new URL(value);
      const path = url.pathname.replace(/\/+$/, '');
      return `${url.origin}${path.endsWith('/v2') ? path : `${path}/v2`}`;
    }),
  apiKey: z
    .string()
    .trim()
    .max(512, { message: 'That is too long for an API key' })
    .regex(/^\S*$/, { message: 'An API key has no spaces' })
    .transform((value) => (value === '' ? null : value)),
});
export type ServerSettingsFormInput = z.input<typeof ServerSettingsForm>;
