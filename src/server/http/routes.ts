import type { Services } from '../services.ts';
import type { Route } from './define-route.ts';
import { accountRoutes } from './routes/account.ts';
import { authRoutes } from './routes/auth.ts';
import { catalogRoutes } from './routes/catalog.ts';

/** Every route this server answers; the OpenAPI document lists exactly these. */
export function allRoutes(s: Services): Route[] {
  return [...authRoutes(s), ...accountRoutes(s), ...catalogRoutes(s, {}, {})];
}
