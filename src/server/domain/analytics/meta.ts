import type pg from 'pg';
import type { AnalyticsMeta } from '../../../contract/analytics.ts';
import { type Db, transaction } from '../../db/pool.ts';
import { AppError } from '../../errors.ts';
import { type AnalyticsFilters, appliedFilters, type Viewer } from './filters.ts';
import type { QueryInstants } from './range.ts';

/** The date of the metric definitions below (docs/api.md, "Spend analytics"); bump it when a definition changes. */
export const DEFINITION_VERSION = '2026-11-24';

/**
 * Runs the queries of one answer in one read-only snapshot, so every figure of it (periods, buckets,
 * balance) describes the same instant, `data_as_of`. A time zone the database does not know is a 422.
 */
export async function inSnapshot<T>(
  db: Db,
  timezone: string,
  work: (tx: pg.PoolClient, asOf: Date) => Promise<T>,
): Promise<T> {
  return transaction(db, async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    let asOf: Date;
    try {
      const { rows } = await tx.query<{ now: Date }>('SELECT now() AS now, now() AT TIME ZONE $1 AS local', [
        timezone,
      ]);
      asOf = rows[0]!.now;
    } catch {
      const message = `unknown time zone "${timezone}": must be an IANA time zone, for example Europe/Paris`;
      throw new AppError('invalid_request', `Invalid request: query.timezone: ${message}`, {
        status: 422,
        details: { fields: [{ field: 'query.timezone', message, code: 'custom' }] },
      });
    }
    return work(tx, asOf);
  });
}

export function metaOf(
  range: QueryInstants,
  filters: AnalyticsFilters,
  viewer: Viewer,
  asOf: Date,
): AnalyticsMeta {
  return {
    definition_version: DEFINITION_VERSION,
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    timezone: range.timezone,
    compare: {
      mode: range.compare.mode,
      from: range.compare.from?.toISOString() ?? null,
      to: range.compare.to?.toISOString() ?? null,
    },
    filters: appliedFilters(filters),
    data_as_of: asOf.toISOString(),
    money_unit: 'cents',
    time_basis: 'ledger_posted_at',
    attribution_scope: viewer.scope,
  };
}

/** Just the filter fields of a parsed query. */
export function filtersOf(query: AnalyticsFilters): AnalyticsFilters {
  const { capability, model, folder, api_key, member, creator, source, status } = query;
  const all = { capability, model, folder, api_key, member, creator, source, status };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined)) as AnalyticsFilters;
}
