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
import { type Grouping, groupKeySql } from './grouping.ts';
import {
  type ChargeRow,
  type Interval,
  type RunRow,
  rollupCharges,
  rollupRuns,
  rollupSetFor,
  splitByHours,
} from './rollup.ts';

/**
 * The ledger entries analytics counts: final charges (`settle`), refunds and adjustments. Holds and
 * their releases are reservations, not spend: credits held by unfinished jobs are in `balance.held_cents`.
 */
export const COUNTED_KINDS = ['settle', 'refund', 'adjustment'] as const;

export const ZERO: AnalyticsTotals = {
  spend_cents: 0,
  charges: 0,
  jobs: 0,
  runs: 0,
  unsuccessful_spend_cents: 0,
  unattributed_spend_cents: 0,
};

/** Where totals are read from: the hourly rollups plus the ledger for cut hours, or the ledger alone. */
export type Reads = 'rollup' | 'ledger';

/** A time condition on `column` for disjoint intervals: a plain range for one, a join for several. */
function inIntervals(p: Params, column: string, intervals: Interval[]): { join: string; where: string[] } {
  if (intervals.length === 1) {
    return {
      join: '',
      where: [`${column} >= ${p.add(intervals[0]!.from)}`, `${column} < ${p.add(intervals[0]!.to)}`],
    };
  }
  const starts = p.add(intervals.map((i) => i.from));
  const ends = p.add(intervals.map((i) => i.to));
  return {
    join: `JOIN unnest(${starts}::timestamptz[], ${ends}::timestamptz[]) AS r(a, b) ON ${column} >= r.a AND ${column} < r.b`,
    where: [],
  };
}

/** Charge totals per group, in SQL on the ledger, over disjoint intervals. */
async function ledgerCharges(
  db: Queryable,
  viewer: Viewer,
  filters: AnalyticsFilters,
  grouping: Grouping,
  intervals: Interval[],
): Promise<ChargeRow[]> {
  const p = new Params();
  const key = groupKeySql(p, grouping, viewer, LEDGER_COLUMNS, 'l.created_at');
  const time = inIntervals(p, 'l.created_at', intervals);
  const where = [
    `l.team_id = ${p.add(viewer.teamId)}`,
    `l.kind IN ('settle', 'refund', 'adjustment')`,
    ...time.where,
    ...filterConditions(p, LEDGER_COLUMNS, filters, viewer),
  ];
  const { rows } = await db.query<ChargeRow>(
    `SELECT ${key} AS key,
            -sum(l.delta_cents) AS spend,
            count(*) FILTER (WHERE l.delta_cents < 0) AS charges,
            count(*) FILTER (WHERE l.kind = 'settle' AND l.delta_cents < 0) AS jobs,
            coalesce(-sum(l.delta_cents) FILTER (WHERE l.job_status IN ('failed', 'cancelled')), 0) AS unsuccessful,
            coalesce(-sum(l.delta_cents) FILTER (WHERE l.job_id IS NULL AND l.api_key_id IS NULL AND l.person_id IS NULL), 0) AS unattributed
       FROM credit_ledger l ${time.join}
      WHERE ${where.join(' AND ')}
      GROUP BY 1`,
    p.values,
  );
  return rows;
}

/** Run counts per group, in SQL on jobs by creation time, over disjoint intervals. */
async function jobRuns(
  db: Queryable,
  viewer: Viewer,
  filters: AnalyticsFilters,
  grouping: Grouping,
  intervals: Interval[],
): Promise<RunRow[]> {
  const p = new Params();
  const key = groupKeySql(p, grouping, viewer, JOB_COLUMNS, 'j.created_at');
  const time = inIntervals(p, 'j.created_at', intervals);
  const where = [
    `j.team_id = ${p.add(viewer.teamId)}`,
    ...time.where,
    ...filterConditions(p, JOB_COLUMNS, filters, viewer),
    // A pipeline is one run: its steps are jobs started by the pipeline engine under the idempotency
    // key `pipeline:<pipeline job id>:<step id>`.
    `NOT EXISTS (SELECT 1 FROM idempotency_keys k
                  WHERE k.job_id = j.id AND k.key LIKE 'pipeline:%' AND k.team_id = j.team_id
                    AND EXISTS (SELECT 1 FROM jobs p WHERE p.id = split_part(k.key, ':', 2)
                                   AND p.team_id = k.team_id AND p.tool = 'pipeline'))`,
  ];
  const { rows } = await db.query<RunRow>(
    `SELECT ${key} AS key, count(*) AS runs FROM jobs j ${time.join} WHERE ${where.join(' AND ')} GROUP BY 1`,
    p.values,
  );
  return rows;
}

/**
 * Totals per group over one period. Every figure is additive over groups and over consecutive periods
 * (so the buckets of a series sum to the summary), which is also what lets a period be read as whole
 * hours from the rollups plus the cut hours from the ledger and jobs (rollup.ts).
 */
export async function totalsBy(
  db: Queryable,
  viewer: Viewer,
  filters: AnalyticsFilters,
  period: Interval,
  grouping: Grouping,
  reads: Reads = 'rollup',
): Promise<Map<string | null, AnalyticsTotals>> {
  const set = reads === 'rollup' ? rollupSetFor(filters, grouping) : null;
  const plan =
    set === null ? null : { set, ...splitByHours(period, grouping.kind === 'buckets' ? grouping.edges : []) };
  const raw = plan ? plan.raw : [period];
  // One after another: the queries share the snapshot's one connection.
  const ledgerRows = raw.length ? await ledgerCharges(db, viewer, filters, grouping, raw) : [];
  const jobRows = raw.length ? await jobRuns(db, viewer, filters, grouping, raw) : [];
  const chargeHours = plan?.hours
    ? await rollupCharges(db, viewer, filters, grouping, plan.set, plan.hours)
    : [];
  const runHours = plan?.hours ? await rollupRuns(db, viewer, filters, grouping, plan.set, plan.hours) : [];

  const out = new Map<string | null, AnalyticsTotals>();
  const add = (rawKey: string | number | null, totals: Partial<AnalyticsTotals>) => {
    // Bucket numbers come back as integers.
    const key = rawKey === null ? null : String(rawKey);
    const sum = out.get(key) ?? { ...ZERO };
    for (const [name, value] of Object.entries(totals) as [keyof AnalyticsTotals, number][])
      sum[name] += value;
    out.set(key, sum);
  };
  for (const row of [...ledgerRows, ...chargeHours]) {
    add(row.key, {
      spend_cents: Number(row.spend),
      charges: Number(row.charges),
      jobs: Number(row.jobs),
      unsuccessful_spend_cents: Number(row.unsuccessful),
      unattributed_spend_cents: Number(row.unattributed),
    });
  }
  for (const row of [...jobRows, ...runHours]) add(row.key, { runs: Number(row.runs) });
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
