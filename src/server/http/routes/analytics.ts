import type { Services } from '../../services.ts';
import type { Route } from '../define-route.ts';

/** Spend analytics over the credit ledger: summary, time series, breakdown, activity. */
export function analyticsRoutes(_s: Services): Route[] {
  return [];
}
