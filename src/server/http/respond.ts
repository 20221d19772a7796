import type { Context } from 'hono';
import type { AppEnv } from './env.ts';

/**
 * Every answer of the server is made here: a Response whose headers are a plain object, with the
 * request id and security headers on it. @hono/node-server writes such a Response straight to the
 * socket; Hono's own header helpers build a Headers object per request, which measured at a third
 * of the throughput of a bare node:http server on /v2/pricing.
 */
export function respond(
  c: Context<AppEnv>,
  status: number,
  body: string | ReadableStream | Uint8Array<ArrayBuffer> | null,
  headers: Record<string, string> = {},
): Response {
  return new Response(status === 204 || status === 304 || c.req.method === 'HEAD' ? null : body, {
    status,
    headers: {
      'x-request-id': c.get('requestId'),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      ...headers,
    },
  });
}

export function respondJson(
  c: Context<AppEnv>,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
) {
  return respond(c, status, status === 204 ? null : JSON.stringify(payload), {
    'content-type': 'application/json',
    ...headers,
  });
}

export function errorBody(code: string, message: string, details?: unknown) {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}
