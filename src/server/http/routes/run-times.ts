import { listRunTimes } from '../../../contract/run-times.ts';
import { listRunTimes as runTimesOf } from '../../domain/jobs/run-times.ts';
import type { Services } from '../../services.ts';
import { defineRoute } from '../define-route.ts';

export function runTimeRoutes(s: Services) {
  return [
    defineRoute(listRunTimes, async ({ query }) => ({
      data: await runTimesOf(s.db, s.catalog, query.duration ?? null),
    })),
  ];
}
