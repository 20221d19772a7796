import { queryOptions } from '@tanstack/react-query';
import { api } from '../api/client.ts';

export const pricingKeys = {
  all: ['pricing'] as const,
};

/** The public price catalog: every model with its providers, prices and availability. */
export function pricingQueryOptions() {
  return queryOptions({
    queryKey: pricingKeys.all,
    queryFn: () => api().getPricing(),
    // Prices move rarely; a catalog a few minutes old is fine to show.
    staleTime: 5 * 60_000,
  });
}
