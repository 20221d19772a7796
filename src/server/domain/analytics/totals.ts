import type { AnalyticsTotals } from '../../../contract/analytics.ts';
import type { Queryable } from '../../db/pool.ts';
import {
  type AnalyticsFilters,
  filterConditions,
  JOB_COLUMNS,
  LEDGER_COLUMNS,
  Params,
  type Viewer,
} from './filters.ts';

/**
 * The ledger entries analytics counts: final charges (`settle`), refunds and adjustments. Holds and
 * their releases are reservations, not spend: credits held by unfinished jobs are in `balance.held_cents`.
 */
export const COUNTED_KINDS = ['settle', 'refund', 'adjustment'] as const;

/** How rows are grouped: not at all, by a dimension's SQL value, or into time buckets (edge instants). */
export type Grouping =
  | { kind: 'none' }
  | { kind: 'sql'; ledger: (p: Params) => string; jobs: (p: Params) => string }
  | { kind: 'buckets'; edges: Date[] };

export const ZERO: AnalyticsTotals = {
  spend_cents: 0,
  charges: 0,
  jobs: 0,
  runs: 0,
  unsuccessful_spend_cents: 0,
  unattributed_spend_cents: 0,
};

interface Period {
  from: Date;
  to: Date;
}

function groupSql(p: Params, grouping: Grouping, side: 'ledger' | 'jobs', column: string): string {
  if (grouping.kind === 'none') return "''";
  if (grouping.kind === 'sql') return grouping[side](p);
  return `width_bucket(${column}, ${p.add(grouping.edges)}::timestamptz[])`;
}

/**
 * Totals per group over one period, in SQL on the ledger (charges) and on jobs (runs). Every figure is
 * additive over groups and over consecutive periods, so the buckets of a series sum to the summary.
 */
export async function totalsBy(
  db: Queryable,
  viewer: Viewer,
  filters: AnalyticsFilters,
  period: Period,
  grouping: Grouping,
): Promise<Map<string | null, AnalyticsTotals>> {
  const lp = new Params();
  const lkey = groupSql(lp, grouping, 'ledger', 'l.created_at');
  const lwhere = [
    `l.team_id = ${lp.add(viewer.teamId)}`,
    `l.kind IN ('settle', 'refund', 'adjustment')`,
    `l.created_at >= ${lp.add(period.from)}`,
    `l.created_at < ${lp.add(period.to)}`,
    ...filterConditions(lp, LEDGER_COLUMNS, filters, viewer),
  ];
  const charges = db.query<{
    key: string | number | null;
    spend: number;
    charges: number;
    jobs: number;
    unsuccessful: number;
    unattributed: number;
  }>(
    `SELECT ${lkey} AS key,
            -sum(l.delta_cents)::bigint AS spend,
            count(*) FILTER (WHERE l.delta_cents < 0) AS charges,
            count(*) FILTER (WHERE l.kind = 'settle' AND l.delta_cents < 0) AS jobs,
            coalesce(-sum(l.delta_cents) FILTER (WHERE l.job_status IN ('failed', 'cancelled')), 0)::bigint AS unsuccessful,
            coalesce(-sum(l.delta_cents) FILTER (WHERE l.job_id IS NULL AND l.api_key_id IS NULL AND l.person_id IS NULL), 0)::bigint AS unattributed
       FROM credit_ledger l
      WHERE ${lwhere.join(' AND ')}
      GROUP BY 1`,
    lp.values,
  );

  const jp = new Params();
  const jkey = groupSql(jp, grouping, 'jobs', 'j.created_at');
  const jwhere = [
    `j.team_id = ${jp.add(viewer.teamId)}`,
    `j.created_at >= ${jp.add(period.from)}`,
    `j.created_at < ${jp.add(period.to)}`,
    ...filterConditions(jp, JOB_COLUMNS, filters, viewer),
    // A pipeline is one run: its steps are jobs started by the pipeline engine under the idempotency
    // key `pipeline:<pipeline job id>:<step id>`.
    `NOT EXISTS (SELECT 1 FROM idempotency_keys k
                  WHERE k.job_id = j.id AND k.key LIKE 'pipeline:%' AND k.team_id = j.team_id
                    AND EXISTS (SELECT 1 FROM jobs p WHERE p.id = split_part(k.key, ':', 2)
                                   AND p.team_id = k.team_id AND p.tool = 'pipeline'))`,
  ];
  const runs = db.query<{ key: string | number | null; runs: number }>(
    `SELECT ${jkey} AS key, count(*) AS runs FROM jobs j WHERE ${jwhere.join(' AND ')} GROUP BY 1`,
    jp.values,
  );

  const out = new Map<string | null, AnalyticsTotals>();
  const entry = (key: string | null) => {
    let totals = out.get(key);
    if (!totals) {
      totals = { ...ZERO };
      out.set(key, totals);
    }
    return totals;
  };
  const [chargeRows, runRows] = await Promise.all([charges, runs]);
  // Bucket numbers come back as integers (grouping by them is cheaper than by text).
  const keyOf = (key: string | number | null) => (key === null ? null : String(key));
  for (const row of chargeRows.rows) {
    Object.assign(entry(keyOf(row.key)), {
      spend_cents: Number(row.spend),
      charges: Number(row.charges),
      jobs: Number(row.jobs),
      unsuccessful_spend_cents: Number(row.unsuccessful),
      unattributed_spend_cents: Number(row.unattributed),
    });
  }
  for (const row of runRows.rows) entry(keyOf(row.key)).runs = Number(row.runs);
  return out;
}

export function addTotals(a: AnalyticsTotals, b: AnalyticsTotals): AnalyticsTotals {
  return {
    spend_cents: a.spend_cents + b.spend_cents,
    charges: a.charges + b.charges,
    jobs: a.jobs + b.jobs,
    runs: a.runs + b.runs,
    unsuccessful_spend_cents: a.unsuccessful_spend_cents + b.unsuccessful_spend_cents,
    unattributed_spend_cents: a.unattributed_spend_cents + b.unattributed_spend_cents,
  };
}
