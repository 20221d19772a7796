/*
 * How the buckets of a performance answer are read from the rollup of migration 028, whose rows hold
 * whole UTC hours, days and months. Histograms and counts add up and so also subtract: a bucket may be
 * read as a signed sum of units, as long as each instant is counted once in total. A month in
 * Europe/Paris, [Oct 31 23:00Z, Nov 30 23:00Z), is then the UTC month of November plus the hour before it
 * minus its last hour (three reads), where a cover by additions only takes an hour, 29 days and 23 hours
 * (53 reads, each day as many rows as a month). What no whole hour covers (a bound off the hour, an edge
 * in a half-hour time zone) is read from the jobs.
 */

export type Grain = 'hour' | 'day' | 'month';

/** A rollup period counted into bucket `bucket` (numbered from 1, as width_bucket numbers edges). */
export interface CoverUnit {
  grain: Grain;
  start: Date;
  sign: 1 | -1;
  bucket: number;
}

export interface Interval {
  from: Date;
  to: Date;
}

export interface RollupCover {
  units: CoverUnit[];
  /** Disjoint intervals in order, each off the hour at one end at least: read from the jobs. */
  raw: Interval[];
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * What a unit costs to read, in rough rows: a grain's rows grow with the distinct latency buckets its
 * jobs fill, far slower than its length (a day of a busy team holds about three hours' rows, a month
 * under two days').
 */
const COST: Record<Grain, number> = { hour: 1, day: 3, month: 5 };

type Piece = { grain: Grain; start: number; sign: 1 | -1 };

const costOf = (pieces: Piece[]) => pieces.reduce((sum, p) => sum + COST[p.grain], 0);
const cheaper = (a: Piece[], b: Piece[]) => (costOf(b) < costOf(a) ? b : a);

function monthStart(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

function nextMonth(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The closest boundary of a grain to t (the earlier on a tie). */
function nearest(t: number, grain: 'day' | 'month'): number {
  const before = grain === 'day' ? Math.floor(t / DAY_MS) * DAY_MS : monthStart(t);
  const after = grain === 'day' ? before + DAY_MS : nextMonth(before);
  return t - before <= after - t ? before : after;
}

/** Units of `grain` over [from, to) (both on its boundaries), with a sign. */
function run(grain: Grain, from: number, to: number, sign: 1 | -1): Piece[] {
  const out: Piece[] = [];
  for (let t = from; t < to; t = grain === 'month' ? nextMonth(t) : t + (grain === 'day' ? DAY_MS : HOUR_MS))
    out.push({ grain, start: t, sign });
  return out;
}

/** [from, to) − [from, rounded) at the start, as signed units of `grain`: what turns `rounded` into `from`. */
function fix(grain: Grain, from: number, rounded: number, atStart: boolean): Piece[] {
  if (from === rounded) return [];
  const [a, b] = from < rounded ? [from, rounded] : [rounded, from];
  // At the start, an earlier true bound adds [from, rounded); at the end, an earlier one removes it.
  const sign = from < rounded === atStart ? 1 : -1;
  return run(grain, a, b, sign);
}

/** [from, to) on day boundaries: whole months where they fit, else days; or rounded to months and fixed. */
function coverDays(from: number, to: number): Piece[] {
  const greedy: Piece[] = [];
  for (let t = from; t < to; ) {
    if (t === monthStart(t) && nextMonth(t) <= to) {
      greedy.push({ grain: 'month', start: t, sign: 1 });
      t = nextMonth(t);
    } else {
      greedy.push({ grain: 'day', start: t, sign: 1 });
      t += DAY_MS;
    }
  }
  const a = nearest(from, 'month');
  const b = nearest(to, 'month');
  if (a >= b) return greedy;
  return cheaper(greedy, [
    ...run('month', a, b, 1),
    ...fix('day', from, a, true),
    ...fix('day', to, b, false),
  ]);
}

/** [from, to) on hour boundaries, the cheaper of whole periods inside it or rounded to days and fixed. */
function coverHours(from: number, to: number): Piece[] {
  const dayFrom = Math.ceil(from / DAY_MS) * DAY_MS;
  const dayTo = Math.floor(to / DAY_MS) * DAY_MS;
  const inside =
    dayFrom < dayTo
      ? [...run('hour', from, dayFrom, 1), ...coverDays(dayFrom, dayTo), ...run('hour', dayTo, to, 1)]
      : run('hour', from, to, 1);
  const a = nearest(from, 'day');
  const b = nearest(to, 'day');
  if (a >= b) return inside;
  return cheaper(inside, [...coverDays(a, b), ...fix('hour', from, a, true), ...fix('hour', to, b, false)]);
}

/**
 * Each bucket [edges[i], edges[i+1]) as signed rollup units (bucket i + 1) whose sum counts every instant
 * of the bucket once and nothing else, and the parts of hours its bounds cut, read from the jobs.
 */
export function coverByGrains(edges: Date[]): RollupCover {
  const out: RollupCover = { units: [], raw: [] };
  const raw = (from: number, to: number) => {
    if (from >= to) return;
    const previous = out.raw[out.raw.length - 1];
    if (previous && previous.to.getTime() === from) previous.to = new Date(to);
    else out.raw.push({ from: new Date(from), to: new Date(to) });
  };
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i]!.getTime();
    const to = edges[i + 1]!.getTime();
    const hourFrom = Math.ceil(from / HOUR_MS) * HOUR_MS;
    const hourTo = Math.floor(to / HOUR_MS) * HOUR_MS;
    if (hourFrom >= hourTo) {
      raw(from, to);
      continue;
    }
    raw(from, hourFrom);
    for (const p of coverHours(hourFrom, hourTo))
      out.units.push({ grain: p.grain, start: new Date(p.start), sign: p.sign, bucket: i + 1 });
    raw(hourTo, to);
  }
  return out;
}
