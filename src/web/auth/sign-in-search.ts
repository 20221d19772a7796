import { z } from 'zod';
import { sanitizeRedirect } from './redirect.ts';

/**
 * Search params of /sign-in. `redirect` is where to go after signing in: anything but a path of
 * this app is dropped (no open redirect). `reason` explains why the person is here.
 */
export const SignInSearch = z.object({
  redirect: z
    .string()
    .optional()
    .transform((value) => (value === undefined ? undefined : (sanitizeRedirect(value) ?? undefined)))
    .catch(undefined),
  reason: z.enum(['expired']).optional().catch(undefined),
});
