import type { AnalyticsDimension } from '../../../contract/analytics.ts';
import type { Queryable } from '../../db/pool.ts';
import { type AnalyticsFilters, type Columns, filterConditions, Params, type Viewer } from './filters.ts';
import { type Grouping, groupKeySql } from './grouping.ts';

/*
 * Reading the hourly rollups of migration 008 (analytics_charge_hours, analytics_run_hours). A period
 * is read as whole UTC hours from the rollup and, from the ledger and jobs, the parts of hours that a
 * bound or a bucket edge cuts (a bound off the hour, a day in a half-hour time zone): the same rows
 * either way, so the figures stay exact to the cent.
 */

const HOUR_MS = 3_600_000;

/** The bit of each column in a rollup row's grouping set (`dims`), as the migration writes them. */
const FILTER_BITS: Record<keyof AnalyticsFilters, number> = {
  capability: 1,
  model: 2,
  folder: 4,
  api_key: 8,
  member: 16,
  creator: 8 | 16,
  source: 32,
  status: 64,
};
const DIMENSION_BITS: Record<AnalyticsDimension, number> = {
  capability: 1,
  model: 2,
  folder: 4,
  api_key: 8,
  member: 16,
  creator: 8 | 16,
  source: 32,
  status: 64,
};

/** The grouping sets the rollups keep (SETS in migration 008), fewest rows first. */
const ROLLUP_SETS = [0, 64, 32, 16, 8, 4, 1 | 2, 8 | 16];

/** The rollup's columns, under the names filters and dimensions use (source and status never NULL). */
export const ROLLUP_COLUMNS: Columns = {
  tool: 'c.tool',
  model: 'c.model',
  folder: 'c.folder_id',
  apiKey: 'c.api_key_id',
  person: 'c.person_id',
  source: 'c.source',
  status: 'c.status',
};

/**
 * The grouping set that holds every column a query filters or groups by, or null when none does
 * (filters on two dimensions, or a filter and a breakdown by another: read from the ledger).
 */
export function rollupSetFor(filters: AnalyticsFilters, grouping: Grouping): number | null {
  let needed = grouping.kind === 'dimension' ? DIMENSION_BITS[grouping.dimension] : 0;
  for (const name of Object.keys(filters) as (keyof AnalyticsFilters)[]) {
    if (filters[name] !== undefined) needed |= FILTER_BITS[name];
  }
  return ROLLUP_SETS.find((set) => (set & needed) === needed) ?? null;
}

export interface Interval {
  from: Date;
  to: Date;
}

/** A period cut into whole hours read from the rollup and the rest read from the ledger and jobs. */
export interface HourSplit {
  /** Whole UTC hours [from, to) except `skip`, the hours that a bucket edge cuts. */
  hours: (Interval & { skip: Date[] }) | null;
  /** Disjoint intervals, in order: the cut hours, clipped to the period. */
  raw: Interval[];
}

export function splitByHours(period: Interval, edges: Date[]): HourSplit {
  const from = period.from.getTime();
  const to = period.to.getTime();
  const floor = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;
  const first = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const last = floor(to);
  if (first >= last) return { hours: null, raw: from < to ? [period] : [] };
  const cut = new Set<number>();
  for (const edge of [from, ...edges.map((e) => e.getTime()), to]) {
    if (edge % HOUR_MS !== 0 && edge >= from && edge <= to) cut.add(floor(edge));
  }
  const raw: Interval[] = [];
  for (const hour of [...cut].sort((a, b) => a - b)) {
    const start = Math.max(hour, from);
    const end = Math.min(hour + HOUR_MS, to);
    const previous = raw[raw.length - 1];
    if (previous && previous.to.getTime() === start) previous.to = new Date(end);
    else raw.push({ from: new Date(start), to: new Date(end) });
  }
  const skip = [...cut].filter((h) => h >= first && h < last).map((h) => new Date(h));
  return { hours: { from: new Date(first), to: new Date(last), skip }, raw };
}

export interface ChargeRow {
  key: string | number | null;
  spend: string;
  charges: string;
  jobs: string;
  unsuccessful: string;
  unattributed: string;
}

export interface RunRow {
  key: string | number | null;
  runs: string;
}

function rollupWhere(
  p: Params,
  viewer: Viewer,
  filters: AnalyticsFilters,
  set: number,
  hours: Interval & { skip: Date[] },
): string {
  return [
    `c.team_id = ${p.add(viewer.teamId)}`,
    `c.dims = ${p.add(set)}`,
    `c.hour >= ${p.add(hours.from)}`,
    `c.hour < ${p.add(hours.to)}`,
    ...(hours.skip.length ? [`c.hour <> ALL(${p.add(hours.skip)}::timestamptz[])`] : []),
    ...filterConditions(p, ROLLUP_COLUMNS, filters, viewer),
  ].join(' AND ');
}

/** Charge totals per group from the rollup's whole hours (groups with no ledger entry left out). */
export async function rollupCharges(
  db: Queryable,
  viewer: Viewer,
  filters: AnalyticsFilters,
  grouping: Grouping,
  set: number,
  hours: Interval & { skip: Date[] },
): Promise<ChargeRow[]> {
  const p = new Params();
  const key = groupKeySql(p, grouping, viewer, ROLLUP_COLUMNS, 'c.hour');
  const { rows } = await db.query<ChargeRow>(
    `SELECT ${key} AS key, sum(c.spend_cents) AS spend, sum(c.charges) AS charges, sum(c.jobs) AS jobs,
            sum(c.unsuccessful_cents) AS unsuccessful, sum(c.unattributed_cents) AS unattributed
       FROM analytics_charge_hours c
      WHERE ${rollupWhere(p, viewer, filters, set, hours)}
      GROUP BY 1 HAVING sum(c.entries) > 0`,
    p.values,
  );
  return rows;
}

/** Run counts per group from the rollup's whole hours. */
export async function rollupRuns(
  db: Queryable,
  viewer: Viewer,
  filters: AnalyticsFilters,
  grouping: Grouping,
  set: number,
  hours: Interval & { skip: Date[] },
): Promise<RunRow[]> {
  const p = new Params();
  const key = groupKeySql(p, grouping, viewer, ROLLUP_COLUMNS, 'c.hour');
  const { rows } = await db.query<RunRow>(
    `SELECT ${key} AS key, sum(c.runs) AS runs
       FROM analytics_run_hours c
      WHERE ${rollupWhere(p, viewer, filters, set, hours)}
      GROUP BY 1 HAVING sum(c.runs) > 0`,
    p.values,
  );
  return rows;
}
