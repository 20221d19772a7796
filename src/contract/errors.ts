import { z } from 'zod';

/**
 * Every error code the server answers, with its HTTP status. The spec (section 7) fixes most of them;
 * the rest are ours (api-extensions.md) and documented in the OpenAPI document.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  /** The API key's `expires_at` has passed (issue #31); a new key is needed. */
  api_key_expired: 401,
  insufficient_balance: 402,
  /** A key's spend limit or a hard-cap budget would be passed; details say what is left and when it resets. */
  spend_limit_exceeded: 402,
  forbidden: 403,
  not_found: 404,
  model_not_found: 404,
  /** The model is known but its provider no longer serves it; `details.replacement` names the model to use. */
  model_retired: 404,
  method_not_allowed: 405,
  conflict: 409,
  api_key_not_revealable: 409,
  /** A share would give a key more than 50 people (spec section 8); nothing is shared. 422 like other limits on a body. */
  share_limit_reached: 422,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  workspace_owner_unresolvable: 422,
  rate_limited: 429,
  internal_error: 500,
  pricing_unavailable: 503,
  provider_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCode = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

/** One field that failed validation: where it is and what is wrong with it. */
export const FieldIssue = z
  .object({
    field: z.string().meta({ description: 'Dotted path of the field, for example `files.0.url`.' }),
    message: z.string(),
    code: z.string(),
  })
  .meta({ id: 'FieldIssue' });
export type FieldIssue = z.infer<typeof FieldIssue>;

/** The spec's error envelope (section 7). */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().meta({ description: 'Stable, machine-readable code.' }),
      message: z.string().meta({ description: 'What went wrong, for a person.' }),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

/** Turns zod issues into field entries and the one-line message that names them (spec: "the message lists the fields"). */
export function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix = '',
): {
  message: string;
  fields: FieldIssue[];
} {
  const fields = issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    const field = prefix ? (path ? `${prefix}.${path}` : prefix) : path || '(body)';
    return { field, message: issue.message, code: issue.code };
  });
  const message = `Invalid request: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`;
  return { message, fields };
}
