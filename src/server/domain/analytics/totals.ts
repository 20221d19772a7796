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

/** The ledger columns the figures, filters and dimensions read (all in credit_ledger_analytics_idx). */
const LEDGER_READ = `l.team_id, l.created_at, l.delta_cents, l.kind, l.job_id, l.job_status, l.tool, l.model, l.folder_id,
  l.api_key_id, l.person_id, l.source`;
/** The job columns runs read (all in jobs_analytics_idx). */
const JOB_READ =
  'j.id, j.team_id, j.created_at, j.tool, j.model, j.folder_id, j.api_key_id, j.person_id, j.source, j.status';

/**
 * The rows of `table` (aliased `alias`) in disjoint intervals of `time` that meet `where`: one range scan
 * for one interval; for several (the cut hours of a year of days in a half-hour zone), a range scan per
 * interval, kept apart from the outer query (OFFSET 0), or the planner joins the whole year instead.
 */
function rowsIn(
  p: Params,
  table: string,
  alias: string,
  columns: string,
  time: string,
  intervals: Interval[],
  where: string[],
): string {
  if (intervals.length === 1) {
    const range = [`${time} >= ${p.add(intervals[0]!.from)}`, `${time} < ${p.add(intervals[0]!.to)}`];
    return `${table} ${alias} WHERE ${[...range, ...where].join(' AND ')}`;
  }
  const starts = p.add(intervals.map((i) => i.from));
  const ends = p.add(intervals.map((i) => i.to));
  return `unnest(${starts}::timestamptz[], ${ends}::timestamptz[]) AS r(a, b)
    CROSS JOIN LATERAL (SELECT ${columns} FROM ${table} ${alias}
                         WHERE ${[`${time} >= r.a`, `${time} < r.b`, ...where].join(' AND ')} OFFSET 0) ${alias}`;
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
  const where = [
    `l.team_id = ${p.add(viewer.teamId)}`,
    `l.kind IN ('settle', 'refund', 'adjustment')`,
    ...filterConditions(p, LEDGER_COLUMNS, filters, viewer),
  ];
  const { rows } = await db.query<ChargeRow>(
    `SELECT ${key} AS key,
            -sum(l.delta_cents) AS spend,
            count(*) FILTER (WHERE l.delta_cents < 0) AS charges,
            count(*) FILTER (WHERE l.kind = 'settle' AND l.delta_cents < 0) AS jobs,
            coalesce(-sum(l.delta_cents) FILTER (WHERE l.job_status IN ('failed', 'cancelled')), 0) AS unsuccessful,
            coalesce(-sum(l.delta_cents) FILTER (WHERE l.job_id IS NULL AND l.api_key_id IS NULL AND l.person_id IS NULL), 0) AS unattributed
       FROM ${rowsIn(p, 'credit_ledger', 'l', LEDGER_READ, 'l.created_at', intervals, where)}
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
  const where = [
    `j.team_id = ${p.add(viewer.teamId)}`,
    ...filterConditions(p, JOB_COLUMNS, filters, viewer),
    // A pipeline is one run: its steps are jobs started by the pipeline engine under the idempotency
    // key `pipeline:<pipeline job id>:<step id>`.
    `NOT EXISTS (SELECT 1 FROM idempotency_keys k
                  WHERE k.job_id = j.id AND k.key LIKE 'pipeline:%' AND k.team_id = j.team_id
                    AND EXISTS (SELECT 1 FROM jobs p WHERE p.id = split_part(k.key, ':', 2)
                                   AND p.team_id = k.team_id AND p.tool = 'pipeline'))`,
  ];
  const { rows } = await db.query<RunRow>(
    `SELECT ${key} AS key, count(*) AS runs
       FROM ${rowsIn(p, 'jobs', 'j', JOB_READ, 'j.created_at', intervals, where)}
      GROUP BY 1`,
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
