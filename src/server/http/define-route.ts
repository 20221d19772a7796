import type { Context } from 'hono';
import type { z } from 'zod';
import type { EndpointDef, EndpointOutput } from '../../contract/endpoint.ts';
import type { AuthContext } from '../domain/identity/auth-context.ts';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteInput<E extends EndpointDef> {
  params: Out<E['params']>;
  query: Out<E['query']>;
  body: Out<E['body']>;
  /** The request headers the endpoint declares, validated (lower-case names). */
  headers: Out<E['headers']>;
  /** Set for endpoints whose auth is `any` or `session`; may be set for `optional`. */
  auth: E['auth'] extends 'any' | 'session' ? AuthContext : AuthContext | null;
  c: Context;
}

export interface Reply<T> {
  status: 200 | 201 | 202 | 204;
  body: T;
  headers?: Record<string, string>;
}

/**
 * A handler answers with its body, a Reply (status and headers), or a Response made with respond()
 * for non-JSON answers and 304s (so the request id and security headers are on it).
 */
export type RouteHandler<E extends EndpointDef> = (
  input: RouteInput<E>,
) => Promise<Reply<EndpointOutput<E>> | EndpointOutput<E> | Response>;

/** A handler bound to its endpoint: the HTTP layer validates input and auth before calling it. */
export interface Route<E extends EndpointDef = EndpointDef> {
  endpoint: E;
  handler: RouteHandler<E>;
}

export function defineRoute<E extends EndpointDef>(endpoint: E, handler: RouteHandler<E>): Route {
  return { endpoint, handler } as unknown as Route;
}

export function reply<T>(status: Reply<T>['status'], body: T, headers?: Record<string, string>): Reply<T> {
  return { status, body, headers };
}

export function isReply(value: unknown): value is Reply<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    'body' in value &&
    Object.keys(value).every((k) => k === 'status' || k === 'body' || k === 'headers')
  );
}
