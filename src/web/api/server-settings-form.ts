import { z } from 'zod';

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
