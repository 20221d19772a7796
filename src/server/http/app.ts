import { Hono } from 'hono';
import { routePath } from 'hono/route';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { AppError } from '../errors.ts';
import { mountOpsRoutes } from '../ops/ops-routes.ts';
import type { Services } from '../services.ts';
import { API_REFERENCE_PATH, apiReferencePage } from './api-reference.ts';
import { createAuthenticator } from './auth.ts';
import type { Route } from './define-route.ts';
import type { AppEnv } from './env.ts';
import { mountMcp } from './mcp/mcp-route.ts';
import { mountOAuth } from './mcp/oauth-server.ts';
import { methodIndex, mountRoutes } from './mount.ts';
import { requestHeader } from './request-header.ts';
import { createRequestRecorder, type RequestRecorder, requestIdFor } from './request-record.ts';
import { errorBody, respondJson } from './respond.ts';
import { mountMedia } from './routes/media.ts';
import { API_PREFIXES, createStaticHandler } from './static-files.ts';

/**
 * The Hono app: request ids and logs, the contract's routes, OpenAPI, health, the console, and one error
 * path. `record` is shared with the fast path (fast-path.ts) where the server has one.
 */
export function createApp(
  s: Services,
  routes: readonly Route[],
  record: RequestRecorder = createRequestRecorder(s),
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = createAuthenticator(s.db, s.apiKeys, s.sessions);
  const staticFiles = createStaticHandler(s.config.STATIC_DIR);
  const methods = methodIndex(routes);

  // Answers are made by respond() with the request id on them; this only names the request and logs it.
  app.use(async (c, next) => {
    const requestId = requestIdFor(requestHeader(c, 'x-request-id'));
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    const ms = performance.now() - started;
    const { method } = c.req;
    const status = c.res.status;
    // Logs and metrics count by the matched route's pattern, never the raw path (ids would make a row each).
    const pattern = routePath(c, -1);
    const route = pattern === '*' || pattern === '/*' ? (status < 400 ? 'static' : 'unmatched') : pattern;
    // The path only: query strings may carry emails.
    record({ requestId, method, path: c.req.path, route, status, ms: Math.round(ms * 10) / 10 });
  });

  mountOpsRoutes(app, s);

  mountRoutes(app, routes, auth, s.config.TRUST_PROXY);
  // The MCP endpoint for AI agents: its tools call the routes above in-process.
  mountMcp(app, s, auth);
  mountOAuth(app, s);
  // Public output files (/media/...): outside the v2 interface, answered by id, no auth.
  mountMedia(app, s);

  app.notFound(async (c) => {
    const path = c.req.path;
    const known = methods.find((m) => m.pattern.test(path));
    if (known) {
      const allow = [...known.methods].join(', ');
      return respondJson(
        c,
        405,
        errorBody('method_not_allowed', `${c.req.method} is not allowed here. Allowed: ${allow}.`),
        {
          allow,
        },
      );
    }
    if (path === API_REFERENCE_PATH && (c.req.method === 'GET' || c.req.method === 'HEAD')) {
      return apiReferencePage(c);
    }
    if (!API_PREFIXES.some((p) => path.startsWith(p))) {
      const page = await staticFiles(c);
      if (page) return page;
    }
    return respondJson(c, 404, errorBody('not_found', `No route for ${c.req.method} ${path}.`));
  });

  app.onError((error, c) => {
    if (error instanceof AppError) {
      return respondJson(c, error.status, errorBody(error.code, error.message, error.details), error.headers);
    }
    if (isDatabaseUnavailable(error)) {
      // The database restarts or is unreachable: a clean, retryable answer, not a bug.
      s.log.warn('database unavailable', { request_id: c.get('requestId'), error: String(error) });
      return respondJson(
        c,
        503,
        errorBody('service_unavailable', 'The database is unavailable for a moment. Try again shortly.'),
        { 'Retry-After': '5' },
      );
    }
    s.log.error('unhandled error', {
      request_id: c.get('requestId'),
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return respondJson(
      c,
      500,
      errorBody('internal_error', `Something went wrong on our side. Request id: ${c.get('requestId')}.`),
    );
  });

  return app;
}
