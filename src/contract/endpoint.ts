import type { z } from 'zod';
import type { Tag } from './common.ts';
import type { ErrorCode } from './errors.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an endpoint:
 * - `none`: public; - `optional`: a Bearer token is used when present;
 * - `any`: an API key or a session JWT; - `session`: only a session JWT (spec 5.3).
 */
export type AuthMode = 'none' | 'optional' | 'any' | 'session';

/** Where a path lives: `{base_url}`-relative (/v2, /v1) or on `{app_url}` (/api/...). */
export type Host = 'api' | 'app';

export interface SuccessResponse {
  description: string;
  schema?: z.ZodType;
  /** Non-JSON answers (YAML, files) name their media type; JSON is the default. */
  contentType?: string;
}

export interface EndpointDef {
  operationId: string;
  method: HttpMethod;
  /** Full path from the server root with `{param}` placeholders, for example `/v2/jobs/{id}`. */
  path: string;
  host: Host;
  tag: Tag;
  summary: string;
  description?: string;
  auth: AuthMode;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Request headers the endpoint reads (documented, validated where a schema is given). */
  headers?: z.ZodObject;
  responses: Partial<Record<200 | 201 | 202 | 204, SuccessResponse>>;
  /** Error codes this endpoint can answer beyond the common ones (401 for authenticated routes, 422). */
  errors: readonly ErrorCode[];
  /** Responses carrying secrets are never cached (api-extensions.md). */
  noStore?: boolean;
  /**
   * A development helper of the reference server (the dev mailbox): mounted and in the SDK, but left out
   * of the published OpenAPI document, which describes the interface other clients may rely on.
   */
  internal?: boolean;
}

/** Identity function that keeps the literal type, so the client can infer inputs and outputs. */
export function defineEndpoint<const E extends EndpointDef>(endpoint: E): E {
  return endpoint;
}

type SchemaOf<R> = R extends { schema: infer S extends z.ZodType } ? S : never;
type Responses<E extends EndpointDef> = E['responses'][keyof E['responses']];

/** What a successful call returns (the union of its 2xx JSON bodies). */
export type EndpointOutput<E extends EndpointDef> = [SchemaOf<Responses<E>>] extends [never]
  ? undefined
  : z.output<SchemaOf<Responses<E>>>;

/** What a caller passes: path params, query and body, each in its input form. */
export type EndpointInput<E extends EndpointDef> = (E['params'] extends z.ZodType
  ? { params: z.input<E['params']> }
  : { params?: undefined }) &
  (E['query'] extends z.ZodType ? { query?: z.input<E['query']> } : { query?: undefined }) &
  (E['body'] extends z.ZodType ? { body: z.input<E['body']> } : { body?: undefined }) & {
    headers?: Record<string, string>;
  };

/** `/v2/jobs/{id}` → `/v2/jobs/:id` for routers that use colon parameters. */
export function toColonPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/** Fills `{param}` placeholders, encoding each value. */
export function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`missing path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}
