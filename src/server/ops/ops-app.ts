import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { errorBody, respondJson } from '../http/respond.ts';
import type { Services } from '../services.ts';
import { mountOpsRoutes } from './ops-routes.ts';

const REQUEST_ID_PREFIX = `ops_${randomBytes(5).toString('hex')}`;
let counter = 0;

/** A worker's only HTTP surface: /healthz, /readyz and /metrics, for its orchestrator and Prometheus. */
export function createOpsApp(s: Services): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('requestId', `${REQUEST_ID_PREFIX}${(counter++).toString(36)}`);
    await next();
  });
  mountOpsRoutes(app, s);
  app.notFound((c) =>
    respondJson(c, 404, errorBody('not_found', 'A worker answers only /healthz, /readyz and /metrics.')),
  );
  app.onError((error, c) => {
    s.log.error('ops endpoint failed', { error: String(error) });
    return respondJson(c, 500, errorBody('internal_error', 'Something went wrong on our side.'));
  });
  return app;
}
