import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { toColonPath } from '../../contract/endpoint.ts';
import { describeIssues } from '../../contract/errors.ts';
import { refuseWrite } from '../domain/identity/key-restrictions.ts';
import { AppError } from '../errors.ts';
import { type Authenticator, acceptsSharedAccess } from './auth.ts';
import { clientAddress } from './client-address.ts';
import { isReply, type Route } from './define-route.ts';
import type { AppEnv } from './env.ts';
import { requestHeader } from './request-header.ts';
import { readJsonObject, refuseUnsafeText, unsafeTextFields } from './request-input.ts';
import { respondJsonNegotiated } from './respond.ts';

function validate<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const { message, fields } = describeIssues(parsed.error.issues, where === 'body' ? '' : where);
  throw new AppError('invalid_request', message, { status: 422, details: { fields } });
}

function queryObject(c: Context): Record<string, string> {
  // Most requests carry no query: parsing their URL would be work for nothing on every small GET.
  const url = c.req.url;
  const start = url.indexOf('?');
  if (start < 0) return {};
  // A repeated parameter keeps its last value; lists are comma-separated (as the spec's analytics filters).
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(url.slice(start + 1))) out[key] = value;
  return out;
}

/** How many validated path parameter sets each route keeps (pollers ask for the same ids again and again). */
const KNOWN_PARAMS_MAX = 1000;

/**
 * Path parameters validated once per distinct value: pollers ask for the same ids again and again, and
 * zod's parse of `{ id }` would otherwise be the largest part of a polled GET's own work. Only valid ones
 * are kept, frozen so no handler can change what the next one gets.
 */
function paramsValidator(schema: z.ZodType) {
  const known = new Map<string, unknown>();
  return (raw: Record<string, string>): unknown => {
    // NUL cannot occur here (refused before), so it separates the values unambiguously.
    const key = Object.values(raw).join('\u0000');
    const hit = known.get(key);
    if (hit !== undefined) return hit;
    const parsed = validate(schema, raw, 'path');
    if (known.size >= KNOWN_PARAMS_MAX) known.clear();
    known.set(key, typeof parsed === 'object' && parsed !== null ? Object.freeze(parsed) : parsed);
    return parsed;
  };
}

/** Registers each route on the app: auth, then path, query and body validation, then the handler. */
export function mountRoutes(
  app: Hono<AppEnv>,
  routes: readonly Route[],
  auth: Authenticator,
  trustProxy: boolean,
): void {
  for (const { endpoint, handler } of routes) {
    const validParams = endpoint.params ? paramsValidator(endpoint.params) : null;
    app.on(endpoint.method, toColonPath(endpoint.path), async (c) => {
      // Public routes skip authentication entirely (a Bearer token there is ignored, as the spec allows).
      const context =
        endpoint.auth === 'none'
          ? null
          : await auth.authenticate(
              requestHeader(c, 'authorization'),
              endpoint.auth,
              requestHeader(c, 'x-team-id'),
              {
                sharedAccess: acceptsSharedAccess(endpoint.path),
                address: () => c.env?.clientAddress ?? clientAddress(c, trustProxy),
                countRequest: c.env?.mcpCall !== true,
              },
            );
      // A read-only key may read, and nothing else: every route, MCP tools' calls included, passes here.
      refuseWrite(context?.restrictions, endpoint.method, endpoint.path);
      // Runs an agent starts through /mcp are recorded as `mcp`, whatever credential it sent.
      if (context) c.set('auth', c.env?.mcpCall === true ? { ...context, source: 'mcp' } : context);
      const headers = endpoint.headers
        ? validate(
            endpoint.headers,
            Object.fromEntries(
              Object.keys(endpoint.headers.shape).map((name) => [name, requestHeader(c, name)]),
            ),
            'header',
          )
        : undefined;
      // Text PostgreSQL cannot hold (NUL, lone surrogates) is refused here, before any route sees it.
      const rawParams = c.req.param() as Record<string, string>;
      if (unsafeTextFields(rawParams, 'path').length > 0) {
        throw new AppError('not_found', `Nothing at ${c.req.method} ${endpoint.path} has that id.`);
      }
      const params = validParams ? validParams(rawParams) : undefined;
      const rawQuery = queryObject(c);
      refuseUnsafeText(rawQuery, 'query');
      const query = endpoint.query ? validate(endpoint.query, rawQuery, 'query') : undefined;
      let body: unknown;
      if (endpoint.body) {
        const raw = await readJsonObject(c);
        refuseUnsafeText(raw, '');
        body = validate(endpoint.body, raw, 'body');
      }
      const result: unknown = await handler({
        params,
        query,
        body,
        headers,
        auth: c.get('auth') ?? null,
        c,
      } as never);
      if (result instanceof Response) return result;
      const answer = isReply(result) ? result : { status: 200 as const, body: result, headers: undefined };
      const extra = endpoint.noStore ? { ...answer.headers, 'cache-control': 'no-store' } : answer.headers;
      return respondJsonNegotiated(c, answer.status, answer.body, extra);
    });
  }
}

/** Path patterns and their methods, to tell 405 (known path, other method) from 404. */
export function methodIndex(routes: readonly Route[]): Array<{ pattern: RegExp; methods: Set<string> }> {
  const byPath = new Map<string, Set<string>>();
  for (const { endpoint } of routes) {
    const methods = byPath.get(endpoint.path) ?? new Set<string>();
    methods.add(endpoint.method);
    byPath.set(endpoint.path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: new RegExp(
      `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '[^/]+')}/?$`,
    ),
    methods,
  }));
}
