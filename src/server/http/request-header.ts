import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * A request header. Under @hono/node-server the Node request's own (plain, lower-cased) header object
 * is read: reaching for `Request.headers` there makes it build a full fetch Request per request, a
 * quarter of the cost of a small answer. In-process calls (tests) have no Node request.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? nodeHeader(incoming, name) : c.req.header(name);
}

/** A header of a Node request as one string (a repeated header's values joined, as fetch's Headers does). */
export function nodeHeader(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
