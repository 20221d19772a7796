import type { RunTime } from '../../../contract/run-times.ts';
import type { Queryable } from '../../db/pool.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { measuredRunsOf, runEstimate, typicalRunMs } from './run-estimate.ts';

/**
 * `GET /v2/run-times`: the expected run of every offer of every model not retired, by the rule a new job
 * gets (`runEstimate`), for a request asking `asked` seconds of media (or none).
 */
export async function listRunTimes(
  db: Queryable,
  catalog: Catalog,
  asked: number | null,
): Promise<RunTime[]> {
  const models = catalog.models.filter((model) => catalog.lifecycle(model).status !== 'retired');
  const offers = models.flatMap((model) =>
    model.offers.map((offer) => ({ model, provider: offer.provider })),
  );
  const runsOf = await measuredRunsOf(
    db,
    offers.map(({ model, provider }) => ({ model: model.id, provider })),
  );
  return offers.map(({ model, provider }) => ({
    model: model.id,
    provider,
    estimate: runEstimate(runsOf(model.id, provider), asked, typicalRunMs(model)),
  }));
}
