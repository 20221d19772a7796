import type { Services } from '../services.ts';
import type { Route } from './define-route.ts';
import { accountRoutes } from './routes/account.ts';
import { authRoutes } from './routes/auth.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { openApiRoutes } from './routes/openapi.ts';

/** Every route this server answers; the OpenAPI document lists exactly these. */
export function allRoutes(s: Services): Route[] {
  const routes: Route[] = [];
  routes.push(...authRoutes(s), ...accountRoutes(s), ...catalogRoutes(s), ...openApiRoutes(s, () => routes));
  return routes;
}
