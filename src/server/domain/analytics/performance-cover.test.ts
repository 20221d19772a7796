import { describe, expect, it } from 'vitest';
import { type CoverUnit, coverByGrains, type RollupCover } from './performance-cover.ts';

const HOUR_MS = 3_600_000;
const QUARTER_MS = 900_000;

function unitEnd(u: CoverUnit): number {
  const t = u.start.getTime();
  if (u.grain === 'hour') return t + HOUR_MS;
  if (u.grain === 'day') return t + 24 * HOUR_MS;
  return Date.UTC(u.start.getUTCFullYear(), u.start.getUTCMonth() + 1, 1);
}

/** How many times the cover counts instant t into bucket b (units with their sign, raw intervals once). */
function countedAt(cover: RollupCover, edges: Date[], b: number, t: number): number {
  let n = 0;
  for (const u of cover.units) if (u.bucket === b && u.start.getTime() <= t && t < unitEnd(u)) n += u.sign;
  for (const r of cover.raw)
    if (
      r.from.getTime() <= t &&
      t < r.to.getTime() &&
      edges[b - 1]!.getTime() <= t &&
      t < edges[b]!.getTime()
    )
      n += 1;
  return n;
}

/** Every quarter hour from a month before the first edge to a month after the last. */
function* instants(edges: Date[]): Generator<number> {
  const from = edges[0]!.getTime() - 31 * 24 * HOUR_MS;
  const to = edges.at(-1)!.getTime() + 31 * 24 * HOUR_MS;
  for (let t = Math.floor(from / QUARTER_MS) * QUARTER_MS; t < to; t += QUARTER_MS) yield t;
}

/** Local midnights of each day, week or month start in a time zone, as the series' edges are. */
function localEdges(timezone: string, from: string, count: number, step: 'day' | 'month'): Date[] {
  const offsetAt = (utc: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    }).formatToParts(new Date(utc));
    const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
    return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute')) - utc;
  };
  const [y, m, d] = from.split('-').map(Number) as [number, number, number];
  return Array.from({ length: count + 1 }, (_, i) => {
    const wall = step === 'day' ? Date.UTC(y, m - 1, d + i) : Date.UTC(y, m - 1 + i, d);
    // The wall-clock midnight, corrected once for the offset (twice around a change of offset).
    let utc = wall - offsetAt(wall);
    utc = wall - offsetAt(utc);
    return new Date(utc);
  });
}

describe('coverByGrains', () => {
  const cases: Array<[string, Date[]]> = [
    [
      'months in Europe/Paris (across both clock changes)',
      localEdges('Europe/Paris', '2025-11-01', 13, 'month'),
    ],
    ['days in Europe/Paris', localEdges('Europe/Paris', '2026-03-20', 14, 'day')],
    ['days in Asia/Kolkata (half-hour offset)', localEdges('Asia/Kolkata', '2026-01-28', 6, 'day')],
    ['months in America/New_York', localEdges('America/New_York', '2026-01-01', 4, 'month')],
    ['months in Pacific/Kiritimati (+14 h)', localEdges('Pacific/Kiritimati', '2026-01-01', 3, 'month')],
    [
      'UTC days ending at an hour of today',
      [...localEdges('UTC', '2026-10-25', 30, 'day').slice(0, 30), new Date('2026-11-24T12:00:00Z')],
    ],
    ['bounds off the hour', [new Date('2026-02-20T10:17:00Z'), new Date('2026-03-05T07:45:30Z')]],
    ['within one hour', [new Date('2026-02-20T10:17:00Z'), new Date('2026-02-20T10:45:00Z')]],
  ];
  for (const [name, edges] of cases) {
    it(`counts each instant of each bucket once and nothing else: ${name}`, () => {
      const cover = coverByGrains(edges);
      for (let b = 1; b < edges.length; b++) {
        const from = edges[b - 1]!.getTime();
        const to = edges[b]!.getTime();
        for (const t of instants(edges)) {
          const expected = from <= t && t < to ? 1 : 0;
          if (countedAt(cover, edges, b, t) !== expected)
            expect(countedAt(cover, edges, b, t), `bucket ${b} at ${new Date(t).toISOString()}`).toBe(
              expected,
            );
        }
      }
    });
  }

  it('reads a month in a time zone off UTC as its UTC month and a few hours, not its days', () => {
    const edges = localEdges('Europe/Paris', '2026-03-01', 1, 'month');
    const { units, raw } = coverByGrains(edges);
    expect(raw).toEqual([]);
    // [Feb 28 23:00Z, Mar 31 22:00Z): March, plus the hour before, minus its last two hours.
    expect(units.map((u) => `${u.sign > 0 ? '+' : '-'}${u.grain} ${u.start.toISOString()}`).sort()).toEqual([
      '+hour 2026-02-28T23:00:00.000Z',
      '+month 2026-03-01T00:00:00.000Z',
      '-hour 2026-03-31T22:00:00.000Z',
      '-hour 2026-03-31T23:00:00.000Z',
    ]);
  });

  it('reads a day in a time zone off UTC as its UTC day and hours at each end', () => {
    const edges = localEdges('Europe/Paris', '2026-06-10', 1, 'day');
    const { units } = coverByGrains(edges);
    expect(units.filter((u) => u.grain === 'day')).toHaveLength(1);
    expect(units.filter((u) => u.grain === 'hour')).toHaveLength(4);
  });
});
