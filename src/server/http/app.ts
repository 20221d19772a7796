import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { AppError } from '../errors.ts';
import type { Services } from '../services.ts';
import { createAuthenticator } from './auth.ts';
import type { Route } from './define-route.ts';
import type { AppEnv } from './env.ts';
import { methodIndex, mountRoutes } from './mount.ts';
import { API_PREFIXES, createStaticHandler } from './static-files.ts';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function errorBody(code: string, message: string, details?: unknown) {
  return { error: { code, message, ...(details === undefined ? {} : { details }) } };
}

/** The Hono app: request ids and logs, the contract's routes, OpenAPI, health, the console, and one error path. */
export function createApp(s: Services, routes: readonly Route[]): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = createAuthenticator(s.db, s.apiKeys, s.sessions);
  const staticFiles = createStaticHandler(s.config.STATIC_DIR);
  const methods = methodIndex(routes);

  app.use(async (c, next) => {
    const inbound = c.req.header('x-request-id');
    const requestId = inbound && REQUEST_ID.test(inbound) ? inbound : `req_${randomBytes(8).toString('hex')}`;
    c.set('requestId', requestId);
    const started = performance.now();
    await next();
    c.header('x-request-id', requestId);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    const path = new URL(c.req.url).pathname; // the path only: query strings may carry emails
    s.log.info('request', {
      request_id: requestId,
      method: c.req.method,
      path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
    });
  });

  app.get('/healthz', async (c) => {
    await s.db.query('SELECT 1');
    return c.json({ status: 'ok' });
  });

  mountRoutes(app, routes, auth);

  app.notFound(async (c) => {
    const path = new URL(c.req.url).pathname;
    const known = methods.find((m) => m.pattern.test(path));
    if (known) {
      const allow = [...known.methods].join(', ');
      return c.json(
        errorBody('method_not_allowed', `${c.req.method} is not allowed here. Allowed: ${allow}.`),
        405,
        {
          allow,
        },
      );
    }
    if (!API_PREFIXES.some((p) => path.startsWith(p))) {
      const page = await staticFiles(c);
      if (page) return page;
    }
    return c.json(errorBody('not_found', `No route for ${c.req.method} ${path}.`), 404);
  });

  app.onError((error, c) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(errorBody(error.code, error.message, error.details), error.status as 400);
    }
    s.log.error('unhandled error', {
      request_id: c.get('requestId'),
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return c.json(
      errorBody('internal_error', `Something went wrong on our side. Request id: ${c.get('requestId')}.`),
      500,
    );
  });

  return app;
}
