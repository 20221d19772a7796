import type { Context } from 'hono';
import { COMPRESS_MIN_BYTES, chooseCoding, compress } from './compression.ts';
import type { AppEnv } from './env.ts';
import { requestHeader } from './request-header.ts';
import { SECURITY_HEADERS } from './request-record.ts';

/**
 * Every answer of the server is made here: a Response whose headers are a plain object, with the
 * request id and security headers on it. @hono/node-server writes such a Response straight to the
 * socket; Hono's own header helpers build a Headers object per request, a cost every answer pays and
 * the one polled GETs feel most (see docs/performance.md, "The HTTP path").
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
      ...SECURITY_HEADERS,
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

/**
 * JSON made per request (a page of jobs is about 80 KB), compressed when the client asks for it and it is
 * at least COMPRESS_MIN_BYTES, off the event loop (zlib's thread pool). Never an answer that carries a
 * secret (no-store): compressing a secret beside text the caller chose lets its length leak it (BREACH).
 */
export async function respondJsonNegotiated(
  c: Context<AppEnv>,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  if (status === 204) return respond(c, status, null, headers);
  const text = JSON.stringify(payload);
  const eligible =
    text.length >= COMPRESS_MIN_BYTES && headers['cache-control'] !== 'no-store' && c.req.method !== 'HEAD';
  if (!eligible) return respond(c, status, text, { 'content-type': 'application/json', ...headers });
  const vary = headers.vary ? `${headers.vary}, accept-encoding` : 'accept-encoding';
  const coding = chooseCoding(requestHeader(c, 'accept-encoding'));
  if (!coding) return respond(c, status, text, { 'content-type': 'application/json', ...headers, vary });
  return respond(c, status, (await compress(text, coding)) as Buffer<ArrayBuffer>, {
    'content-type': 'application/json',
    ...headers,
    vary,
    'content-encoding': coding,
  });
}

export function errorBody(code: string, message: string, details?: unknown) {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}
