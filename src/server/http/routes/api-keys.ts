import type { Services } from '../../services.ts';
import type { Route } from '../define-route.ts';

/** API keys: list, create, revoke, reveal, shares and the reveal log. */
export function apiKeyRoutes(_s: Services): Route[] {
  return [];
}
