import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import type { AppEnv } from '../http/env.ts';
import { requestHeader } from '../http/request-header.ts';
import { errorBody, respond, respondJson } from '../http/respond.ts';
import type { Services } from '../services.ts';
import { checkReadiness } from './readiness.ts';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * /healthz (the process answers), /readyz (its dependencies answer: 503 names the one that does not) and
 * /metrics (Prometheus text; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`). Mounted
 * on the api's app and on a worker's small listener alike.
 */
export function mountOpsRoutes(app: Hono<AppEnv>, s: Services): void {
  app.get('/healthz', (c) => respondJson(c, 200, { status: 'ok' }, { 'cache-control': 'no-store' }));

  app.get('/readyz', async (c) => {
    const { ready, checks } = await checkReadiness(s);
    if (ready) return respondJson(c, 200, { status: 'ready', checks }, { 'cache-control': 'no-store' });
    const down = Object.entries(checks)
      .filter(([, v]) => v !== 'ok')
      .map(([k]) => k);
    return respondJson(
      c,
      503,
      errorBody('service_unavailable', `Not ready: ${down.join(', ')} unreachable.`, { checks }),
      { 'cache-control': 'no-store', 'Retry-After': '5' },
    );
  });

  app.get('/metrics', async (c) => {
    const token = s.config.METRICS_TOKEN;
    if (token) {
      const given = requestHeader(c, 'authorization')?.match(/^Bearer (.+)$/)?.[1] ?? '';
      if (!sameSecret(given, token)) {
        return respondJson(
          c,
          401,
          errorBody('unauthorized', 'Metrics need the bearer token METRICS_TOKEN.'),
          {
            'www-authenticate': 'Bearer',
          },
        );
      }
    }
    const { registry } = s.metrics;
    return respond(c, 200, await registry.metrics(), {
      'content-type': registry.contentType,
      'cache-control': 'no-store',
    });
  });
}
