import type { RunTime } from '../../../contract/run-times.ts';
import type { Queryable } from '../../db/pool.ts';
import type { Catalog } from '../catalog/catalog.ts';
import { measuredRunsOfAll, runEstimate, typicalRunMs } from './run-estimate.ts';

/**
 * `GET /v2/run-times`: the expected run of every offer of every model not retired, by the rule a new job
 * gets (`runEstimate`), for a request asking `asked` seconds of media (or none).
 */
export async function listRunTimes(
  db: Queryable,
  catalog: Catalog,
  asked: number | null,
): Promise<RunTime[]> {
  const runsOf = await measuredRunsOfAll(db);
  return catalog.models
    .filter((model) => catalog.lifecycle(model).status !== 'retired')
    .flatMap((model) =>
      model.offers.map((offer) => ({
        model: model.id,
        provider: offer.provider,
        estimate: runEstimate(runsOf(model.id, offer.provider), asked, typicalRunMs(model)),
      })),
    );
}
