import type { Services } from '../../services.ts';
import type { Route } from '../define-route.ts';

/** The team: members, roles and invitations. */
export function teamRoutes(_s: Services): Route[] {
  return [];
}
