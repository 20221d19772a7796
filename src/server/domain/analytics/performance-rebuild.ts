import { PERFORMANCE_ENTRIES } from '../../db/migrations/028-performance-rollup.ts';
import type { Queryable } from '../../db/pool.ts';

/*
 * The performance rollup of one team rebuilt from its jobs in three statements, for bulk loads that
 * insert jobs with triggers off (the bench seeds a million jobs so) and for repairs. The hour grain is
 * grouped from the jobs with the entries the trigger writes (PERFORMANCE_ENTRIES), the day grain from the
 * hours and the month grain from the days: counts add up, and a UTC hour lies in one UTC day and month,
 * so each grain holds exactly what the trigger would have written (performance.test.ts holds them equal).
 * Rows go in key order, so the primary key grows at its right edge instead of splitting pages at random.
 */

const ORIGIN = "timestamptz '2000-01-01 00:00:00+00'";
const COLUMNS = 'team_id, grain, period_start, kind, model, provider, tool, key, n';

/** Replaces the team's rollup rows with those of its jobs; run it in the transaction that wrote them. */
export async function rebuildPerformanceRollup(db: Queryable, teamId: string): Promise<void> {
  await db.query('DELETE FROM performance_rollup WHERE team_id = $1', [teamId]);
  await db.query(
    `INSERT INTO performance_rollup (${COLUMNS})
     SELECT j.team_id, 'hour', date_bin('1 hour', j.created_at, ${ORIGIN}) AS start, e.kind, j.model, j.provider,
            j.tool, e.key, count(*)
       FROM jobs j
      CROSS JOIN LATERAL ${PERFORMANCE_ENTRIES('j')} e(kind, key)
      WHERE j.team_id = $1 AND e.key IS NOT NULL
      GROUP BY 1, 3, 4, 5, 6, 7, 8
      ORDER BY 3, 4, 5, 6, 7, 8`,
    [teamId],
  );
  for (const [grain, from, start] of [
    ['day', 'hour', `date_bin('1 day', c.period_start, ${ORIGIN})`],
    ['month', 'day', `date_trunc('month', c.period_start AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`],
  ] as const) {
    await db.query(
      `INSERT INTO performance_rollup (${COLUMNS})
       SELECT c.team_id, '${grain}', ${start} AS start, c.kind, c.model, c.provider, c.tool, c.key, sum(c.n)
         FROM performance_rollup c
        WHERE c.team_id = $1 AND c.grain = '${from}'
        GROUP BY 1, 3, 4, 5, 6, 7, 8
        ORDER BY 3, 4, 5, 6, 7, 8`,
      [teamId],
    );
  }
}
